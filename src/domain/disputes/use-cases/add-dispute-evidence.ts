import type { Dispute } from '../entities';
import { resourceMissing, TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Actor } from '../../team/entities';
import { auditWrite } from '../../team/audit';
import type { DisputeEvidenceUpload } from '../../processors/ports';
import { checkEvidenceFile, disputeNotOpen, disputeOperationError, EVIDENCE_TEXT_MAX_LENGTH, newEvidence, transitionDispute } from '../rules';

export interface AddDisputeEvidenceOptions {
  scope: Scope;
  id: string;
  actor: Actor | null;
  /** Text evidence, e.g. `compelling_evidence` in the test processor. */
  text?: string;
  file?: { name: string; contentType: string; content: Uint8Array };
  /** Braintree's evidence category, e.g. `PROOF_OF_FULFILLMENT`. */
  category?: string;
}

/**
 * Adds text or a file to a dispute's answer. The file is checked (type by its bytes, size) before
 * anything is sent; the processor takes it; then the evidence line (never the file's bytes), the
 * `dispute.updated` event and the audit line are written together.
 */
export async function addDisputeEvidence(deps: Deps, options: AddDisputeEvidenceOptions): Promise<Dispute> {
  const uploads: DisputeEvidenceUpload[] = [];
  const category = options.category ?? null;
  if (options.text !== undefined) {
    const text = options.text.trim();
    if (!text) throw new TillpointError('parameter_invalid', 'text must not be empty', { param: 'text' });
    if (text.length > EVIDENCE_TEXT_MAX_LENGTH) {
      throw new TillpointError('parameter_invalid', `text may be at most ${EVIDENCE_TEXT_MAX_LENGTH} characters`, { param: 'text' });
    }
    uploads.push({ kind: 'text', text, category });
  }
  if (options.file) {
    const contentType = checkEvidenceFile(options.file);
    uploads.push({ kind: 'file', name: options.file.name, contentType, content: options.file.content, category });
  }
  if (uploads.length === 0) throw new TillpointError('parameter_missing', 'Give text or a file as evidence', { param: 'text' });

  const dispute = await deps.store.read((reader) => reader.disputes.get(options.scope, options.id));
  if (!dispute) throw resourceMissing('dispute', options.id);
  if (dispute.status !== 'needs_response') throw disputeNotOpen(dispute, 'take evidence');
  const processor = await deps.processors.forScope(options.scope);
  const taken: Array<{ upload: DisputeEvidenceUpload; evidenceId: string | null; at: Date }> = [];
  for (const upload of uploads) {
    const result = await processor.addDisputeEvidence({ disputeId: dispute.processorDisputeId, evidence: upload });
    if (result.outcome !== 'succeeded') {
      if (taken.length === 0) throw disputeOperationError(result);
      break; // what the processor took is recorded; the caller sees it and sends the rest again
    }
    taken.push({ upload, evidenceId: result.evidenceId, at: deps.clock.now() });
  }
  return deps.store.transaction(async (tx) => {
    const at = deps.clock.now();
    const current = (await tx.disputes.get(options.scope, dispute.id, { forUpdate: true }))!;
    for (const { upload, evidenceId, at: takenAt } of taken) {
      const evidence = newEvidence({
        kind: upload.kind,
        text: upload.kind === 'text' ? upload.text : null,
        category: upload.category,
        fileName: upload.kind === 'file' ? upload.name : null,
        contentType: upload.kind === 'file' ? upload.contentType : null,
        size: upload.kind === 'file' ? upload.content.byteLength : null,
        processorEvidenceId: evidenceId,
        createdAt: takenAt,
      });
      await tx.disputes.addEvidence(current.id, evidence);
      current.evidence.push(evidence);
    }
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'dispute.add_evidence', target: dispute.id, at });
    return transitionDispute(tx, current, current.status, {}, at);
  });
}
