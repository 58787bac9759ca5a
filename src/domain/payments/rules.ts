import { payments, type CaptureMethod, type Payment, type Refund, type PaymentMethodType } from './entities';
import { blankOf } from '../shared/resource-shape';
import type { UnitOfWork, Deps } from '../deps';
import { ConcurrentTransitionError, planCheckoutSessionTransition, planPaymentTransition, transitionRefund } from './transition';
import { TillpointError, resourceMissing } from '../shared/errors';
import { newEvent } from '../shared/events';
import { paymentSnapshot } from '../shared/event-payloads';
import { newId } from '../shared/ids';
import type { AuthorizeRequest, AuthorizeResult } from '../processors/ports';
import type { Scope } from '../shared/scope';
import type { CheckoutSession } from '../sessions/entities';
import type { ReconciliationTimings } from './ports';

/** Adds the refund to its payment's `amount_refunded` and marks it succeeded, in the caller's transaction. */
export async function recordRefundSucceeded(tx: UnitOfWork, refund: Refund, processorRefundId: string, now: Date): Promise<Refund> {
  const current = (await tx.payments.get(null, refund.paymentId, { forUpdate: true }))!;
  const refunded: Payment = { ...current, amountRefunded: current.amountRefunded + refund.amount, updatedAt: now };
  if (!(await tx.payments.update(refunded, current.status))) throw new ConcurrentTransitionError(refund.paymentId);
  return transitionRefund(tx, refund, 'succeeded', { processorRefundId }, now);
}

/**
 * A processor's answer that decides a `processing` payment: everything but no answer (`unknown`)
 * and a bank debit accepted to settle later (`pending`, `recordSettlementPending`).
 */
export type KnownAuthorizeResult = Exclude<AuthorizeResult, { outcome: 'unknown' } | { outcome: 'pending' }>;

/**
 * A bank debit the processor accepted to settle later: the payment stays `processing`, now with
 * its transaction, its account (never the number) and its `payment.processing` event, written
 * together. The processor's settlement report decides it later (`recordBankDebitReport`).
 * `ConcurrentTransitionError` when the payment is no longer `processing` as read.
 */
export async function recordSettlementPending(
  deps: Deps,
  options: { payment: Payment; result: Extract<AuthorizeResult, { outcome: 'pending' }> },
): Promise<Payment> {
  const { payment, result } = options;
  const now = deps.clock.now();
  const next: Payment = {
    ...payment,
    paymentMethod: { ...result.paymentMethod, type: payment.paymentMethod?.type ?? result.paymentMethod.type },
    processorTransactionId: result.transactionId,
    processorResponse: result.response,
    riskDecision: result.riskDecision ?? null,
    updatedAt: now,
  };
  return deps.store.transaction(async (tx) => {
    if (!(await tx.payments.update(next, 'processing'))) throw new ConcurrentTransitionError(payment.id);
    await tx.events.insert(newEvent(next, 'payment.processing', paymentSnapshot(next), now));
    return next;
  });
}

/** How many times a won payment's outcome is decided again on a session that moved since it was read. */
const OUTCOME_ATTEMPTS = 3;

/**
 * Moves a `processing` payment to the state a known processor answer means: approved → succeeded
 * or requires_capture (and the session complete), declined or unavailable → failed, with the error
 * to answer. Shared by paying and by reconciliation. Written one way, `payments.recordOutcome`: one
 * statement, onto the payment and the session as they were read. A session that moved meanwhile
 * (its email set, or expired) is read again and the completion decided again from its current
 * row; a payment that moved (recorded by another, or reconciled) is left alone:
 * `ConcurrentTransitionError`.
 */
export async function recordAuthorizationOutcome(
  deps: Deps,
  options: RecordAuthorizationOptions & { result: KnownAuthorizeResult },
): Promise<PaidCheckout | { payment: Payment; error: TillpointError }> {
  const { payment } = options;
  const { to, changes, error } = paymentOutcome(options);
  let session = options.session;
  for (let attempt = 1; ; attempt++) {
    const now = deps.clock.now();
    const paid = planPaymentTransition(payment, to, changes, now);
    // A refusal leaves the session as it is; a win completes it (refused when it can no longer be).
    const completed = error ? null : planCheckoutSessionTransition(session, 'complete', sessionCompletion(session, paid.next, now), now, deps.publicUrl);
    const answer = await deps.store.once((db) =>
      db.payments.recordOutcome({
        payment: paid.next,
        expectedStatus: payment.status,
        event: paid.event,
        ...(completed
          ? { session: { next: completed.next, expected: session, event: completed.event, convertsExposuresAt: completed.convertsExposuresAt } }
          : {}),
      }),
    );
    if (answer === 'recorded') return completed ? { session: completed.next, payment: paid.next } : { payment: paid.next, error: error! };
    if (answer === 'payment_moved' || attempt >= OUTCOME_ATTEMPTS) throw new ConcurrentTransitionError(payment.id);
    const current = await deps.store.read((reader) => reader.checkoutSessions.get(null, session.id));
    if (!current) throw resourceMissing('checkout session', session.id);
    session = current;
  }
}

