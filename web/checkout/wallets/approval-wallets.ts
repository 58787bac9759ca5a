/**
 * PayPal and Venmo: wallets the shopper approves in the wallet's own window or app, which then hands
 * the page a nonce to charge. On Braintree through braintree-web 3.79.1's `paypal-checkout` (with
 * PayPal's JS SDK, loaded by `loadPayPalSDK`) and `venmo`; in test mode through a test window that
 * stands in for PayPal's and Venmo's (docs/test-processor.md).
 */
export type ApprovalWallet = 'paypal' | 'venmo';

/** The brand names, never translated. */
export const walletNames: Record<ApprovalWallet, string> = { paypal: 'PayPal', venmo: 'Venmo' };

/** What the shopper approved: the nonce to charge, and the payer's email where the wallet tells it (PayPal). */
export interface WalletApproval {
  nonce: string;
  email?: string;
}

/** How the page hears back from PayPal's own button. */
export interface ApprovalHandlers {
  approved(approval: WalletApproval): Promise<void>;
  canceled(): void;
  failed(error: unknown): void;
}

/**
 * A wallet started by the page's own button: `approve` opens the wallet's window or app and answers
 * the approval, or null when the shopper canceled; it rejects when the wallet failed.
 */
export interface TapWallet {
  kind: 'tap';
  approve(): Promise<WalletApproval | null>;
}

/** PayPal's own button, drawn by PayPal's JS SDK into the page's container. */
export interface SdkButtonWallet {
  kind: 'sdk_button';
  render(container: HTMLElement, handlers: ApprovalHandlers): Promise<unknown>;
}

export type ApprovalWalletProvider = TapWallet | SdkButtonWallet;

/** Braintree's own test nonces, which the test processor charges (docs/test-processor.md). */
export const TEST_WALLET_NONCES: Record<ApprovalWallet, string> = {
  paypal: 'fake-paypal-one-time-nonce',
  venmo: 'fake-venmo-account-nonce',
};

/** The payer's email of the test processor's PayPal nonce (the server's sandbox tells the same). */
export const TEST_PAYPAL_PAYER = 'payer@example.com';

/** What the test window answered: approved, made to fail, or closed (null). */
export type TestWindowAnswer = 'approve' | 'fail' | null;

/**
 * PayPal or Venmo in test mode: no account anywhere, so a test window stands in for the wallet's
 * and the approval pays with Braintree's test nonce, as a sandbox account's would. "Make it fail"
 * rehearses a wallet that fails.
 */
export function testApprovalWallet(wallet: ApprovalWallet, ask: () => Promise<TestWindowAnswer>): TapWallet {
  return {
    kind: 'tap',
    async approve() {
      const answer = await ask();
      if (answer === 'fail') throw new Error(`${walletNames[wallet]} test window: made to fail`);
      if (answer !== 'approve') return null;
      // As Braintree's sandbox PayPal account tells it; Venmo tells no email.
      return wallet === 'paypal' ? { nonce: TEST_WALLET_NONCES.paypal, email: TEST_PAYPAL_PAYER } : { nonce: TEST_WALLET_NONCES.venmo };
    },
  };
}

/** braintree-web 3.79.1's paypal-checkout instance (the parts the page calls). */
export interface PayPalCheckoutInstance {
  loadPayPalSDK(options: Record<string, unknown>): Promise<unknown>;
  createPayment(options: Record<string, unknown>): Promise<string>;
  tokenizePayment(data: unknown): Promise<{ nonce: string; details?: { email?: string } }>;
}

/** The parts of PayPal's JS SDK (`window.paypal`) the page calls. */
export interface PayPalSdk {
  FUNDING: { PAYPAL: string };
  Buttons(options: Record<string, unknown>): { isEligible(): boolean; render(container: HTMLElement): Promise<unknown> };
}

/**
 * PayPal through Braintree: PayPal's JS SDK loaded for this currency with the capture intent (the
 * server settles the sale at once), and PayPal's own button, whose order is a Braintree payment
 * resource for the session's total; the approval is tokenized into a nonce with the payer's email.
 * Null when PayPal says its button is not eligible here.
 */
export async function braintreePayPal(
  instance: PayPalCheckoutInstance,
  order: { amount: string; currency: string },
  sdk: () => PayPalSdk | undefined = () => (window as { paypal?: PayPalSdk }).paypal,
): Promise<SdkButtonWallet | null> {
  await instance.loadPayPalSDK({ currency: order.currency, intent: 'capture' });
  const paypal = sdk();
  if (!paypal) throw new Error('PayPal JS SDK did not define window.paypal');
  return {
    kind: 'sdk_button',
    async render(container, handlers) {
      const buttons = paypal.Buttons({
        fundingSource: paypal.FUNDING.PAYPAL,
        createOrder: () => instance.createPayment({ flow: 'checkout', intent: 'capture', amount: order.amount, currency: order.currency }),
        onApprove: async (data: unknown) => {
          const payload = await instance.tokenizePayment(data);
          await handlers.approved({ nonce: payload.nonce, email: payload.details?.email });
        },
        onCancel: () => handlers.canceled(),
        onError: (error: unknown) => handlers.failed(error),
      });
      if (!buttons.isEligible()) throw new Error('PayPal button not eligible');
      return buttons.render(container);
    },
  };
}

/** braintree-web 3.79.1's venmo instance (the parts the page calls). */
export interface VenmoInstance {
  isBrowserSupported(): boolean;
  tokenize(): Promise<{ nonce: string; details?: { username?: string } }>;
}

/** Codes braintree-web's venmo rejects with when the shopper backed out: a cancel, not a failure. */
const venmoCanceled = new Set(['VENMO_CANCELED', 'VENMO_APP_CANCELED', 'VENMO_DESKTOP_CANCELED', 'VENMO_MOBILE_POLLING_TOKENIZATION_CANCELED']);

/**
 * Venmo through Braintree, where braintree-web says this browser can switch to the Venmo app
 * (mobile browsers, as 3.79.1 allows); null elsewhere. A tap opens Venmo; backing out of it is a cancel.
 */
export function braintreeVenmo(instance: VenmoInstance): TapWallet | null {
  if (!instance.isBrowserSupported()) return null;
  return {
    kind: 'tap',
    approve: () =>
      instance.tokenize().then(
        (payload) => ({ nonce: payload.nonce }),
        (error: { code?: string }) => {
          if (venmoCanceled.has(String(error?.code))) return null;
          throw error;
        },
      ),
  };
}
