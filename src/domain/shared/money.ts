import { currencyRule, type CurrencyRule } from './currency';

/**
 * Money is an integer count of a currency's minor units. Conversions to and from decimal strings
 * use integer arithmetic only, so no amount ever gains or loses a minor unit through a float.
 *
 * @example toDecimalString(2001, 'USD') === '20.01'; toDecimalString(1500, 'KWD') === '1.500'
 */
export interface Money {
  readonly amount: number;
  readonly currency: string;
}

function ruleOf(currency: string): CurrencyRule {
  const rule = currencyRule(currency);
  if (!rule) throw new RangeError(`unsupported currency ${currency}`);
  return rule;
}

/** Minor units → the processor's decimal string: (2001, 'USD') → '20.01', (500, 'JPY') → '500'. */
export function toDecimalString(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`amount must be an integer, got ${amount}`);
  const { exponent } = ruleOf(currency);
  const sign = amount < 0 ? '-' : '';
  const digits = Math.abs(amount)
    .toString()
    .padStart(exponent + 1, '0');
  if (exponent === 0) return sign + digits;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * A decimal string → minor units, exactly: ('20.01', 'USD') → 2001. More decimals than the
 * currency has is an error rather than a silent rounding.
 */
export function fromDecimalString(value: string, currency: string): number {
  const { exponent } = ruleOf(currency);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) throw new RangeError(`not a decimal amount: ${value}`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > exponent) {
    throw new RangeError(`${currency} has ${exponent} decimals, got ${value}`);
  }
  const minor = Number(whole + fraction.padEnd(exponent, '0'));
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount out of range: ${value}`);
  return sign === '-' ? -minor : minor;
}

/** The whole major units of an amount, rounded down: (200199, 'USD') → 2001. */
export function majorUnits(amount: number, currency: string): number {
  const { exponent } = ruleOf(currency);
  return Math.floor(amount / 10 ** exponent);
}

/**
 * Splits an amount into parts proportional to integer `weights` (largest-remainder method): each
 * part is less than one minor unit from its exact share, and the parts always add up to the whole.
 */
export function allocate(amount: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(amount)) throw new RangeError('amount must be an integer');
  if (weights.length === 0 || weights.some((w) => !Number.isSafeInteger(w) || w < 0)) {
    throw new RangeError('weights must be non-negative integers');
  }
  // BigInt keeps amount × weight exact beyond 2^53.
  const total = weights.reduce((sum, w) => sum + BigInt(w), 0n);
  if (total === 0n) throw new RangeError('weights must have a positive sum');
  const whole = BigInt(amount);
  const shares = weights.map((w) => {
    const exact = whole * BigInt(w);
    let floor = exact / total;
    if (exact % total !== 0n && exact < 0n) floor -= 1n; // floor, not truncation, for negative amounts
    return { floor, remainder: exact - floor * total };
  });
  let left = whole - shares.reduce((sum, s) => sum + s.floor, 0n);
  const order = shares
    .map((share, index) => ({ index, remainder: share.remainder }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  const parts = shares.map((s) => s.floor);
  for (const { index } of order) {
    if (left <= 0n) break;
    parts[index]! += 1n;
    left -= 1n;
  }
  return parts.map(Number);
}