/**
 * What a processor's answer means for the shopper when it could not be recorded (the database out
 * of reach, or a lock held past the lock timeout): what the processor said, paid or refused, as
 * `recordAuthorizationOutcome` would have answered, with nothing written. Never
 * `database_unavailable` after a charge, which would invite paying again. The payment stays
 * `processing` (its session refuses another payment meanwhile) until the same answer is recorded:
 * in the background moments later (pay-checkout-session.ts, `recordLater`), or else by
 * reconciliation, which asks the processor.
 */
export function unrecordedAuthorizationOutcome(
  deps: Pick<Deps, 'clock' | 'publicUrl'>,
  options: RecordAuthorizationOptions & { result: KnownAuthorizeResult },
): PaidCheckout | { payment: Payment; error: TillpointError } {
  const now = deps.clock.now();
  const { to, changes, error } = paymentOutcome(options);
  const paid = planPaymentTransition(options.payment, to, changes, now).next;
  if (error) return { payment: paid, error };
  const session = planCheckoutSessionTransition(options.session, 'complete', sessionCompletion(options.session, paid, now), now, deps.publicUrl).next;
  return { session, payment: paid };
}

/**
 * `recordAuthorizationOutcome` for a payment without a checkout session (a merchant-initiated
 * charge of a saved payment method): the payment's move and its event, written the same one way.
 */
export async function recordChargeOutcome(
  deps: Deps,
  options: { payment: Payment; result: KnownAuthorizeResult },
): Promise<{ payment: Payment; error: TillpointError | null }> {
  const { payment } = options;
  const { to, changes, error } = paymentOutcome({ ...options, session: null });
  const paid = planPaymentTransition(payment, to, changes, deps.clock.now());
  const answer = await deps.store.once((db) => db.payments.recordOutcome({ payment: paid.next, expectedStatus: payment.status, event: paid.event }));
  if (answer !== 'recorded') throw new ConcurrentTransitionError(payment.id);
  return { payment: paid.next, error };
}

/** What a processor's answer makes of a `processing` payment, and the error it means for the caller. */
function paymentOutcome(
  options: Pick<RecordAuthorizationOptions, 'payment' | 'paymentMethodType'> & {
    session: CheckoutSession | null;
    result: KnownAuthorizeResult;
  },
): { to: Payment['status']; changes: Partial<Payment>; error: TillpointError | null } {
  const { result, payment } = options;
  const methodType = (reported: PaymentMethodType) => options.paymentMethodType ?? reported;
  // The way the shopper chose to pay is known even when the processor tells nothing of the card.
  const chosenMethod: Payment['paymentMethod'] = options.paymentMethodType
    ? { type: options.paymentMethodType, brand: null, last4: null, expMonth: null, expYear: null, fingerprint: null }
    : payment.paymentMethod;
  if (result.outcome === 'approved') {
    return {
      to: result.captured ? 'succeeded' : 'requires_capture',
      changes: {
        paymentMethod: { ...result.paymentMethod, type: methodType(result.paymentMethod.type) },
        processorTransactionId: result.transactionId,
        processorResponse: result.response,
        amountCaptured: result.captured ? payment.amount : 0,
        threeDSecure: result.threeDSecure ?? null,
        riskDecision: result.riskDecision ?? null,
      },
      error: null,
    };
  }
  if (result.outcome === 'declined') {
    return {
      to: 'failed',
      changes: {
        paymentMethod: result.paymentMethod ? { ...result.paymentMethod, type: methodType(result.paymentMethod.type) } : chosenMethod,
        processorTransactionId: result.transactionId,
        processorResponse: result.response,
        failureCode: 'card_declined',
        declineCode: result.declineCode,
        threeDSecure: result.threeDSecure ?? null,
        riskDecision: result.riskDecision ?? null,
      },
      error: new TillpointError('card_declined', declineMessage(result.declineCode), { declineCode: result.declineCode }),
    };
  }
  if (result.outcome === 'invalid_payment_method') {
    return {
      to: 'failed',
      changes: { failureCode: 'parameter_invalid', paymentMethod: chosenMethod },
      error: new TillpointError('parameter_invalid', result.message, { param: 'payment_method' }),
    };
  }
  return {
    to: 'failed',
    changes: { failureCode: 'processor_unavailable', processorResponse: result.response, paymentMethod: chosenMethod },
    error: new TillpointError('processor_unavailable', 'The payment processor is unavailable; try again shortly'),
  };
}

/** The session's side of a won payment. */
function sessionCompletion(session: CheckoutSession, paid: Payment, now: Date): Partial<CheckoutSession> {
  return { paymentId: paid.id, completedAt: now, customerEmail: session.customerEmail ?? paid.customerEmail };
}

/** The session a shopper is about to pay, refused when it is unknown, expired or already paid. */
export async function openSessionForPayment(deps: Deps, sessionId: string): Promise<CheckoutSession> {
  const session = await deps.store.read((reader) => reader.checkoutSessions.get(null, sessionId));
  if (!session) throw resourceMissing('checkout session', sessionId);
  const refused = refusalToPay(session, session.expiresAt <= deps.clock.now());
  if (refused) throw refused;
  return session;
}

