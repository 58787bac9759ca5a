import { describe, expect, it } from 'vitest';
import { bankOfBic, localMethodName, localMethodTakes, localPaymentCountry } from './local-payment-methods';
import { isLocalPaymentMethod, localPaymentMethodTypes, paymentMethodTypes } from './payment-method-types';

describe('local payment methods', () => {
  it('are payment method types of their own, each with its name', () => {
    for (const type of localPaymentMethodTypes) {
      expect(paymentMethodTypes).toContain(type);
      expect(isLocalPaymentMethod(type)).toBe(true);
      expect(localMethodName(type)).toEqual(expect.any(String));
    }
    expect(localMethodName('p24')).toBe('Przelewy24');
    for (const type of ['card', 'google_pay', 'apple_pay', 'paypal', 'venmo']) {
      expect(isLocalPaymentMethod(type)).toBe(false);
      expect(localMethodName(type)).toBeNull();
    }
  });

  it('take only their currencies: EUR; PLN or EUR for Przelewy24; PLN for BLIK', () => {
    expect(localMethodTakes('ideal', 'eur')).toBe(true);
    expect(localMethodTakes('ideal', 'USD')).toBe(false);
    expect(localMethodTakes('p24', 'PLN')).toBe(true);
    expect(localMethodTakes('p24', 'EUR')).toBe(true);
    expect(localMethodTakes('blik', 'PLN')).toBe(true);
    expect(localMethodTakes('blik', 'EUR')).toBe(false);
  });

  it("are made for the shopper's billing country when they serve it, their first country when it is unknown, and refused elsewhere", () => {
    expect(localPaymentCountry('ideal', null)).toBe('NL');
    expect(localPaymentCountry('ideal', 'nl')).toBe('NL');
    expect(localPaymentCountry('ideal', 'BE')).toBeNull();
    expect(localPaymentCountry('sofort', 'AT')).toBe('AT');
    expect(localPaymentCountry('sofort', undefined)).toBe('DE');
  });

  it("name the bank by its BIC's first eight characters as iDEAL lists banks; another BIC names none", () => {
    expect(bankOfBic('INGBNL2A')).toBe('ing');
    expect(bankOfBic('RABONL2UXXX')).toBe('rabobank');
    expect(bankOfBic('GEBABEBB')).toBeNull();
    expect(bankOfBic(null)).toBeNull();
  });
});
