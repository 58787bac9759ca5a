import type { Dispute } from '../entities';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { ProcessorDispute } from '../../processors/ports';
import { newId } from '../../shared/ids';
import { canMoveDispute, closedDisputeStatuses } from '../state-machine';
import { disputeEvent, transitionDispute } from '../rules';

/** What recording a processor's report did. */
export type RecordedDispute =
  | { outcome: 'created' | 'updated'; dispute: Dispute }
  /** Nothing new: a duplicate notification, a search finding what we know, a move the table does not allow. */
  | { outcome: 'unchanged'; dispute: Dispute }
  /** The processor names a transaction that is no payment of this scope. */
  | { outcome: 'unknown_payment' };

/**
 * Records what the processor says of a dispute, whether it came in a notification, a catch-up
 * search or from the test processor: a new one is created (`dispute.created`, and `dispute.closed`
 * too if it arrives already decided); a known one moves to the reported status (`dispute.updated` or
 * `dispute.closed`). Saying the same thing twice changes nothing, so duplicates are harmless. The
 * processor's own writes have no actor and no audit line.
 */
export async function recordProcessorDispute(deps: Deps, options: { scope: Scope; processor: string; report: ProcessorDispute }): Promise<RecordedDispute> {
  const { scope, report } = options;
  return deps.store.transaction(async (tx): Promise<RecordedDispute> => {
    const at = deps.clock.now();
    const known = await tx.disputes.getByProcessorId(scope, report.processorDisputeId, { forUpdate: true });
    if (!known) {
      const payment = await tx.payments.findByProcessorTransactionId(scope, options.processor, report.transactionId);
      if (!payment) return { outcome: 'unknown_payment' };
      const opened: Dispute = {
        id: newId('dp'),
        accountId: scope.accountId,
        mode: scope.mode,
        paymentId: payment.id,
        amount: report.amount,
        currency: report.currency.toUpperCase(),
        reason: report.reason,
        status: report.status,
        replyBy: report.replyBy,
        evidence: [],
        processor: options.processor,
        processorDisputeId: report.processorDisputeId,
        submittedAt: null,
        closedAt: closedDisputeStatuses.has(report.status) ? at : null,
        createdAt: at,
        updatedAt: at,
      };
      await tx.disputes.insert(opened);
      await tx.events.insert(disputeEvent(opened, 'dispute.created', at));
      if (opened.closedAt) await tx.events.insert(disputeEvent(opened, 'dispute.closed', at));
      return { outcome: 'created', dispute: opened };
    }
    const sameReplyBy = (known.replyBy?.getTime() ?? null) === (report.replyBy?.getTime() ?? null);
    if (known.status === report.status && sameReplyBy) return { outcome: 'unchanged', dispute: known };
    if (known.status !== report.status && !canMoveDispute(known.status, report.status)) return { outcome: 'unchanged', dispute: known };
    return { outcome: 'updated', dispute: await transitionDispute(tx, known, report.status, { replyBy: report.replyBy }, at) };
  });
}
