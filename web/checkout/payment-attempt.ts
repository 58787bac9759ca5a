import { ApiError } from './api';
import type { LocalPaymentMethodType } from '../../src/domain/payments/payment-method-types';
import type { CardFieldName, CardFormEngine, CardFormState } from './card-form/engine';
import { cardFieldNames } from './card-form/engine';
import { errorMessageKey, type MessageKey } from './i18n';
import type { ProcessorClient } from './processor-client';

/**
 * One payment attempt of the checkout page, without React: get a nonce (card or wallet), pay with
 * it, and say what the page shows next. Every decision here is a plain function of its inputs; the
 * page's hook (use-payment-attempt.ts) owns the state, the focus and the navigation.
 */

/** The field the page points the shopper at: a card field or the email. */
export type FormField = CardFieldName | 'email';

/** What the page shows after an attempt. */
export type AttemptOutcome =
  /** Paid: the browser goes to `url` (the page stays locked meanwhile). */
  | { kind: 'leave'; url: string }
  /** The session expired meanwhile: the page shows its expired state. */
  | { kind: 'expired' }
  /** The session was paid meanwhile (another tab): the page reads it again. */
  | { kind: 'already_paid' }
  /**
   * The form stays: an error notice, and the field to fix when there is one. `fieldValid`: the
   * field is fine as typed and only gets the focus, without a field error of its own (a real card
   * in test mode: the notice says which number to use instead).
   */
  | { kind: 'retry'; key: MessageKey; field?: FormField; fieldValid?: true; customField?: string };

/** A nonce to charge, or why there is none (the form stays). */
export type NonceResult = { nonce: string } | { key: MessageKey; field?: CardFieldName };

export type PaymentMethod = 'card' | 'google_pay' | 'apple_pay' | 'paypal' | 'venmo' | 'us_bank_account';

/** What an attempt needs from the outside world. */
export interface AttemptPorts {
  pay(payment: {
    payment_method_type: PaymentMethod;
    nonce?: string;
    payment_method?: string;
    save_payment_method?: boolean;
    email: string;
    device_data: string | null;
    custom_fields?: Record<string, string | null>;
  }): Promise<{ redirect_url: string }>;
  /** Device data for fraud checks (Braintree), null when the processor takes none. */
  deviceData(): Promise<string | null>;
}

export interface AttemptRequest {
  type: PaymentMethod;
  /** The email the payment is made with (the wallet's or the one typed), trimmed. */
  email: string;
  /** Gets the nonce; `issuerAsked` when the first try was declined for authentication (3-D Secure). */
  nonce(issuerAsked: boolean): Promise<NonceResult>;
  /** A card declined because the issuer asks for authentication is verified and retried once. */
  retryWhenIssuerAsks: boolean;
  /** The shopper ticked "save this card" (sessions that ask for consent). */
  savePaymentMethod?: boolean;
  /** A card saved for the session's customer (`pm_…`), paid with instead of a nonce, and its CVC-only nonce when the CVC is asked again. */
  paymentMethod?: string;
  cvcNonce?: string;
  /** Answers to the session's custom fields, by key, checked by the page first. */
  customFields?: Record<string, string | null>;
}

/**
 * Runs one attempt: nonce, then the payment. A card declined with `authentication_failed` is
 * verified (3-D Secure, on a fresh nonce) and retried once, when the processor supports that.
 */
export async function attemptPayment(ports: AttemptPorts, request: AttemptRequest, issuerAsked = false): Promise<AttemptOutcome> {
  try {
    const prepared = request.paymentMethod ? { payment_method: request.paymentMethod, nonce: request.cvcNonce } : await request.nonce(issuerAsked);
    if ('key' in prepared) return { kind: 'retry', ...prepared };
    const result = await ports.pay({
      payment_method_type: request.type,
      ...prepared,
      save_payment_method: request.savePaymentMethod,
      email: request.email,
      device_data: await ports.deviceData(),
      custom_fields: request.customFields,
    });
    return { kind: 'leave', url: result.redirect_url };
  } catch (error) {
    const failure = failureOutcome(error, request.type, { mayVerify: request.retryWhenIssuerAsks && !issuerAsked });
    return failure === 'verify_and_retry' ? attemptPayment(ports, request, true) : failure;
  }
}

