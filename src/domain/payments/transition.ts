import type { Payment, Refund } from './entities';
import { checkoutSessionSnapshot, paymentSnapshot, refundSnapshot } from '../shared/event-payloads';
import { newEvent, type DomainEvent, type EventType } from '../shared/events';
import type { UnitOfWork } from '../deps';
import {
  assertTransition,
  checkoutSessionTransitions,
  paymentTransitions,
  refundTransitions,
  type CheckoutSessionStatus,
  type PaymentStatus,
  type RefundStatus,
} from './state-machine';
import type { CheckoutSession } from '../sessions/entities';

/** Another request moved the object first; the caller's transaction must not commit. */
export class ConcurrentTransitionError extends Error {
  constructor(id: string) {
    super(`${id} changed state concurrently`);
    this.name = 'ConcurrentTransitionError';
  }
}

const sessionEvents: Partial<Record<CheckoutSessionStatus, EventType>> = {
  complete: 'checkout.session.completed',
  expired: 'checkout.session.expired',
};

const paymentEvents: Partial<Record<PaymentStatus, EventType>> = {
  succeeded: 'payment.succeeded',
  failed: 'payment.failed',
  requires_capture: 'payment.requires_capture',
  canceled: 'payment.canceled',
};

/** The event of a payment transition: a capture is `payment.captured`, not a second `payment.succeeded`. */
export function paymentEventType(from: PaymentStatus, to: PaymentStatus): EventType | undefined {
  if (from === 'requires_capture' && to === 'succeeded') return 'payment.captured';
  return paymentEvents[to];
}

const refundEvents: Partial<Record<RefundStatus, EventType>> = {
  succeeded: 'refund.succeeded',
  failed: 'refund.failed',
};

/**
 * Moves a checkout session to `to`: checks the table, writes the new state only if nobody moved it
 * meanwhile, and writes its event, all in the caller's transaction.
 */
export async function transitionCheckoutSession(
  tx: UnitOfWork,
  session: CheckoutSession,
  to: CheckoutSessionStatus,
  changes: Partial<CheckoutSession>,
  at: Date,
  publicUrl: string,
): Promise<CheckoutSession> {
  const { next, event, convertsExposuresAt } = planCheckoutSessionTransition(session, to, changes, at, publicUrl);
  if (!(await tx.checkoutSessions.update(next, session.status))) {
    throw new ConcurrentTransitionError(session.id);
  }
  if (convertsExposuresAt) await tx.exposures.markConverted(next.id, convertsExposuresAt);
  if (event) await tx.events.insert(event);
  return next;
}

/**
 * A checkout session's move to `to` as `transitionCheckoutSession` would write it — the new state
 * and its event — checked against the table but not written (for a caller that writes it in one
 * statement with other changes, such as `payments.recordOutcome`).
 */
export function planCheckoutSessionTransition(
  session: CheckoutSession,
  to: CheckoutSessionStatus,
  changes: Partial<CheckoutSession>,
  at: Date,
  publicUrl: string,
): { next: CheckoutSession; event: DomainEvent | null; convertsExposuresAt: Date | null } {
  assertTransition('checkout session', checkoutSessionTransitions, session.status, to);
  const next: CheckoutSession = { ...session, ...changes, status: to, updatedAt: at, ...(to === 'expired' ? { expiredAt: at } : {}) };
  return {
    next,
    event: eventOf(next, sessionEvents[to], () => checkoutSessionSnapshot(next, publicUrl), at),
    // A completed session is a conversion for every experiment it was exposed to. The session can
    // complete only once, so a conversion is never counted twice.
    convertsExposuresAt: to === 'complete' ? at : null,
  };
}

/** A payment's move to `to`, as `planCheckoutSessionTransition` for a session. */
export function planPaymentTransition(payment: Payment, to: PaymentStatus, changes: Partial<Payment>, at: Date): { next: Payment; event: DomainEvent | null } {
  assertTransition('payment', paymentTransitions, payment.status, to);
  const next: Payment = { ...payment, ...changes, status: to, updatedAt: at };
  return { next, event: eventOf(next, paymentEventType(payment.status, to), () => paymentSnapshot(next), at) };
}

/** Moves a payment to `to`, with the same guarantees as `transitionCheckoutSession`. */
export async function transitionPayment(tx: UnitOfWork, payment: Payment, to: PaymentStatus, changes: Partial<Payment>, at: Date): Promise<Payment> {
  const { next, event } = planPaymentTransition(payment, to, changes, at);
  if (!(await tx.payments.update(next, payment.status))) {
    throw new ConcurrentTransitionError(payment.id);
  }
  if (event) await tx.events.insert(event);
  return next;
}

/** Moves a refund to `to`, with the same guarantees as `transitionCheckoutSession`. */
export async function transitionRefund(tx: UnitOfWork, refund: Refund, to: RefundStatus, changes: Partial<Refund>, at: Date): Promise<Refund> {
  assertTransition('refund', refundTransitions, refund.status, to);
  const next: Refund = { ...refund, ...changes, status: to, updatedAt: at };
  if (!(await tx.refunds.update(next, refund.status))) {
    throw new ConcurrentTransitionError(refund.id);
  }
  const event = eventOf(next, refundEvents[to], () => refundSnapshot(next), at);
  if (event) await tx.events.insert(event);
  return next;
}

/** The event of a transition (when it has one), with a snapshot of the object's new state. */
function eventOf(
  object: { id: string; accountId: string; mode: DomainEvent['mode'] },
  type: EventType | undefined,
  snapshot: () => Record<string, unknown>,
  at: Date,
): DomainEvent | null {
  if (!type) return null;
  return newEvent(object, type, snapshot(), at);
}
