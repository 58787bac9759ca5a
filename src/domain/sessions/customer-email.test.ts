import { describe, expect, it } from 'vitest';
import { maskEmail } from './customer-email';

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
