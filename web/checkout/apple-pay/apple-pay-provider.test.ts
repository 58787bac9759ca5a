import { describe, expect, it, vi } from 'vitest';

const instance = {
  createPaymentRequest: vi.fn((request: Record<string, unknown>) => ({ ...request, countryCode: 'GB' })),
  performValidation: vi.fn(async () => ({ merchantSessionIdentifier: 'msi' })),
  tokenize: vi.fn(async () => ({ nonce: 'tokencc_apple' })),
};
const create = vi.fn(async (_options: Record<string, unknown>) => instance);
// As the bundler hands braintree-web's CommonJS module over: `{ default: module.exports }`.
vi.mock('braintree-web/apple-pay', () => ({ default: { create } }));

const { applePayProvider } = await import('./ApplePayArea');

describe('applePayProvider', () => {
  it('on Braintree: creates braintree-web apple-pay on the page’s Braintree client', async () => {
    const braintreeClient = { token: 'client' };
    const provider = await applePayProvider({ braintreeClient: Promise.resolve(braintreeClient) });
    expect(create).toHaveBeenCalledWith({ client: braintreeClient });
    expect(
      provider.paymentRequest({ currencyCode: 'GBP', total: { label: 'Shop', amount: '1.00' }, lineItems: [], requiredShippingContactFields: ['email'] }),
    ).toMatchObject({ countryCode: 'GB' });
    expect(await provider.toNonce({ token: { paymentData: {} } })).toBe('tokencc_apple');
  });

  it('in test mode: no braintree-web at all, Braintree’s Apple Pay test nonce', async () => {
    create.mockClear();
    const provider = await applePayProvider({});
    expect(create).not.toHaveBeenCalled();
    expect(await provider.toNonce({ token: {} })).toBe('fake-apple-pay-visa-nonce');
  });
});
