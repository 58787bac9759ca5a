import { describe, expect, it } from 'vitest';
import { parseAmount } from './format';

describe('parseAmount', () => {
  it('reads an amount in the currency unit as minor units, by the currency exponent', () => {
    expect(parseAmount('25.00', 'usd')).toBe(2500);
    expect(parseAmount('30', 'USD')).toBe(3000);
    expect(parseAmount('0.5', 'EUR')).toBe(50);
    expect(parseAmount(' 12,5 ', 'EUR')).toBe(1250);
    expect(parseAmount('1000', 'JPY')).toBe(1000);
    expect(parseAmount('1.234', 'KWD')).toBe(1234);
  });

  it('refuses what is not an amount, or has more decimals than the currency', () => {
    for (const [value, currency] of [['', 'USD'], ['abc', 'USD'], ['-5', 'USD'], ['1e3', 'USD'], ['10.505', 'USD'], ['10.5', 'JPY'], ['1.2.3', 'USD']]) {
      expect(parseAmount(value!, currency!), value).toBeNull();
    }
  });
});
