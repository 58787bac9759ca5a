import type { LocalPaymentMethodType } from '../../../src/domain/payments/payment-method-types';

/**
 * Local payment methods (iDEAL, Bancontact…): the shopper approves the payment in their bank's
 * window, and the processor confirms it to the server later. On Braintree through braintree-web
 * 3.79.1's `local-payment` (its popup, with a redirect back for a bank app); in test mode through a
 * test window that stands in for the bank's (docs/test-processor.md).
 */

/** How the bank's window ended: approved (the payment waits for the bank's confirmation), failed, or canceled (closed). */
export type BankAnswer = 'approved' | 'failed' | 'canceled';

/** What the bank's window is opened for. */
export interface BankOrder {
  method: LocalPaymentMethodType;
  /** The shopper's country the payment is made for (the method's, or the billing address's). */
  country: string;
  /** The total in major units, as braintree-web takes it (`"25.00"`). */
  amount: string;
  currency: string;
  email: string;
  /** Where a bank app sends the shopper back when the window lost its page (this checkout page). */
  returnUrl: string;
  returnLabel: string;
}

/**
 * Records the payment on the server before the bank's window opens (the processor's id of it when
 * the window has one, Braintree's `paymentId`), answering our payment's id.
 */
export type BeginLocalPayment = (localPaymentId: string | null) => Promise<{ payment: string }>;

/** A way to open the bank's window: resolves with how it ended; rejects when it could not open or the server refused the payment. */
export interface LocalPaymentProvider {
  /** The server must be told of an approval (the test window): Braintree's bank tells Braintree, which tells the server. */
  readonly reportsApproval: boolean;
  pay(order: BankOrder, begin: BeginLocalPayment): Promise<BankAnswer>;
}

/** What the test window answered: approved, made to fail, or closed (null). */
export type TestBankAnswer = 'approve' | 'fail' | null;

/**
 * Test mode: no bank anywhere, so a test window stands in for the bank's. The payment is recorded
 * first (the test processor opens its local payment), then the window asks.
 */
export function testLocalPayment(ask: (order: BankOrder) => Promise<TestBankAnswer>): LocalPaymentProvider {
  return {
    reportsApproval: true,
    async pay(order, begin) {
      await begin(null);
      const answer = await ask(order);
      return answer === 'approve' ? 'approved' : answer === 'fail' ? 'failed' : 'canceled';
    },
  };
}

/** braintree-web 3.79.1's local-payment instance (the parts the page calls). */
export interface LocalPaymentInstance {
  startPayment(options: Record<string, unknown>): Promise<{ nonce: string }>;
  closeWindow(): void;
}

/** Codes braintree-web's local-payment rejects with when the shopper closed the window or canceled at the bank. */
const closedCodes = new Set(['LOCAL_PAYMENT_WINDOW_CLOSED', 'LOCAL_PAYMENT_CANCELED']);

/**
 * A local payment through Braintree: braintree-web opens the bank's window and, before sending the
 * shopper to the bank, names the payment it made (`onPaymentStart`), which the server records. The
 * nonce it returns is not charged here: Braintree's `LOCAL_PAYMENT_COMPLETED` notification carries
 * it to the server, which sells it once the bank has confirmed.
 */
export function braintreeLocalPayment(instance: LocalPaymentInstance): LocalPaymentProvider {
  return {
    reportsApproval: false,
    async pay(order, begin) {
      let refused: unknown = null;
      try {
        await instance.startPayment({
          paymentType: order.method,
          paymentTypeCountryCode: order.country,
          amount: order.amount,
          currencyCode: order.currency,
          email: order.email,
          fallback: { url: order.returnUrl, buttonText: order.returnLabel },
          onPaymentStart: (data: { paymentId: string }, start: () => void) => {
            begin(data.paymentId).then(start, (error: unknown) => {
              // The server refused the payment (expired, paid in another tab): the bank never opens.
              refused = error;
              instance.closeWindow();
            });
          },
        });
        return 'approved';
      } catch (error) {
        if (refused) throw refused;
        if (closedCodes.has(String((error as { code?: string })?.code))) return 'canceled';
        return 'failed';
      }
    },
  };
}

/** Each method's mark: its colour and a short word, drawn by the page (no image is fetched). */
export const methodMarks: Readonly<Record<LocalPaymentMethodType, { color: string; text: string }>> = {
  ideal: { color: '#cc0066', text: 'iD' },
  bancontact: { color: '#005498', text: 'B' },
  sofort: { color: '#393a41', text: 'S' },
  giropay: { color: '#000268', text: 'g' },
  eps: { color: '#c8036f', text: 'eps' },
  p24: { color: '#d13239', text: 'P24' },
  mybank: { color: '#1a9bd7', text: 'MB' },
  blik: { color: '#000000', text: 'blik' },
};
