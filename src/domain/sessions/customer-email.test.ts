import { describe, expect, it } from 'vitest';
import { isValidCustomerEmail, maskEmail } from './customer-email';

describe('maskEmail', () => {
  it('keeps the first letter and the domain', () => {
    expect(maskEmail('jane.doe@shop.example')).toBe('j•••@shop.example');
  });
  it('hides an address without a local part entirely', () => {
    expect(maskEmail('@shop.example')).toBe('•••');
    expect(maskEmail('nonsense')).toBe('•••');
  });
  it('leaves a missing email missing', () => {
    expect(maskEmail(null)).toBeNull();
  });
});

describe('isValidCustomerEmail', () => {
  it('takes name@domain.tld, trimmed', () => {
    expect(isValidCustomerEmail('jane@shop.example')).toBe(true);
    expect(isValidCustomerEmail('  jane@shop.example \n')).toBe(true);
  });
  it('refuses what a payment would refuse', () => {
    for (const bad of ['', 'jane', 'jane@', '@shop.example', 'jane@shop', 'ja ne@shop.example', 'jane@@shop.example', 'not-an-email']) {
      expect(isValidCustomerEmail(bad), bad).toBe(false);
    }
  });
  it('refuses an address longer than 254 characters', () => {
    const domain = '@shop.example';
    expect(isValidCustomerEmail(`${'a'.repeat(254 - domain.length)}${domain}`)).toBe(true);
    expect(isValidCustomerEmail(`${'a'.repeat(255 - domain.length)}${domain}`)).toBe(false);
  });
});
