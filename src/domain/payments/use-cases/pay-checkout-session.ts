import type { Payment, PaymentMethodType } from '../entities';
import { resourceMissing, TillpointError } from '../../shared/errors';
import { isValidCustomerEmail } from '../../sessions/customer-email';
import { assertPaymentMethodEnabled } from '../offered-payment-methods';
import { type Deps } from '../../deps';
import { toThreeDSecureMode } from '../../processors/three-d-secure-policy';
import type { AuthorizeResult } from '../../processors/ports';
import type { CheckoutSession } from '../../sessions/entities';
import { expireIfOverdue } from '../../sessions/rules';
import { withSessionCustomer } from '../../customers/session-customer';
import { newPayment, recordAuthorizationOutcome, refusalToPay, type PaidCheckout, type RecordAuthorizationOptions } from '../rules';

export interface PayCheckoutSessionOptions {
  sessionId: string;
  paymentMethodType: PaymentMethodType;
  /** A payment method nonce from the processor's client side (or the test processor's tokenizer). */
  nonce: string;
  email: string;
  deviceData?: string | null;
}

/**
 * The shopper pays a session: record the attempt, ask the processor (outside any transaction),
 * record the outcome. At most one payment per session can be under way or succeed; the database's
 * unique index, not this code alone, guarantees it. An unknown outcome leaves the payment
 * `processing` for reconciliation.
 */
export async function payCheckoutSession(deps: Deps, options: PayCheckoutSessionOptions): Promise<PaidCheckout> {
  const email = options.email.trim();
  if (!isValidCustomerEmail(email)) {
    throw new TillpointError('parameter_invalid', 'Enter a valid email address', { param: 'email' });
  }

  // The session, its processor and its flags are read before anything is written: none of them
  // waits on a lock, and a kill switch thrown after the page loaded still stops the payment.
  const found = await deps.processors.sessionToPay(options.sessionId);
  if (!found) throw resourceMissing('checkout session', options.sessionId);
  const target = found.session;
  const [enabled, forScope, threeDSecureFlag] = await Promise.allSettled([
    assertPaymentMethodEnabled({ flags: found.flags }, target, options.paymentMethodType),
    found.processor(),
    found.flags.stringValue(target, 'three_d_secure', 'when_required', target.id),
  ]);
  // Refusals in a fixed order: the payment method, the processor, the 3-D Secure flag.
  if (enabled.status === 'rejected') throw enabled.reason;
  if (forScope.status === 'rejected') throw forScope.reason;
  if (threeDSecureFlag.status === 'rejected') throw threeDSecureFlag.reason;
  const processor = forScope.value;
  const threeDSecureMode = toThreeDSecureMode(threeDSecureFlag.value);

  // 1. Record the intent, on the session's customer (made now when the session makes one).
  const withCustomer = await withSessionCustomer(deps, target, email, false);
  const { session, payment } = await recordIntent(deps, { session: withCustomer, email, processor: processor.name, paymentMethodType: options.paymentMethodType });

  // 2. Ask the processor, holding no transaction.
  const result: AuthorizeResult = await processor.authorize({
    paymentId: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    capture: payment.captureMethod === 'automatic',
    nonce: options.nonce,
    deviceData: options.deviceData ?? null,
    email,
    threeDSecureMode,
    paymentMethodType: options.paymentMethodType,
  });

  // 3. Record the outcome.
  return recordAuthorization(deps, { session, payment, paymentMethodType: options.paymentMethodType, result });
}

/** How many times an intent is decided again on a session that moved between its read and its write. */
const INTENT_ATTEMPTS = 3;

/**
 * The payment's intent, written on the session as read and decided payable here (refusalToPay):
 * one statement locks the session, checks it is unchanged since that read, and lets the
 * one-payment index decide a session already paid or under way. A session that moved meanwhile is
 * read again and decided again; one that is overdue is expired first, then refused.
 */
async function recordIntent(
  deps: Deps,
  options: { session: CheckoutSession; email: string; processor: string; paymentMethodType: PaymentMethodType },
): Promise<PaidCheckout> {
  let session = options.session;
  for (let attempt = 1; ; attempt++) {
    const at = deps.clock.now();
    if (session.status === 'open' && session.expiresAt <= at) {
      session = await deps.store.transaction(async (tx) => expireIfOverdue(deps, tx, (await tx.checkoutSessions.get(null, session.id, { forUpdate: true })) ?? session));
    }
    const refused = refusalToPay(session);
    if (refused) throw refused;
    if (!session.paymentMethodTypes.includes(options.paymentMethodType)) {
      throw new TillpointError('parameter_invalid', 'This payment method is not offered for this session', { param: 'payment_method_type' });
    }
    const payment = newPayment(session, options.email, options.processor, at);
    const taken = await deps.store.once((db) => db.payments.insertForSession(payment, session));
    if (taken === 'inserted') return { session, payment };
    if (taken === 'busy' || attempt >= INTENT_ATTEMPTS) throw paymentUnderWay();
    const current = await deps.store.read((reader) => reader.checkoutSessions.get(null, session.id));
    if (!current) throw resourceMissing('checkout session', session.id);
    session = current;
  }
}

function paymentUnderWay(): TillpointError {
  return new TillpointError(
    'idempotency_key_in_use',
    'Another payment for this checkout session is under way; wait for its result',
  );
}

/**
 * Writes what the processor said onto the payment (and the session, when it won) and throws the
 * API error that the outcome means for the caller.
 */
export async function recordAuthorization(
  deps: Deps,
  options: RecordAuthorizationOptions,
): Promise<PaidCheckout> {
  if (options.result.outcome === 'unknown') {
    throw new TillpointError(
      'processor_timeout',
      'The processor did not answer in time; the payment stays processing until its outcome is known',
    );
  }
  const outcome = await recordAuthorizationOutcome(deps, { ...options, result: options.result });
  if ('error' in outcome) throw outcome.error;
  return outcome;
}