/**
 * What a failed attempt shows. An error that is not the API's answer is the network's, or for a
 * wallet the wallet's. `verify_and_retry` (only when `mayVerify`): a card the issuer wants
 * authenticated, to verify and pay again.
 */
export function failureOutcome(
  error: unknown,
  type: PaymentMethod | LocalPaymentMethodType,
  options: { mayVerify: boolean },
): AttemptOutcome | 'verify_and_retry' {
  const e = error instanceof ApiError ? error : new ApiError(0, type === 'google_pay' ? 'google_pay' : 'network', '');
  if (e.code === 'checkout_session_expired') return { kind: 'expired' };
  if (e.code === 'checkout_session_completed') return { kind: 'already_paid' };
  if (e.code === 'google_pay') return { kind: 'retry', key: 'wallet.unavailable' };
  if (e.code === 'network') return { kind: 'retry', key: 'error.network' };
  if (e.code === 'parameter_invalid' && e.param === 'email') return { kind: 'retry', key: 'form.fixErrors', field: 'email' };
  // An answer to a custom field the server refused (`custom_fields[<key>]`): its message shows beside that field.
  if (e.param?.startsWith('custom_fields[')) return { kind: 'retry', key: 'form.fixErrors', customField: e.param };
  if (type === 'card' && options.mayVerify && e.declineCode === 'authentication_failed') return 'verify_and_retry';
  const key = errorMessageKey(e.code, e.declineCode);
  if (type !== 'card') return { kind: 'retry', key };
  // The number is a valid card number, just not a test one: one message, the notice's.
  if (e.declineCode === 'test_mode_live_card') return { kind: 'retry', key, field: 'number', fieldValid: true };
  return { kind: 'retry', key, field: declinedField(e) };
}

/** The card field a decline or a refused parameter points at. */
function declinedField(e: ApiError): CardFieldName | undefined {
  if (e.declineCode === 'incorrect_cvc' || e.param === 'cvc') return 'cvc';
  if (e.declineCode === 'incorrect_number' || e.param === 'number') return 'number';
  if (e.param === 'exp') return 'expiry';
  return undefined;
}

/**
 * A card's nonce: tokenized by the engine, then 3-D Secure when the processor's policy (or the
 * issuer) asks. An engine error becomes the API error it stands for.
 */
export async function cardNonce(
  engine: Pick<CardFormEngine, 'tokenize'>,
  client: Pick<ProcessorClient, 'authenticate'>,
  email: string,
  issuerAsked: boolean,
): Promise<NonceResult> {
  const token = await engine.tokenize();
  if (!token.ok) {
    if (token.reason === 'invalid') return { key: 'form.fixErrors', field: token.fields[0] };
    throw new ApiError(0, token.code, '', token.declineCode, token.param);
  }
  const authenticated = await client.authenticate({ nonce: token.nonce, bin: token.bin, email }, { issuerAsked });
  if (!authenticated.ok) return { key: authenticated.key };
  return { nonce: authenticated.nonce };
}

/**
 * Before a card payment is sent: the first field the shopper must fix (email first, then the card
 * fields in order), or null when everything is complete.
 */
export function firstFieldToFix(emailValid: boolean, card: CardFormState): FormField | null {
  if (!emailValid) return 'email';
  return cardFieldNames.find((field) => !card.fields[field].isValid) ?? null;
}

/** The email a wallet payment is made with: the wallet's when it gave one, else the one typed. */
export function walletPayerEmail(walletEmail: string | undefined, typed: string): string {
  return walletEmail?.trim() || typed.trim();
}