/** Why a session cannot be paid (expired, or `overdue` and not yet marked so; already paid), or null. */
export function refusalToPay(session: CheckoutSession, overdue = false): TillpointError | null {
  if (session.status === 'expired' || overdue) return new TillpointError('checkout_session_expired', 'This checkout session has expired');
  if (session.status === 'complete') {
    return new TillpointError(
      'checkout_session_completed',
      session.purpose === 'setup' ? 'This checkout session already saved a card' : 'This checkout session is already paid',
    );
  }
  return null;
}

/** The waits in force: the configured ones (RECONCILE_* settings), else the defaults above. */
export function reconciliationTimings(deps: Pick<Deps, 'reconciliation'>): ReconciliationTimings {
  return deps.reconciliation ?? { afterMs: RECONCILE_AFTER_MS, notFoundGraceMs: NOT_FOUND_GRACE_MS };
}

function declineMessage(code: string): string {
  return code === 'test_mode_live_card' ? 'Your card was declined: a real card number cannot be used in test mode' : `Your card was declined (${code})`;
}

export interface PaidCheckout {
  session: CheckoutSession;
  payment: Payment;
}

export interface RecordAuthorizationOptions {
  session: CheckoutSession;
  payment: Payment;
  /** What the shopper chose on the page; unknown to reconciliation, which keeps the processor's. */
  paymentMethodType?: PaymentMethodType;
  result: AuthorizeResult;
}

/**
 * Every processor call answers within this, or its outcome counts as unknown (the runtime holds each
 * adapter to it): shorter than the lease, so a request that lives to answer answers before it ends.
 */
export const PROCESSOR_CALL_DEADLINE_MS = 30 * 1000;

/**
 * The lease of an operation in flight, from its start: younger than this, its request may still be
 * under way and reconciliation leaves it alone; after it, the processor's answer decides.
 */
export const RECONCILE_AFTER_MS = 60 * 1000;

/**
 * How long after its start a payment the processor did not know is still asked about (a late
 * charge is undone); a capture, void or refund it still does not know after this long never happened.
 */
export const NOT_FOUND_GRACE_MS = 10 * 60 * 1000;

/** What a new payment starts from: what it does not know yet (its method, the processor's answer), null. */
export const blankPayment = blankOf(payments);

/**
 * A merchant-initiated charge of a customer's saved payment method, `processing` until the
 * processor answers: the merchant's own (`POST /v1/payments`, `chargeSavedPaymentMethod`) or an
 * invoice's (`chargeInvoice`, which names the invoice it pays). It belongs to no checkout session.
 */
export function merchantInitiatedPayment(options: {
  scope: Scope;
  customer: { id: string; email: string | null };
  /** The processor that keeps the saved method. */
  processor: string;
  amount: number;
  currency: string;
  captureMethod?: CaptureMethod;
  invoiceId?: string | null;
  now: Date;
}): Payment {
  return {
    ...blankPayment,
    id: newId('pay'),
    accountId: options.scope.accountId,
    mode: options.scope.mode,
    amount: options.amount,
    currency: options.currency,
    status: 'processing',
    captureMethod: options.captureMethod ?? 'automatic',
    amountCaptured: 0,
    amountRefunded: 0,
    customerId: options.customer.id,
    customerEmail: options.customer.email,
    invoiceId: options.invoiceId ?? null,
    processor: options.processor,
    customFields: [],
    createdAt: options.now,
    updatedAt: options.now,
  };
}

/**
 * What the processor is asked for a merchant-initiated `payment` of the saved method `token` (a card,
 * or a bank account as `paymentMethodType`): no shopper, no 3-D Secure; `recurring` when a
 * subscription's schedule makes it.
 */
export function merchantInitiatedAuthorization(
  payment: Payment,
  token: string,
  options: { recurring?: boolean; paymentMethodType?: PaymentMethodType } = {},
): AuthorizeRequest {
  return {
    paymentId: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    capture: payment.captureMethod === 'automatic',
    nonce: '',
    paymentMethodToken: token,
    merchantInitiated: true,
    ...(options.recurring ? { recurring: true } : {}),
    deviceData: null,
    email: payment.customerEmail,
    threeDSecureMode: 'off',
    // A saved bank account is debited as one (ACH): its sale settles later (`pending`).
    paymentMethodType: options.paymentMethodType ?? 'card',
  };
}

/** A payment attempt on `session`, `processing` until the processor answers. */
export function newPayment(session: CheckoutSession, email: string, processor: string, now: Date): Payment {
  return {
    ...blankPayment,
    id: newId('pay'),
    accountId: session.accountId,
    mode: session.mode,
    checkoutSessionId: session.id,
    amount: session.amountTotal,
    currency: session.currency,
    status: 'processing',
    captureMethod: session.captureMethod,
    amountCaptured: 0,
    amountRefunded: 0,
    customerId: session.customerId,
    customerEmail: email,
    processor,
    totalDetails: session.totalDetails,
    shippingDetails: session.shippingDetails,
    billingAddress: session.billingAddress,
    customFields: session.customFields,
    createdAt: now,
    updatedAt: now,
  };
}
