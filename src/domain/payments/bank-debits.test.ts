import { describe, expect, it } from 'vitest';
import { achReturnOf, currencyBoundMethod, isValidBankAccountNumber, isValidRoutingNumber } from './bank-debits';

describe('bank debits', () => {
  it('takes a routing number whose ABA checksum holds, and an account number of 4 to 17 digits', () => {
    for (const valid of ['011000015', '071000013', '071101307', '021000021']) expect(isValidRoutingNumber(valid), valid).toBe(true);
    for (const invalid of ['011000016', '01100001', '0110000150', '01100001a', '']) expect(isValidRoutingNumber(invalid), invalid).toBe(false);
    expect(isValidBankAccountNumber('1000')).toBe(true);
    expect(isValidBankAccountNumber('12345678901234567')).toBe(true);
    expect(isValidBankAccountNumber('123')).toBe(false);
    expect(isValidBankAccountNumber('123456789012345678')).toBe(false);
    expect(isValidBankAccountNumber('1000-0000')).toBe(false);
  });

  it('names a return by its NACHA code, any case, and keeps an unlisted one as other', () => {
    const at = new Date('2026-11-29T12:00:00Z');
    expect(achReturnOf('r01', at)).toEqual({ code: 'R01', reason: 'insufficient_funds', returned_at: 1795953600 });
    expect(achReturnOf('R02', at).reason).toBe('account_closed');
    expect(achReturnOf('R99', at).reason).toBe('other');
  });

  it('binds ACH to USD, as the local methods to their currencies; cards and wallets to none', () => {
    expect(currencyBoundMethod('us_bank_account')).toMatchObject({ currencies: ['USD'] });
    expect(currencyBoundMethod('ideal')).toMatchObject({ name: 'iDEAL', currencies: ['EUR'] });
    expect(currencyBoundMethod('card')).toBeNull();
    expect(currencyBoundMethod('google_pay')).toBeNull();
  });
});
