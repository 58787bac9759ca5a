import type { Payment } from '../entities';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import { ConcurrentTransitionError, transitionPayment } from '../transition';
import { recordAuthorizationOutcome, reconciliationTimings } from '../rules';

export interface ReconciliationReport {
  /** Payments moved out of `processing`. */
  resolved: number;
  /** Payments still `processing` (processor silent or not found within the grace period). */
  pending: number;
}

/**
 * Resolves payments left `processing` by a crash or a timeout, by asking the processor what it knows
 * of them (our payment id is its order id): an approved transaction is recorded exactly as a live
 * answer would have been, a declined one fails the payment, and one still unknown after the grace
 * period never happened, so the payment fails and the session can be paid again.
 */
export async function reconcileProcessingPayments(
  deps: Deps,
  options: { batchSize?: number; onError?: (paymentId: string, error: unknown) => void } = {},
): Promise<ReconciliationReport> {
  const now = deps.clock.now();
  const stale = await deps.store.transaction((tx) =>
    tx.payments.listInStatusCreatedBefore('processing', new Date(now.getTime() - reconciliationTimings(deps).afterMs), options.batchSize ?? 100),
  );
  const report: ReconciliationReport = { resolved: 0, pending: 0 };
  for (const payment of stale) {
    try {
      if (await reconcile(deps, payment, now)) report.resolved += 1;
      else report.pending += 1;
    } catch (error) {
      // The live request answered first: the payment is resolved, by it.
      if (error instanceof ConcurrentTransitionError) continue;
      report.pending += 1;
      options.onError?.(payment.id, error);
    }
  }
  return report;
}

async function reconcile(deps: Deps, payment: Payment, now: Date): Promise<boolean> {
  const processor = await deps.processors.forScope(payment);
  const found = await processor.findByPaymentId({ paymentId: payment.id });
  if (found.found) {
    const session = await deps.store.transaction((tx) => tx.checkoutSessions.get(null, payment.checkoutSessionId));
    if (!session) return false;
    await recordAuthorizationOutcome(deps, { session, payment, result: found.authorization });
    return true;
  }
  if (now.getTime() - payment.createdAt.getTime() < reconciliationTimings(deps).notFoundGraceMs) return false;
  await deps.store.transaction(async (tx) => {
    const current = await tx.payments.get(null, payment.id, { forUpdate: true });
    if (current?.status !== 'processing') throw new ConcurrentTransitionError(payment.id);
    await transitionPayment(tx, current, 'failed', { failureCode: 'processor_timeout' }, deps.clock.now());
  });
  return true;
}

/**
 * Reconciles one payment now, whatever its age (an operator's or a test's call): `settled` says
 * whether it has left `processing`.
 */
export async function reconcilePayment(
  deps: Deps,
  options: { paymentId: string },
): Promise<{ payment: Payment; settled: boolean }> {
  const read = () => deps.store.transaction((tx) => tx.payments.get(null, options.paymentId));
  const payment = await read();
  if (!payment) throw resourceMissing('payment', options.paymentId);
  if (payment.status === 'processing') {
    try {
      await reconcile(deps, payment, deps.clock.now());
    } catch (error) {
      if (!(error instanceof ConcurrentTransitionError)) throw error;
    }
  }
  const after = (await read()) ?? payment;
  return { payment: after, settled: after.status !== 'processing' };
}
