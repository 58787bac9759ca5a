import type { Payment, Refund } from './entities';
import type { UnitOfWork } from '../deps';
import { ConcurrentTransitionError, transitionRefund } from './transition';

/** Adds the refund to its payment's `amount_refunded` and marks it succeeded, in the caller's transaction. */
export async function recordRefundSucceeded(tx: UnitOfWork, refund: Refund, processorRefundId: string, now: Date): Promise<Refund> {
  const current = (await tx.payments.get(null, refund.paymentId, { forUpdate: true }))!;
  const refunded: Payment = { ...current, amountRefunded: current.amountRefunded + refund.amount, updatedAt: now };
  if (!(await tx.payments.update(refunded, current.status))) throw new ConcurrentTransitionError(refund.paymentId);
  return transitionRefund(tx, refund, 'succeeded', { processorRefundId }, now);
}
