import { describe, expect, it } from 'vitest';
import { searchTermsOf } from './search-terms';

describe('the search box text read as terms', () => {
  it('reads an id prefix as an id, not as a reference or an email', () => {
    expect(searchTermsOf(' pay_1A ', true)).toMatchObject({ idPrefix: 'pay_1A', emailPart: null, reference: null, amounts: [] });
    expect(searchTermsOf('order_7', true)).toMatchObject({ idPrefix: null, reference: 'order_7' });
  });

  it('reads part of an email only for roles that see emails', () => {
    expect(searchTermsOf('Ann@Buyer', true).emailPart).toBe('ann@buyer');
    expect(searchTermsOf('Ann@Buyer', false).emailPart).toBeNull();
    expect(searchTermsOf('an', true).emailPart).toBeNull();
  });

  it('reads four digits as last4 and as an amount in each currency exponent', () => {
    const terms = searchTermsOf('4242', true);
    expect(terms.last4).toBe('4242');
    expect(terms.amounts.map((m) => [m.amount, m.currencies.includes('JPY'), m.currencies.includes('USD'), m.currencies.includes('KWD')])).toEqual([
      [4242, true, false, false],
      [424200, false, true, false],
      [4242000, false, false, true],
    ]);
  });

  it('reads a decimal amount only in the currencies that have those decimals', () => {
    expect(searchTermsOf('10.50', true).amounts.map((m) => m.amount)).toEqual([1050, 10500]);
    expect(searchTermsOf('10,5', true).amounts.map((m) => m.amount)).toEqual([1050, 10500]);
    expect(searchTermsOf('10.50', true).last4).toBeNull();
  });

  it('refuses empty and overlong text', () => {
    expect(() => searchTermsOf('  ', true)).toThrow(expect.objectContaining({ code: 'parameter_missing', param: 'q' }));
    expect(() => searchTermsOf('x'.repeat(201), true)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'q' }));
  });
});
