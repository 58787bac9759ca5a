import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyRule, MAX_AMOUNT, supportedCurrencies } from './currency';
import { allocate, fromDecimalString, majorUnits, toDecimalString } from './money';

/**
 * ISO 4217 minor-unit exponents, written out here from the standard rather than read back from
 * currency.ts, so that a wrong exponent in the code is caught rather than copied.
 */
const iso4217Exponent: Record<string, number> = {
  // zero-decimal
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  // three-decimal
  BHD: 3,
  JOD: 3,
  KWD: 3,
  OMR: 3,
  TND: 3,
  // two-decimal
  AED: 2,
  AUD: 2,
  BGN: 2,
  BRL: 2,
  CAD: 2,
  CHF: 2,
  CNY: 2,
  CZK: 2,
  DKK: 2,
  EUR: 2,
  GBP: 2,
  HKD: 2,
  HUF: 2,
  ILS: 2,
  INR: 2,
  MXN: 2,
  MYR: 2,
  NOK: 2,
  NZD: 2,
  PHP: 2,
  PLN: 2,
  RON: 2,
  SAR: 2,
  SEK: 2,
  SGD: 2,
  THB: 2,
  TRY: 2,
  USD: 2,
  ZAR: 2,
};

const codes = supportedCurrencies.map((c) => c.code);
const anyCurrency = fc.constantFrom(...codes);
const anySafeInteger = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

/** The expected ISO exponent of a supported currency; fails loudly for a code this test does not know. */
function expectedExponent(code: string): number {
  const exponent = iso4217Exponent[code];
  if (exponent === undefined) throw new Error(`add ${code} and its ISO 4217 exponent to this test`);
  return exponent;
}

