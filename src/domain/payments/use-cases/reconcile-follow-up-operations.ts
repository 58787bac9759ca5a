import type { Refund } from '../entities';
import type { OperationInFlight } from '../ports';
import type { FoundTransaction } from '../../processors/ports';
import type { Deps } from '../../deps';
import { ConcurrentTransitionError, transitionPayment, transitionRefund } from '../transition';
import { inParallel, type ReconciliationReport } from './reconcile-processing-payments';
import { recordRefundSucceeded, reconciliationTimings } from '../rules';

type Found = Extract<FoundTransaction, { found: true }>;

/**
 * Resolves captures, voids and refunds whose processor answer was lost, once their lease has run out
 * (`afterMs`), by asking the processor what it did — by our payment id (its order id), whose
 * transaction lists the refunds made with our refund ids:
 *
 * - a capture or void in flight: a voided transaction cancels the payment; a captured one (by this
 *   operation or a racing one) makes it succeeded with the amount the processor captured; one still
 *   only authorized means nothing happened, and the payment stays `requires_capture`, free to retry.
 * - a pending refund: one the processor made (found by our refund id) succeeds; a full refund of an
 *   unsettled payment that the processor voided succeeds; one the processor says it did not make —
 *   it knows the payment, and no refund of it carries our id — fails at once (`processor_timeout`),
 *   releasing the reserved amount. Money is never refunded twice nor lost.
 *
 * Only a transaction the processor does not know at all (it should: we recorded its answer) is left
 * for `notFoundGraceMs`, as an answer not to be trusted yet. A run goes through everything due, in
 * batches, a few look-ups at once: a restart after a crash leaves everything final in one run.
 */
export async function reconcileFollowUpOperations(
  deps: Deps,
  options: { batchSize?: number; onError?: (objectId: string, error: unknown) => void } = {},
): Promise<ReconciliationReport> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - reconciliationTimings(deps).afterMs);
  const limit = options.batchSize ?? 100;
  const report: ReconciliationReport = { resolved: 0, pending: 0 };
  const count = async (objectId: string, work: () => Promise<boolean>) => {
    try {
      if (await work()) report.resolved += 1;
      else report.pending += 1;
    } catch (error) {
      // A live request recorded its answer first: resolved, by it.
      if (error instanceof ConcurrentTransitionError) return;
      report.pending += 1;
      options.onError?.(objectId, error);
    }
  };
  // Batch after batch until none is left; what could not be resolved is not tried twice in a run.
  const tried = new Set<string>();
  for (;;) {
    const listed = await deps.store.read(async (reader) => ({
      operations: await reader.operationsInFlight.listStartedBefore(cutoff, limit),
      refunds: await reader.operationsInFlight.listPendingRefundsCreatedBefore(cutoff, limit),
    }));
    const operations = listed.operations.filter((operation) => !tried.has(`operation:${operation.paymentId}`));
    const refunds = listed.refunds.filter((refund) => !tried.has(refund.id));
    for (const operation of operations) tried.add(`operation:${operation.paymentId}`);
    for (const refund of refunds) tried.add(refund.id);
    await inParallel(operations, (operation) => count(operation.paymentId, () => reconcileOperation(deps, operation, now)));
    await inParallel(refunds, (refund) => count(refund.id, () => reconcileRefund(deps, refund, now)));
    const more = listed.operations.length >= limit || listed.refunds.length >= limit;
    if (!more || operations.length + refunds.length === 0) break;
  }
  return report;
}

async function findTransaction(deps: Deps, scope: { accountId: string; mode: 'test' | 'live' }, paymentId: string): Promise<FoundTransaction> {
  const processor = await deps.processors.forScope(scope);
  return processor.findByPaymentId({ paymentId });
}

async function reconcileOperation(deps: Deps, operation: OperationInFlight, now: Date): Promise<boolean> {
  const payment = await deps.store.read((reader) => reader.payments.get(null, operation.paymentId));
  if (payment?.status !== 'requires_capture') {
    await deps.store.transaction((tx) => tx.operationsInFlight.finish(operation.paymentId));
    return true;
  }
  const found = await findTransaction(deps, payment, payment.id);
  if (!found.found) {
    // The authorization exists (we recorded it), so the processor is not answering truthfully yet.
    if (now.getTime() - operation.startedAt.getTime() < reconciliationTimings(deps).notFoundGraceMs) return false;
    await deps.store.transaction((tx) => tx.operationsInFlight.finish(operation.paymentId));
    return true;
  }
  await deps.store.transaction(async (tx) => {
    // The payment row first, then its in-flight row: the lock order of beginOperation.
    const current = await tx.payments.get(null, payment.id, { forUpdate: true });
    await tx.operationsInFlight.finish(operation.paymentId);
    if (current?.status !== 'requires_capture') return;
    if (found.voided) await transitionPayment(tx, current, 'canceled', {}, deps.clock.now());
    else if (found.amountCaptured > 0) {
      await transitionPayment(tx, current, 'succeeded', { amountCaptured: found.amountCaptured }, deps.clock.now());
    }
  });
  return true;
}

async function reconcileRefund(deps: Deps, refund: Refund, now: Date): Promise<boolean> {
  const payment = await deps.store.read((reader) => reader.payments.get(null, refund.paymentId));
  if (!payment) return false;
  const found = await findTransaction(deps, payment, payment.id);
  const made = found.found ? processorRefundOf(found, refund, payment.amountCaptured - payment.amountRefunded, payment.processorTransactionId) : null;
  if (made) {
    await deps.store.transaction(async (tx) => {
      const current = await tx.refunds.get(null, refund.id);
      if (current?.status !== 'pending') throw new ConcurrentTransitionError(refund.id);
      await recordRefundSucceeded(tx, current, made, deps.clock.now());
    });
    return true;
  }
  // The processor knows the payment and made no refund with our id: it never will, the lease having
  // outlived every call of the refund's request. A payment it does not know at all is no answer yet.
  if (!found.found && now.getTime() - refund.createdAt.getTime() < reconciliationTimings(deps).notFoundGraceMs) return false;
  await deps.store.transaction(async (tx) => {
    const current = await tx.refunds.get(null, refund.id);
    if (current?.status !== 'pending') throw new ConcurrentTransitionError(refund.id);
    await transitionRefund(tx, current, 'failed', { failureReason: 'processor_timeout' }, deps.clock.now());
  });
  return true;
}

/**
 * The processor's id for `refund` when the processor made it: a refund carrying our id, or (for a
 * refund of everything left on a payment that had not settled) the void that took its place.
 */
function processorRefundOf(found: Found, refund: Refund, remaining: number, transactionId: string | null): string | null {
  const byId = found.refunds.find((made) => made.refundId === refund.id);
  if (byId) return byId.processorRefundId;
  if (found.voided && refund.amount === remaining && transactionId) return transactionId;
  return null;
}
