import type { Dispute } from '../entities';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Actor } from '../../team/entities';
import { auditWrite } from '../../team/audit';
import { disputeNotOpen, disputeOperationError, transitionDispute } from '../rules';

/**
 * Submits the evidence given so far (Braintree's `finalize`): the dispute goes `under_review` and
 * the bank decides. Submitting a dispute already under review answers it unchanged.
 */
export async function submitDispute(deps: Deps, options: { scope: Scope; id: string; actor: Actor | null }): Promise<Dispute> {
  const dispute = await deps.store.read((reader) => reader.disputes.get(options.scope, options.id));
  if (!dispute) throw resourceMissing('dispute', options.id);
  if (dispute.status === 'under_review' && dispute.submittedAt) return dispute;
  if (dispute.status !== 'needs_response') throw disputeNotOpen(dispute, 'be submitted');
  const processor = await deps.processors.forScope(options.scope);
  const result = await processor.finalizeDispute({ disputeId: dispute.processorDisputeId });
  if (result.outcome !== 'succeeded') throw disputeOperationError(result);
  return deps.store.transaction(async (tx) => {
    const at = deps.clock.now();
    const current = (await tx.disputes.get(options.scope, dispute.id, { forUpdate: true }))!;
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'dispute.submit', target: dispute.id, at });
    // The processor may already have decided it (a notification arrived first): keep its decision.
    if (current.status !== 'needs_response') return current;
    return transitionDispute(tx, current, 'under_review', { submittedAt: at }, at);
  });
}