describe('currency rules', () => {
  it('supports a non-trivial list, each code three upper-case letters, none twice', () => {
    expect(codes.length).toBeGreaterThanOrEqual(40);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it.each(codes)('%s has its ISO 4217 exponent', (code) => {
    expect(currencyRule(code)?.exponent).toBe(expectedExponent(code));
  });

  it.each([
    ['JPY', 0],
    ['KRW', 0],
    ['USD', 2],
    ['EUR', 2],
    ['KWD', 3],
    ['BHD', 3],
  ])('%s has exponent %i', (code, exponent) => {
    expect(currencyRule(code)?.exponent).toBe(exponent);
  });

  it('looks a code up in any case and refuses unknown codes', () => {
    expect(currencyRule('usd')?.code).toBe('USD');
    expect(currencyRule('Jpy')?.code).toBe('JPY');
    expect(currencyRule('XXX')).toBeUndefined();
    expect(currencyRule('')).toBeUndefined();
    expect(currencyRule('US')).toBeUndefined();
  });

  it('has a positive integer minimum for every currency, below the maximum amount', () => {
    for (const rule of supportedCurrencies) {
      expect(Number.isSafeInteger(rule.minimum), rule.code).toBe(true);
      expect(rule.minimum, rule.code).toBeGreaterThan(0);
      expect(rule.minimum, rule.code).toBeLessThan(MAX_AMOUNT);
    }
  });

  it('has the minimums design.md §5 names (USD/EUR 50, GBP 30, JPY 50)', () => {
    expect(currencyRule('USD')?.minimum).toBe(50);
    expect(currencyRule('EUR')?.minimum).toBe(50);
    expect(currencyRule('GBP')?.minimum).toBe(30);
    expect(currencyRule('JPY')?.minimum).toBe(50);
  });

  it('caps amounts at 99,999,999 minor units', () => {
    expect(MAX_AMOUNT).toBe(99_999_999);
  });

  it('lists currencies sorted by code', () => {
    expect(codes).toEqual([...codes].sort());
  });
});

describe('toDecimalString', () => {
  it.each(codes)('%s writes exactly its ISO 4217 number of decimals', (code) => {
    const exponent = expectedExponent(code);
    const one = toDecimalString(1, code);
    const big = toDecimalString(123456789, code);
    if (exponent === 0) {
      expect(one).toBe('1');
      expect(big).toBe('123456789');
    } else {
      expect(one).toBe(`0.${'0'.repeat(exponent - 1)}1`);
      expect(big.split('.')[1]).toHaveLength(exponent);
      expect(big.replace('.', '')).toBe('123456789');
    }
  });

  it.each([
    [2001, 'USD', '20.01'],
    [5, 'USD', '0.05'],
    [0, 'USD', '0.00'],
    [100, 'EUR', '1.00'],
    [500, 'JPY', '500'],
    [0, 'JPY', '0'],
    [50000, 'KRW', '50000'],
    [1500, 'KWD', '1.500'],
    [1, 'BHD', '0.001'],
    [-2001, 'USD', '-20.01'],
    [-7, 'KWD', '-0.007'],
    [99_999_999, 'USD', '999999.99'],
  ])('(%i, %s) → %s', (amount, currency, expected) => {
    expect(toDecimalString(amount, currency)).toBe(expected);
  });

  it('accepts a lower-case currency code', () => {
    expect(toDecimalString(2001, 'usd')).toBe('20.01');
  });

  it('refuses fractional, non-finite and unsafe amounts instead of rounding', () => {
    expect(() => toDecimalString(20.5, 'USD')).toThrow(RangeError);
    expect(() => toDecimalString(Number.NaN, 'USD')).toThrow(RangeError);
    expect(() => toDecimalString(Number.POSITIVE_INFINITY, 'USD')).toThrow(RangeError);
    expect(() => toDecimalString(Number.MAX_SAFE_INTEGER + 1, 'USD')).toThrow(RangeError);
  });

  it('refuses an unsupported currency', () => {
    expect(() => toDecimalString(100, 'XXX')).toThrow(RangeError);
  });
});

describe('fromDecimalString', () => {
  it.each([
    ['20.01', 'USD', 2001],
    ['20.1', 'USD', 2010],
    ['20', 'USD', 2000],
    ['0.05', 'USD', 5],
    [' 20.01 ', 'USD', 2001],
    ['500', 'JPY', 500],
    ['1.5', 'KWD', 1500],
    ['1.500', 'KWD', 1500],
    ['0.001', 'BHD', 1],
    ['-20.01', 'USD', -2001],
    ['2001', 'KRW', 2001],
  ])('(%s, %s) → %i', (value, currency, expected) => {
    expect(fromDecimalString(value, currency)).toBe(expected);
  });

  it.each(codes)('%s: one unit of the major currency is 10^exponent minor units', (code) => {
    expect(fromDecimalString('1', code)).toBe(10 ** expectedExponent(code));
  });

  it.each([
    ['20.011', 'USD'],
    ['0.001', 'EUR'],
    ['1.5', 'JPY'],
    ['100.1', 'KRW'],
    ['1.0001', 'KWD'],
    ['0.0005', 'BHD'],
  ])('refuses %s %s: more decimals than the currency has', (value, currency) => {
    expect(() => fromDecimalString(value, currency)).toThrow(RangeError);
  });

  it('never rounds: one decimal more than the exponent is always refused (property)', () => {
    fc.assert(
      fc.property(
        anyCurrency,
        fc.nat({ max: 1_000_000 }),
        fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 4 }),
        (code, whole, extra) => {
          const exponent = expectedExponent(code);
          const value = `${whole}.${'0'.repeat(exponent)}${extra}`;
          expect(() => fromDecimalString(value, code)).toThrow(RangeError);
        },
      ),
    );
  });

  it.each(['', 'abc', '1,00', '1.', '.5', '1e3', '$1.00', '--1', '1.2.3'])('refuses malformed %j', (value) => {
    expect(() => fromDecimalString(value, 'USD')).toThrow(RangeError);
  });

  it('refuses an amount beyond the safe integer range', () => {
    expect(() => fromDecimalString('90071992547409.93', 'USD')).toThrow(RangeError);
    expect(() => fromDecimalString('9007199254740993', 'JPY')).toThrow(RangeError);
  });

  it('refuses an unsupported currency', () => {
    expect(() => fromDecimalString('1.00', 'XXX')).toThrow(RangeError);
  });

  it('round trip: any safe integer in any supported currency survives toDecimalString → fromDecimalString', () => {
    fc.assert(
      fc.property(anyCurrency, anySafeInteger, (code, amount) => {
        const text = toDecimalString(amount, code);
        const exponent = expectedExponent(code);
        if (exponent === 0) expect(text).not.toContain('.');
        else expect(text.split('.')[1]).toHaveLength(exponent);
        // Object.is: -0 must not appear for 0, and every amount must come back exactly.
        expect(Object.is(fromDecimalString(text, code), amount)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('round trip over every currency at the edges of the safe range', () => {
    for (const code of codes) {
      for (const amount of [0, 1, -1, 9, 10, 99, 100, 999, 1000, MAX_AMOUNT, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
        expect(fromDecimalString(toDecimalString(amount, code), code), `${amount} ${code}`).toBe(amount);
      }
    }
  });
});

describe('majorUnits', () => {
  it.each([
    [200199, 'USD', 2001],
    [200100, 'USD', 2001],
    [299999, 'USD', 2999],
    [300000, 'USD', 3000],
    [99, 'USD', 0],
    [2001, 'JPY', 2001],
    [2001, 'KRW', 2001],
    [2001500, 'KWD', 2001],
    [2001999, 'BHD', 2001],
    [999, 'KWD', 0],
  ])('(%i, %s) → %i', (amount, currency, expected) => {
    expect(majorUnits(amount, currency)).toBe(expected);
  });

  it('is the integer part of the decimal string for every non-negative amount (property)', () => {
    fc.assert(
      fc.property(anyCurrency, fc.nat({ max: Number.MAX_SAFE_INTEGER }), (code, amount) => {
        const text = toDecimalString(amount, code);
        expect(majorUnits(amount, code)).toBe(Number(text.split('.')[0]));
      }),
    );
  });

  it('refuses an unsupported currency', () => {
    expect(() => majorUnits(100, 'XXX')).toThrow(RangeError);
  });
});

describe('allocate', () => {
  const weights = fc.array(fc.nat({ max: 1_000_000 }), { minLength: 1, maxLength: 20 }).filter((ws) => ws.some((w) => w > 0));
  /** Realistic amounts: anything a session can hold, and refunds of it. */
  const amount = fc.integer({ min: 0, max: MAX_AMOUNT });

  /** Small amounts and weights too, where exact shares (and so the rounding edge cases) are common. */
  const smallWeights = fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 6 }).filter((ws) => ws.some((w) => w > 0));
  const amountAndWeights = fc.oneof(fc.tuple(amount, weights), fc.tuple(fc.integer({ min: 0, max: 60 }), smallWeights));

  it.each([
    [100, [1, 1, 1], [34, 33, 33]],
    [10, [1, 1], [5, 5]],
    [1000, [3, 1], [750, 250]],
    [7, [1, 0, 1], [4, 0, 3]],
    [0, [5, 5], [0, 0]],
  ])('allocate(%i, %j) → %j', (total, ws, expected) => {
    expect(allocate(total, ws)).toEqual(expected);
  });

  it('parts always add up to the whole (property)', () => {
    fc.assert(
      fc.property(amountAndWeights, ([total, ws]) => {
        const parts = allocate(total, ws);
        expect(parts).toHaveLength(ws.length);
        expect(parts.reduce((s, p) => s + p, 0)).toBe(total);
        for (const p of parts) expect(Number.isSafeInteger(p)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('a zero weight always gets zero (property)', () => {
    fc.assert(
      fc.property(amountAndWeights, ([total, ws]) => {
        const parts = allocate(total, ws);
        ws.forEach((w, i) => {
          if (w === 0) expect(parts[i]).toBe(0);
        });
      }),
    );
  });

  /** |part − total·w/sum|, as the exact fraction numerator over `sum` (integer arithmetic, no float error). */
  function shareErrors(total: number, ws: number[], parts: number[]): { error: bigint; sum: bigint }[] {
    const sum = BigInt(ws.reduce((s, w) => s + w, 0));
    return ws.map((w, i) => {
      const e = BigInt(parts[i]!) * sum - BigInt(total) * BigInt(w);
      return { error: e < 0n ? -e : e, sum };
    });
  }

  it('no part is ever more than one minor unit away from its exact share (property)', () => {
    fc.assert(
      fc.property(amountAndWeights, ([total, ws]) => {
        for (const { error, sum } of shareErrors(total, ws, allocate(total, ws))) {
          expect(error <= sum).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('every part is strictly less than one minor unit from its exact share (property)', () => {
    fc.assert(
      fc.property(amountAndWeights, ([total, ws]) => {
        for (const { error, sum } of shareErrors(total, ws, allocate(total, ws))) {
          expect(error < sum, `${total} by ${JSON.stringify(ws)}`).toBe(true);
        }
      }),
      { numRuns: 3000, examples: [[[4, [3, 1, 1, 1]]]] },
    );
  });

  it('gives an extra unit to the largest fractional shares, never to an exact one: allocate(4, [3,1,1,1])', () => {
    expect(allocate(4, [3, 1, 1, 1])).toEqual([2, 1, 1, 0]);
  });

  it('parts add up to the whole even for amounts near Number.MAX_SAFE_INTEGER', () => {
    const whole = 8725724278030012;
    expect(allocate(whole, [542])).toEqual([whole]);
  });

  it('works for negative amounts (a refund split) and still adds up', () => {
    const parts = allocate(-100, [1, 1, 1]);
    expect(parts.reduce((s, p) => s + p, 0)).toBe(-100);
    for (const p of parts) expect(Math.abs(p - -100 / 3)).toBeLessThan(1);
  });

  it('refuses empty, all-zero or negative weights and a fractional amount', () => {
    expect(() => allocate(100, [])).toThrow(RangeError);
    expect(() => allocate(100, [0, 0])).toThrow(RangeError);
    expect(() => allocate(100, [2, -1])).toThrow(RangeError);
    expect(() => allocate(10.5, [1, 1])).toThrow(RangeError);
  });
});
