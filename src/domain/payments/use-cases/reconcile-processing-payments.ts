import type { Payment } from '../entities';
import type { LateAnswerCheck } from '../ports';
import type { FoundTransaction, PaymentProcessor } from '../../processors/ports';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import { ConcurrentTransitionError, transitionPayment } from '../transition';
import { recordAuthorizationOutcome, recordChargeOutcome, recordSettlementPending, reconciliationTimings } from '../rules';

export interface ReconciliationReport {
  /** Payments moved out of `processing`. */
  resolved: number;
  /** Payments still `processing` (the processor could not be asked, or the lease has not run out). */
  pending: number;
}

/** What was done about a charge the processor made after its payment had been failed. */
export type LateChargeUndone = 'voided' | 'refunded';

/** Processor look-ups at once: a restart after a crash may leave hundreds, each a round trip to the gateway. */
const LOOKUPS_AT_ONCE = 8;
/** The first time a payment failed as unknown is asked about again; then each wait doubles. */
const FIRST_LATE_CHECK_MS = 60 * 1000;

/**
 * Resolves payments left `processing` by a crash or a timeout once their lease has run out, by
 * asking the processor about them by our payment id (its order id): an approved transaction is
 * recorded exactly as a live answer would have been, a declined one fails the payment; one the
 * processor does not know never happened, so the payment fails and its session can be paid again.
 *
 * Such a payment is asked about again for a while (`notFoundGraceMs` from its start, backing off),
 * and a charge the processor made late — after its client gave up, after the payment failed — is
 * voided (or refunded once settled): never two charges for one session.
 */
export async function reconcileProcessingPayments(
  deps: Deps,
  options: {
    batchSize?: number;
    onError?: (paymentId: string, error: unknown) => void;
    onLateCharge?: (paymentId: string, undone: LateChargeUndone) => void;
  } = {},
): Promise<ReconciliationReport> {
  const now = deps.clock.now();
  const limit = options.batchSize ?? 100;
  const leaseEnded = new Date(now.getTime() - reconciliationTimings(deps).afterMs);
  const report: ReconciliationReport = { resolved: 0, pending: 0 };
  // Batch after batch until none is left: everything a crash left is final within one run. A payment
  // that could not be resolved is not tried twice in a run.
  const tried = new Set<string>();
  for (;;) {
    const stale = await deps.store.read((reader) => reader.payments.listInStatusCreatedBefore('processing', leaseEnded, limit));
    const untried = stale.filter((payment) => !tried.has(payment.id));
    for (const payment of untried) tried.add(payment.id);
    await inParallel(untried, async (payment) => {
      try {
        if (await reconcile(deps, payment, now)) report.resolved += 1;
        else report.pending += 1;
      } catch (error) {
        // The live request answered first: the payment is resolved, by it.
        if (error instanceof ConcurrentTransitionError) return;
        report.pending += 1;
        options.onError?.(payment.id, error);
      }
    });
    if (untried.length === 0 || stale.length < limit) break;
  }
  const checks = await deps.store.read((reader) => reader.operationsInFlight.listLateAnswerChecksDue(now, limit));
  await inParallel(checks, async (check) => {
    try {
      const undone = await checkLateAnswer(deps, check, now);
      if (undone) options.onLateCharge?.(check.paymentId, undone);
    } catch (error) {
      options.onError?.(check.paymentId, error);
    }
  });
  return report;
}

async function reconcile(deps: Deps, payment: Payment, now: Date): Promise<boolean> {
  const processor = await deps.processors.forScope(payment);
  const found = await processor.findByPaymentId({ paymentId: payment.id });
  if (found.found) {
    // A bank debit whose answer was lost, accepted and waiting for its settlement: recorded as such
    // (its settlement report decides it; reconciliation lists it no more).
    if (found.authorization.outcome === 'pending') {
      await recordSettlementPending(deps, { payment, result: found.authorization });
      return true;
    }
    const sessionId = payment.checkoutSessionId;
    if (sessionId === null) {
      await recordChargeOutcome(deps, { payment, result: found.authorization });
      return true;
    }
    const session = await deps.store.read((reader) => reader.checkoutSessions.get(null, sessionId));
    if (!session) return false;
    await recordAuthorizationOutcome(deps, { session, payment, result: found.authorization });
    return true;
  }
  const timings = reconciliationTimings(deps);
  if (now.getTime() - payment.createdAt.getTime() < timings.afterMs) return false;
  const checkUntil = new Date(payment.createdAt.getTime() + timings.notFoundGraceMs);
  await deps.store.transaction(async (tx) => {
    const current = await tx.payments.get(null, payment.id, { forUpdate: true });
    if (current?.status !== 'processing') throw new ConcurrentTransitionError(payment.id);
    await transitionPayment(tx, current, 'failed', { failureCode: 'processor_timeout' }, deps.clock.now());
    if (checkUntil > now) {
      const nextCheckAt = new Date(Math.min(now.getTime() + FIRST_LATE_CHECK_MS, checkUntil.getTime()));
      await tx.operationsInFlight.watchForLateAnswer({ paymentId: payment.id, nextCheckAt, checkUntil });
    }
  });
  return true;
}

