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

  it('reads an amount written with a currency symbol or code and thousands separators', () => {
    const minors = (text: string) => searchTermsOf(text, true).amounts.map((m) => m.amount);
    expect(minors('$81.96')).toEqual([8196, 81960]);
    expect(minors('US$ 81.96')).toEqual([8196, 81960]);
    expect(minors('81.96 €')).toEqual([8196, 81960]);
    expect(minors('$1,234.50')).toEqual([123450, 1234500]);
    expect(minors('€1.234,50')).toEqual([123450, 1234500]);
    expect(minors('1 234,50')).toEqual([123450, 1234500]);
    expect(minors("CHF 1'234")).toEqual([123400]);
    // `1,234` is 1.234 (three decimals) or 1234.
    expect(minors('1,234')).toEqual([1234, 1234, 123400, 1234000]);
    expect(minors('1,234,567.89')).toEqual([123456789, 1234567890]);
    // A currency code narrows the currencies.
    expect(searchTermsOf('81.96 usd', true).amounts).toEqual([{ amount: 8196, currencies: ['USD'] }]);
    expect(searchTermsOf('JPY 1,200', true).amounts).toEqual([{ amount: 1200, currencies: ['JPY'] }]);
    expect(searchTermsOf('$81.96', true).emailPart).toBeNull();
    // Not amounts: mixed marks, a word that is no currency, a symbol on both sides.
    for (const text of ['1,23,4', '1.234.5', 'abc 12', '$12€', 'ab@c.de']) expect(minors(text), text).toEqual([]);
  });

  it('refuses empty and overlong text', () => {
    expect(() => searchTermsOf('  ', true)).toThrow(expect.objectContaining({ code: 'parameter_missing', param: 'q' }));
    expect(() => searchTermsOf('x'.repeat(201), true)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'q' }));
  });
});
