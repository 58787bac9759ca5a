import type { Payment, PaymentMethodType } from '../entities';
import { resourceMissing, TillpointError } from '../../shared/errors';
import { isValidCustomerEmail } from '../../sessions/customer-email';
import { assertPaymentMethodEnabled } from '../offered-payment-methods';
import { type Deps } from '../../deps';
import { toThreeDSecureMode } from '../../processors/three-d-secure-policy';
import { SessionBusyError } from '../ports';
import type { AuthorizeResult, SessionToPay } from '../../processors/ports';
import type { CheckoutSession } from '../../sessions/entities';
import { expireIfOverdue } from '../../sessions/rules';
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

  // Flags and the processor are read before the transaction: neither must wait on our own lock.
  // The session comes with its processor's config, and its scope's flags, when the directory can
  // read them all at once.
  const found: SessionToPay | null = deps.processors.sessionToPay
    ? await deps.processors.sessionToPay(options.sessionId)
    : await deps.store.read(async (reader) => {
        const session = await reader.checkoutSessions.get(null, options.sessionId);
        return session && { session, processor: () => deps.processors.forScope(session) };
      });
  if (!found) throw resourceMissing('checkout session', options.sessionId);
  const target = found.session;
  // A kill switch thrown after the page loaded still stops the payment: the flags are those stored
  // now, read with the session when the directory could (else one read of them serves all three).
  const flags = found.flags && deps.flags.withState ? deps.flags.withState(found.flags) : deps.flags;
  const [enabled, forScope, threeDSecureFlag] = await Promise.allSettled([
    assertPaymentMethodEnabled({ flags }, target, options.paymentMethodType),
    found.processor(),
    flags.stringValue(target, 'three_d_secure', 'when_required', target.id),
  ]);
  // Refusals in the order the checks were made one after another before.
  if (enabled.status === 'rejected') throw enabled.reason;
  if (forScope.status === 'rejected') throw forScope.reason;
  if (threeDSecureFlag.status === 'rejected') throw threeDSecureFlag.reason;
  const processor = forScope.value;
  const threeDSecureMode = toThreeDSecureMode(threeDSecureFlag.value);

  // 1. Record the intent. A session still open as just read takes it in one statement, which
  // locks the session and lets the one-payment index decide, as the transaction below does; the
  // transaction is for everything else (an overdue session to expire, a refusal to explain).
  const at = deps.clock.now();
  const open =
    target.status === 'open' && target.expiresAt.getTime() > at.getTime() && target.paymentMethodTypes.includes(options.paymentMethodType);
  const quick = open ? newPayment(target, email, processor.name, at) : null;
  const taken = quick ? await deps.store.once((db) => db.payments.insertForOpenSession(quick, at)) : 'not_open';
  if (taken === 'busy') throw paymentUnderWay();
  const started = quick && taken === 'inserted' ? ({ session: target, payment: quick } as const) : await deps.store.transaction(async (tx) => {
    const found = await tx.checkoutSessions.get(null, options.sessionId, { forUpdate: true });
    if (!found) return { refused: resourceMissing('checkout session', options.sessionId) } as const;
    const session = await expireIfOverdue(deps, tx, found);
    const refused = refusalToPay(session);
    if (refused) return { refused } as const;
    if (!session.paymentMethodTypes.includes(options.paymentMethodType)) {
      throw new TillpointError('parameter_invalid', 'This payment method is not offered for this session', {
        param: 'payment_method_type',
      });
    }
    const payment = newPayment(session, email, processor.name, deps.clock.now());
    // The unique index decides: the insert is a no-op (SessionBusyError) when the session
    // already holds a payment, so a refusal never aborts the transaction.
    try {
      await tx.payments.insert(payment);
    } catch (error) {
      if (error instanceof SessionBusyError) return { refused: paymentUnderWay() } as const;
      throw error;
    }
    return { session, payment } as const;
  }).catch((error: unknown) => {
    // The unique index fires at commit on some drivers; it means the same as the check above.
    if (error instanceof SessionBusyError) return { refused: paymentUnderWay() } as const;
    throw error;
  });
  if ('refused' in started) throw started.refused;

  // 2. Ask the processor, holding no transaction.
  const { session, payment } = started;
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