/**
 * Asks the processor again about a payment failed as unknown to it. A charge found now is undone;
 * a declined or voided one needs nothing; none at all is asked about again later, until the check
 * ends. An undo that fails is tried again at the next check, whatever the time.
 */
async function checkLateAnswer(deps: Deps, check: LateAnswerCheck, now: Date): Promise<LateChargeUndone | null> {
  const end = () => deps.store.transaction((tx) => tx.operationsInFlight.endLateAnswerCheck(check.paymentId));
  const later = (at: Date) => deps.store.transaction((tx) => tx.operationsInFlight.rescheduleLateAnswerCheck(check.paymentId, at));
  const payment = await deps.store.read((reader) => reader.payments.get(null, check.paymentId));
  if (payment?.status !== 'failed') {
    await end();
    return null;
  }
  const processor = await deps.processors.forScope(payment);
  const found = await processor.findByPaymentId({ paymentId: payment.id });
  if (found.found) {
    const charge = chargeLeft(found);
    if (!charge) {
      await end();
      return null;
    }
    const undone = await undoCharge(processor, payment, charge);
    if (undone) await end();
    else await later(new Date(now.getTime() + FIRST_LATE_CHECK_MS));
    return undone;
  }
  if (now >= check.checkUntil) {
    await end();
    return null;
  }
  const waited = Math.max(FIRST_LATE_CHECK_MS, now.getTime() - payment.createdAt.getTime());
  await later(new Date(Math.min(now.getTime() + waited, check.checkUntil.getTime())));
  return null;
}

/** The approved transaction's id and what of it is still charged (captured and not refunded), or null if nothing is. */
function chargeLeft(found: Extract<FoundTransaction, { found: true }>): { transactionId: string; captured: number } | null {
  if (found.authorization.outcome !== 'approved' || found.voided) return null;
  const refunded = found.refunds.reduce((sum, refund) => sum + refund.amount, 0);
  if (found.amountCaptured > 0 && refunded >= found.amountCaptured) return null;
  return { transactionId: found.authorization.transactionId, captured: found.amountCaptured - refunded };
}

/** Voids the charge (an authorization, or a capture not yet settled); refunds it once settled. */
async function undoCharge(
  processor: PaymentProcessor,
  payment: Payment,
  charge: { transactionId: string; captured: number },
): Promise<LateChargeUndone | null> {
  const voided = await processor.void({ transactionId: charge.transactionId });
  if (voided.outcome === 'succeeded') return 'voided';
  if (voided.outcome !== 'refused' || charge.captured <= 0) return null;
  const refunded = await processor.refund({
    transactionId: charge.transactionId,
    amount: charge.captured,
    currency: payment.currency,
    // One id per payment: a refund repeated after a lost answer is the same refund.
    refundId: `${payment.id}_late`,
  });
  return refunded.outcome === 'succeeded' ? 'refunded' : null;
}

/** Runs `work` over `items`, a few at once (`LOOKUPS_AT_ONCE`): each is a round trip to the processor. */
export async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, items.length) }, lane));
}

/**
 * Reconciles one payment now (an operator's or a test's call): `settled` says whether it has left
 * `processing`. One whose lease has not run out yet stays `processing` unless the processor knows it.
 */
export async function reconcilePayment(deps: Deps, options: { paymentId: string }): Promise<{ payment: Payment; settled: boolean }> {
  const read = () => deps.store.read((reader) => reader.payments.get(null, options.paymentId));
  const payment = await read();
  if (!payment) throw resourceMissing('payment', options.paymentId);
  // A local payment waits for its bank, hours if need be: the 3-hour rule decides it (expireLocalPayments).
  if (payment.status === 'processing' && !payment.processorPaymentId) {
    try {
      await reconcile(deps, payment, deps.clock.now());
    } catch (error) {
      if (!(error instanceof ConcurrentTransitionError)) throw error;
    }
  }
  const after = (await read()) ?? payment;
  return { payment: after, settled: after.status !== 'processing' };
}
