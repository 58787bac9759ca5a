import type { Payment } from '../entities';
import { resourceMissing, TillpointError } from '../errors';
import type { Deps, PaymentProcessor } from '../ports';
import type { ProcessorLifecycle } from '../processor-lifecycle';
import { transitionPayment } from '../transition';
import { recordAuthorization } from './pay-checkout-session';

/** How long a payment may stay unanswered before "the processor has no such charge" means it never happened. */
export const RECONCILE_GIVE_UP_AFTER_MS = 10 * 60 * 1000;

export type Reconciliation = { payment: Payment; settled: boolean };

/**
 * Settles a payment left `processing` by an unknown outcome (a timeout): asks the processor for the
 * charge by our payment id (its order id) and records what it says, as if the call had returned.
 * A charge the processor does not know is failed once it is old enough that it cannot still arrive.
 */
export async function reconcilePayment(deps: Deps, options: { paymentId: string }): Promise<Reconciliation> {
  const read = await deps.store.transaction(async (tx) => {
    const payment = await tx.payments.get(null, options.paymentId);
    const session = payment && (await tx.checkoutSessions.get(null, payment.checkoutSessionId));
    return payment && session ? { payment, session } : null;
  });
  if (!read) throw resourceMissing('payment', options.paymentId);
  const { payment, session } = read;
  if (payment.status !== 'processing') return { payment, settled: true };

  const processor = (await deps.processors.forScope(payment)) as PaymentProcessor & Partial<ProcessorLifecycle>;
  if (!processor.findByPaymentId) return { payment, settled: false };
  const found = await processor.findByPaymentId({ paymentId: payment.id });
  if (!found.found) {
    if (deps.clock.now().getTime() - payment.createdAt.getTime() < RECONCILE_GIVE_UP_AFTER_MS) return { payment, settled: false };
    const failed = await deps.store.transaction((tx) =>
      transitionPayment(tx, payment, 'failed', { failureCode: 'processor_timeout' }, deps.clock.now()),
    );
    return { payment: failed, settled: true };
  }
  const paymentMethodType = found.authorization.outcome !== 'unavailable' && found.authorization.paymentMethod?.type === 'google_pay' ? 'google_pay' : 'card';
  try {
    const recorded = await recordAuthorization(deps, { session, payment, paymentMethodType, result: found.authorization });
    return { payment: recorded.payment, settled: true };
  } catch (error) {
    // A decline is recorded, then reported as an error for the paying shopper; here it is just the outcome.
    if (!(error instanceof TillpointError)) throw error;
    const after = await deps.store.transaction((tx) => tx.payments.get(null, payment.id));
    return { payment: after ?? payment, settled: true };
  }
}
