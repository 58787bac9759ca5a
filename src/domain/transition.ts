import type { CheckoutSession, Payment } from './entities';
import type { EventType } from './events';
import { newId } from './ids';
import type { UnitOfWork } from './ports';
import {
  assertTransition,
  checkoutSessionTransitions,
  paymentTransitions,
  type CheckoutSessionStatus,
  type PaymentStatus,
} from './state-machine';
import { checkoutSessionView, paymentView } from './views';

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
  assertTransition('checkout session', checkoutSessionTransitions, session.status, to);
  const next: CheckoutSession = { ...session, ...changes, status: to, updatedAt: at };
  if (!(await tx.checkoutSessions.update(next, session.status))) {
    throw new ConcurrentTransitionError(session.id);
  }
  // A completed session is a conversion for every experiment it was exposed to. The session can
  // complete only once, so a conversion is never counted twice.
  if (to === 'complete') await tx.exposures.markConverted(next.id, at);
  const type = sessionEvents[to];
  if (type) {
    await tx.events.insert({
      id: newId('evt'),
      accountId: next.accountId,
      mode: next.mode,
      type,
      objectId: next.id,
      data: checkoutSessionView(next, publicUrl),
      createdAt: at,
    });
  }
  return next;
}

/** Moves a payment to `to`, with the same guarantees as `transitionCheckoutSession`. */
export async function transitionPayment(
  tx: UnitOfWork,
  payment: Payment,
  to: PaymentStatus,
  changes: Partial<Payment>,
  at: Date,
): Promise<Payment> {
  assertTransition('payment', paymentTransitions, payment.status, to);
  const next: Payment = { ...payment, ...changes, status: to, updatedAt: at };
  if (!(await tx.payments.update(next, payment.status))) {
    throw new ConcurrentTransitionError(payment.id);
  }
  const type = paymentEvents[to];
  if (type) {
    await tx.events.insert({
      id: newId('evt'),
      accountId: next.accountId,
      mode: next.mode,
      type,
      objectId: next.id,
      data: paymentView(next),
      createdAt: at,
    });
  }
  return next;
}
