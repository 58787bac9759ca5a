import { toDecimalString } from '../../../src/domain/shared/money';
import type { PublicSession } from '../api';

/** Apple Pay JS as Apple documents it (the calls the page makes), version 3. */
export interface ApplePayPaymentRequest {
  countryCode?: string;
  currencyCode: string;
  merchantCapabilities?: string[];
  supportedNetworks?: string[];
  total: { label: string; amount: string; type?: 'final' };
  lineItems: Array<{ label: string; amount: string; type?: 'final' }>;
  requiredShippingContactFields: string[];
  shippingContact?: { emailAddress?: string };
}

export interface ApplePayPayment {
  token: Record<string, unknown>;
  shippingContact?: { emailAddress?: string };
}

export interface ApplePaySessionInstance {
  onvalidatemerchant: ((event: { validationURL: string }) => void) | null;
  onpaymentauthorized: ((event: { payment: ApplePayPayment }) => void) | null;
  oncancel: ((event: unknown) => void) | null;
  begin(): void;
  abort(): void;
  completeMerchantValidation(merchantSession: unknown): void;
  completePayment(status: number): void;
}

export interface ApplePaySessionConstructor {
  new (version: number, request: ApplePayPaymentRequest): ApplePaySessionInstance;
  canMakePayments(): boolean;
  supportsVersion?(version: number): boolean;
  readonly STATUS_SUCCESS: number;
  readonly STATUS_FAILURE: number;
}

declare global {
  interface Window {
    ApplePaySession?: ApplePaySessionConstructor;
  }
}

/** The Apple Pay JS version the page speaks (Safari 12.1 and later; iOS 12.1, macOS 10.14.4). */
export const APPLE_PAY_VERSION = 3;

/** This browser can show the Apple Pay button: Apple Pay JS is there and says it can pay. */
export function applePayAvailable(win: { ApplePaySession?: ApplePaySessionConstructor } = window): ApplePaySessionConstructor | null {
  const session = win.ApplePaySession;
  try {
    if (!session || (session.supportsVersion && !session.supportsVersion(APPLE_PAY_VERSION))) return null;
    return session.canMakePayments() ? session : null;
  } catch {
    // canMakePayments throws on an insecure page or inside a cross-origin frame.
    return null;
  }
}

/**
 * The payment sheet's request, from the session: each line item, shipping, tax and discount as the
 * server priced them, the total under the merchant's name, and the shopper's email (asked for, and
 * prefilled when the session knows it). Processor fields (networks, capabilities, country) are added
 * by the provider.
 */
export function applePayPaymentRequest(
  session: Pick<PublicSession, 'currency' | 'amount_total' | 'line_items' | 'merchant' | 'customer_email' | 'total_details'>,
  labels: { shipping: string; discount: string },
): ApplePayPaymentRequest {
  const money = (amount: number) => toDecimalString(amount, session.currency);
  const lineItems: ApplePayPaymentRequest['lineItems'] = session.line_items.map((item) => ({
    label: item.quantity > 1 ? `${item.name} × ${item.quantity}` : item.name,
    amount: money(item.amount),
    type: 'final',
  }));
  const details = session.total_details;
  if (details?.amount_discount) lineItems.push({ label: labels.discount, amount: money(-details.amount_discount), type: 'final' });
  if (details?.amount_shipping) lineItems.push({ label: labels.shipping, amount: money(details.amount_shipping), type: 'final' });
  // Taxes added to the prices, each under its own name (an inclusive one is already in the prices).
  for (const tax of details?.breakdown.taxes ?? []) {
    if (!tax.rate.inclusive && tax.amount) lineItems.push({ label: tax.rate.display_name, amount: money(tax.amount), type: 'final' });
  }
  return {
    currencyCode: session.currency.toUpperCase(),
    total: { label: session.merchant.name, amount: money(session.amount_total), type: 'final' },
    lineItems,
    requiredShippingContactFields: ['email'],
    ...(session.customer_email ? { shippingContact: { emailAddress: session.customer_email } } : {}),
  };
}

/** Where an Apple Pay payment goes: braintree-web's apple-pay, or the test processor. */
export interface ApplePayProvider {
  /** The full request for the sheet (synchronous: the sheet must open within the shopper's tap). */
  paymentRequest(base: ApplePayPaymentRequest): ApplePayPaymentRequest;
  /** Apple's merchant session for `validationURL`. */
  validateMerchant(validationURL: string, displayName: string): Promise<unknown>;
  /** The authorized payment → a nonce our server charges. */
  toNonce(payment: ApplePayPayment): Promise<string>;
}

/** braintree-web 3.79.1's apple-pay instance (the parts the page calls). */
export interface BraintreeApplePayInstance {
  createPaymentRequest(request: Record<string, unknown>): Record<string, unknown>;
  performValidation(options: { validationURL: string; displayName: string }): Promise<unknown>;
  tokenize(options: { token: unknown }): Promise<{ nonce: string }>;
}

/**
 * Apple Pay through Braintree: Braintree fills in the networks, capabilities and country it is set up
 * for, validates the merchant with Apple (the domain registered in Braintree's Control Panel), and
 * turns Apple's encrypted token into a nonce.
 */
export function braintreeApplePay(instance: BraintreeApplePayInstance): ApplePayProvider {
  return {
    paymentRequest: (base) => instance.createPaymentRequest({ ...base }) as unknown as ApplePayPaymentRequest,
    validateMerchant: (validationURL, displayName) => instance.performValidation({ validationURL, displayName }),
    toNonce: async (payment) => (await instance.tokenize({ token: payment.token })).nonce,
  };
}

/** The test processor's Apple Pay nonce (Braintree's own test nonce for an Apple Pay Visa). */
export const TEST_APPLE_PAY_NONCE = 'fake-apple-pay-visa-nonce';

/**
 * Apple Pay in test mode: no merchant account with Apple, so the merchant session is a test one and
 * the approved payment pays with Braintree's Apple Pay test nonce (docs/test-processor.md).
 */
export function testApplePay(): ApplePayProvider {
  return {
    paymentRequest: (base) => ({
      countryCode: 'US',
      merchantCapabilities: ['supports3DS'],
      supportedNetworks: ['visa', 'masterCard', 'amex', 'discover'],
      ...base,
    }),
    validateMerchant: async () => ({ test: true }),
    toNonce: async () => TEST_APPLE_PAY_NONCE,
  };
}
