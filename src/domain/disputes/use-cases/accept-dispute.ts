import type { Dispute } from '../entities';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Actor } from '../../team/entities';
import { auditWrite } from '../../team/audit';
import { disputeNotOpen, disputeOperationError, transitionDispute } from '../rules';

/**
 * Accepts a dispute: the merchant gives the money up without answering. Asks the processor first,
 * holding no transaction, then records `accepted` (its `dispute.closed` event) and the audit line
 * together. Accepting an accepted dispute answers it unchanged, so a retry is harmless.
 */
export async function acceptDispute(deps: Deps, options: { scope: Scope; id: string; actor: Actor | null }): Promise<Dispute> {
  const dispute = await deps.store.read((reader) => reader.disputes.get(options.scope, options.id));
  if (!dispute) throw resourceMissing('dispute', options.id);
  if (dispute.status === 'accepted') return dispute;
  if (dispute.status !== 'needs_response') throw disputeNotOpen(dispute, 'be accepted');
  const processor = await deps.processors.forScope(options.scope);
  const result = await processor.acceptDispute({ disputeId: dispute.processorDisputeId });
  if (result.outcome !== 'succeeded') throw disputeOperationError(result);
  return deps.store.transaction(async (tx) => {
    const at = deps.clock.now();
    const current = (await tx.disputes.get(options.scope, dispute.id, { forUpdate: true }))!;
    // A notification may have recorded the acceptance first.
    if (current.status === 'accepted') return current;
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'dispute.accept', target: dispute.id, at });
    return transitionDispute(tx, current, 'accepted', {}, at);
  });
}
