import { describe, expect, it, vi } from 'vitest';
import { applePayAvailable, applePayPaymentRequest, braintreeApplePay, testApplePay, type ApplePaySessionConstructor } from './apple-pay';

const session = {
  currency: 'usd',
  amount_total: 4150,
  merchant: { name: 'Gärtnerei Kaffee', logo_url: null, accent_color: null },
  customer_email: 'shopper@example.com',
  line_items: [
    { name: 'Ethiopia Guji, 250 g', unit_amount: 1800, quantity: 2, amount: 3600 },
    { name: 'Filter papers', unit_amount: 500, quantity: 1, amount: 500 },
  ],
  total_details: {
    amount_discount: 400,
    amount_shipping: 450,
    amount_tax: 0,
    breakdown: { taxes: [] },
  },
};
const labels = { shipping: 'Shipping', discount: 'Discount' };

describe('applePayPaymentRequest', () => {
  it('carries the amount, currency, line items, total label and the shopper’s email from the session', () => {
    expect(applePayPaymentRequest(session, labels)).toEqual({
      currencyCode: 'USD',
      total: { label: 'Gärtnerei Kaffee', amount: '41.50', type: 'final' },
      lineItems: [
        { label: 'Ethiopia Guji, 250 g × 2', amount: '36.00', type: 'final' },
        { label: 'Filter papers', amount: '5.00', type: 'final' },
        { label: 'Discount', amount: '-4.00', type: 'final' },
        { label: 'Shipping', amount: '4.50', type: 'final' },
      ],
      requiredShippingContactFields: ['email'],
      shippingContact: { emailAddress: 'shopper@example.com' },
    });
  });

  it('lists added taxes by name and leaves inclusive ones out; asks for the email when the session has none', () => {
    const request = applePayPaymentRequest(
      {
        ...session,
        customer_email: null,
        currency: 'jpy',
        amount_total: 1100,
        line_items: [{ name: 'Tea', unit_amount: 1000, quantity: 1, amount: 1000 }],
        total_details: {
          amount_discount: 0,
          amount_shipping: 0,
          amount_tax: 100,
          breakdown: {
            taxes: [
              { amount: 100, rate: { display_name: 'Consumption tax', percentage: 10, inclusive: false } },
              { amount: 50, rate: { display_name: 'VAT', percentage: 5, inclusive: true } },
            ],
          },
        },
      },
      labels,
    );
    expect(request.total).toEqual({ label: 'Gärtnerei Kaffee', amount: '1100', type: 'final' });
    expect(request.lineItems).toEqual([
      { label: 'Tea', amount: '1000', type: 'final' },
      { label: 'Consumption tax', amount: '100', type: 'final' },
    ]);
    expect(request.shippingContact).toBeUndefined();
    expect(request.requiredShippingContactFields).toEqual(['email']);
  });
});

describe('applePayAvailable', () => {
  const sessionClass = (canPay: boolean | (() => boolean)) =>
    ({ canMakePayments: typeof canPay === 'function' ? canPay : () => canPay, supportsVersion: () => true }) as unknown as ApplePaySessionConstructor;
  it('is the session constructor only where ApplePaySession exists and canMakePayments() says yes', () => {
    const yes = sessionClass(true);
    expect(applePayAvailable({ ApplePaySession: yes })).toBe(yes);
    expect(applePayAvailable({ ApplePaySession: sessionClass(false) })).toBeNull();
    expect(applePayAvailable({})).toBeNull();
    expect(
      applePayAvailable({
        ApplePaySession: sessionClass(() => {
          throw new Error('InvalidAccessError');
        }),
      }),
    ).toBeNull();
  });
});

describe('Apple Pay providers', () => {
  it('Braintree: the request goes through createPaymentRequest, validation and tokenizing through braintree-web apple-pay', async () => {
    const instance = {
      createPaymentRequest: vi.fn((request: Record<string, unknown>) => ({
        ...request,
        countryCode: 'US',
        supportedNetworks: ['visa'],
        merchantCapabilities: ['supports3DS'],
      })),
      performValidation: vi.fn(async () => ({ merchantSessionIdentifier: 'msi' })),
      tokenize: vi.fn(async () => ({ nonce: 'tokencc_apple' })),
    };
    const provider = braintreeApplePay(instance);
    const base = applePayPaymentRequest(session, labels);
    const request = provider.paymentRequest(base);
    expect(instance.createPaymentRequest).toHaveBeenCalledWith(base);
    expect(request).toMatchObject({ total: { amount: '41.50' }, countryCode: 'US', supportedNetworks: ['visa'] });
    expect(await provider.validateMerchant('https://apple-pay-gateway.apple.com/paymentservices/startSession', 'Gärtnerei Kaffee')).toEqual({
      merchantSessionIdentifier: 'msi',
    });
    expect(instance.performValidation).toHaveBeenCalledWith({
      validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession',
      displayName: 'Gärtnerei Kaffee',
    });
    const token = { paymentData: { version: 'EC_v1' } };
    expect(await provider.toNonce({ token })).toBe('tokencc_apple');
    expect(instance.tokenize).toHaveBeenCalledWith({ token });
  });

  it('Braintree: a failed merchant validation rejects (the page then says Apple Pay did not work)', async () => {
    const provider = braintreeApplePay({
      createPaymentRequest: (r) => r,
      performValidation: async () => {
        throw new Error('APPLE_PAY_MERCHANT_VALIDATION_FAILED');
      },
      tokenize: async () => ({ nonce: 'x' }),
    });
    await expect(provider.validateMerchant('https://apple.example/validate', 'Shop')).rejects.toThrow('APPLE_PAY_MERCHANT_VALIDATION_FAILED');
  });

  it('test processor: completes the request and pays with Braintree’s Apple Pay test nonce', async () => {
    const provider = testApplePay();
    const request = provider.paymentRequest(applePayPaymentRequest(session, labels));
    expect(request).toMatchObject({ countryCode: 'US', currencyCode: 'USD', merchantCapabilities: ['supports3DS'] });
    expect(request.supportedNetworks).toContain('visa');
    expect(await provider.toNonce({ token: {} })).toBe('fake-apple-pay-visa-nonce');
  });
});
