import { describe, expect, it, vi } from 'vitest';
import { braintreePayPal, braintreeVenmo, testApprovalWallet, type ApprovalHandlers, type PayPalSdk } from './approval-wallets';

/** PayPal's JS SDK as the page calls it: Buttons() keeps the options it was given. */
function paypalSdk(eligible = true) {
  const rendered: Array<{ options: Record<string, any>; container: HTMLElement }> = [];
  const sdk: PayPalSdk = {
    FUNDING: { PAYPAL: 'paypal' },
    // biome-ignore lint/correctness/noComponentHookFactories: PayPal's SDK names its factory Buttons; not a React component.
    Buttons: (options) => ({
      isEligible: () => eligible,
      render: async (container) => void rendered.push({ options, container }),
    }),
  };
  return { sdk, rendered };
}

function paypalCheckout() {
  return {
    loadPayPalSDK: vi.fn(async (_options: Record<string, unknown>) => undefined),
    createPayment: vi.fn(async (_options: Record<string, unknown>) => 'EC-7TEST'),
    tokenizePayment: vi.fn(async (_data: unknown) => ({ nonce: 'tokenpp_1', details: { email: 'payer@paypal.example' } })),
  };
}

function handlers() {
  return { approved: vi.fn(async () => undefined), canceled: vi.fn(), failed: vi.fn() } satisfies ApprovalHandlers;
}

const container = {} as HTMLElement;

describe('PayPal through braintree-web paypal-checkout', () => {
  it('loads PayPal’s SDK for the currency with the capture intent, and orders the session’s total', async () => {
    const instance = paypalCheckout();
    const { sdk, rendered } = paypalSdk();
    const wallet = await braintreePayPal(instance, { amount: '41.50', currency: 'EUR' }, () => sdk);
    expect(instance.loadPayPalSDK).toHaveBeenCalledWith({ currency: 'EUR', intent: 'capture' });
    await wallet!.render(container, handlers());
    const [button] = rendered;
    expect(button!.container).toBe(container);
    expect(button!.options.fundingSource).toBe('paypal');
    expect(await button!.options.createOrder()).toBe('EC-7TEST');
    expect(instance.createPayment).toHaveBeenCalledWith({ flow: 'checkout', intent: 'capture', amount: '41.50', currency: 'EUR' });
  });

  it('approval → tokenizePayment → the nonce and the payer’s email; cancel and error reach their handlers', async () => {
    const instance = paypalCheckout();
    const { sdk, rendered } = paypalSdk();
    const wallet = await braintreePayPal(instance, { amount: '18.00', currency: 'USD' }, () => sdk);
    const on = handlers();
    await wallet!.render(container, on);
    const approval = { orderID: 'EC-7TEST', payerID: 'PAYER1' };
    await rendered[0]!.options.onApprove(approval);
    expect(instance.tokenizePayment).toHaveBeenCalledWith(approval);
    expect(on.approved).toHaveBeenCalledWith({ nonce: 'tokenpp_1', email: 'payer@paypal.example' });
    rendered[0]!.options.onCancel({ orderID: 'EC-7TEST' });
    expect(on.canceled).toHaveBeenCalledTimes(1);
    const error = new Error('popup blocked');
    rendered[0]!.options.onError(error);
    expect(on.failed).toHaveBeenCalledWith(error);
  });

  it('refuses to render where PayPal says its button is not eligible, and fails when the SDK defined nothing', async () => {
    const { sdk } = paypalSdk(false);
    const wallet = await braintreePayPal(paypalCheckout(), { amount: '1.00', currency: 'USD' }, () => sdk);
    await expect(wallet!.render(container, handlers())).rejects.toThrow(/not eligible/);
    await expect(braintreePayPal(paypalCheckout(), { amount: '1.00', currency: 'USD' }, () => undefined)).rejects.toThrow(/window\.paypal/);
  });
});

describe('Venmo through braintree-web venmo', () => {
  it('shows only where braintree-web says the browser can switch to the Venmo app', () => {
    expect(braintreeVenmo({ isBrowserSupported: () => false, tokenize: vi.fn() })).toBeNull();
    expect(braintreeVenmo({ isBrowserSupported: () => true, tokenize: vi.fn() })?.kind).toBe('tap');
  });

  it('approval gives the nonce; backing out of Venmo is a cancel; anything else fails', async () => {
    const approved = braintreeVenmo({ isBrowserSupported: () => true, tokenize: async () => ({ nonce: 'tokenvenmo_1', details: { username: 'venmojoe' } }) })!;
    expect(await approved.approve()).toEqual({ nonce: 'tokenvenmo_1' });
    for (const code of ['VENMO_CANCELED', 'VENMO_APP_CANCELED']) {
      const canceled = braintreeVenmo({ isBrowserSupported: () => true, tokenize: () => Promise.reject(Object.assign(new Error(code), { code })) })!;
      expect(await canceled.approve()).toBeNull();
    }
    const broken = braintreeVenmo({
      isBrowserSupported: () => true,
      tokenize: () => Promise.reject(Object.assign(new Error('network'), { code: 'VENMO_NETWORK_ERROR' })),
    })!;
    await expect(broken.approve()).rejects.toThrow('network');
  });
});

describe('the test window (test processor)', () => {
  it('approve pays with Braintree’s test nonce for the wallet (PayPal with its test payer’s email); fail throws; closing cancels', async () => {
    expect(await testApprovalWallet('paypal', async () => 'approve').approve()).toEqual({ nonce: 'fake-paypal-one-time-nonce', email: 'payer@example.com' });
    expect(await testApprovalWallet('venmo', async () => 'approve').approve()).toEqual({ nonce: 'fake-venmo-account-nonce' });
    await expect(testApprovalWallet('venmo', async () => 'fail').approve()).rejects.toThrow(/Venmo/);
    expect(await testApprovalWallet('paypal', async () => null).approve()).toBeNull();
  });
});
