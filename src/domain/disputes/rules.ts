import { EVIDENCE_FILE_MAX_BYTES, evidenceFileTypes, type Dispute, type DisputeEvidence, type EvidenceFileType } from './entities';
import { assertDisputeTransition, closedDisputeStatuses, type DisputeStatus } from './state-machine';
import type { UnitOfWork } from '../deps';
import { newEvent, type DomainEvent, type EventType } from '../shared/events';
import { disputeSnapshot } from '../shared/event-payloads';
import { newId } from '../shared/ids';
import { TillpointError } from '../shared/errors';
import { ConcurrentTransitionError } from '../payments/transition';
import type { DisputeOperationResult } from '../processors/ports';

/** A dispute's event: `dispute.created` when it appears, `dispute.closed` when it ends, else `dispute.updated`. */
export function disputeEvent(dispute: Dispute, type: EventType, at: Date): DomainEvent {
  return newEvent(dispute, type, disputeSnapshot(dispute), at);
}

/**
 * Moves a dispute to `to` (or only records `changes` when `to` is its status), writing the row only
 * if nobody moved it meanwhile, and its event, in the caller's transaction.
 */
export async function transitionDispute(tx: UnitOfWork, dispute: Dispute, to: DisputeStatus, changes: Partial<Dispute>, at: Date): Promise<Dispute> {
  if (to !== dispute.status) assertDisputeTransition(dispute.status, to);
  const closing = to !== dispute.status && closedDisputeStatuses.has(to);
  const next: Dispute = { ...dispute, ...changes, status: to, closedAt: closing ? at : dispute.closedAt, updatedAt: at };
  if (!(await tx.disputes.update(next, dispute.status))) throw new ConcurrentTransitionError(dispute.id);
  await tx.events.insert(disputeEvent(next, closing ? 'dispute.closed' : 'dispute.updated', at));
  return next;
}

/** The longest text evidence, in characters. */
export const EVIDENCE_TEXT_MAX_LENGTH = 10_000;

/** The first bytes each allowed type starts with: a file is what its bytes say, not what its name says. */
const signatures: Record<EvidenceFileType, number[]> = {
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'application/pdf': [0x25, 0x50, 0x44, 0x46, 0x2d],
};

/**
 * Checks an evidence file before it goes anywhere: a declared type the processor takes, bytes that
 * are that type, not empty, not over the size limit.
 */
export function checkEvidenceFile(file: { name: string; contentType: string; content: Uint8Array }): EvidenceFileType {
  const type = file.contentType.toLowerCase() as EvidenceFileType;
  if (!evidenceFileTypes.includes(type)) {
    throw new TillpointError('file_type_not_allowed', `Evidence files must be JPEG, PNG or PDF, not ${file.contentType}`, { param: 'file[type]' });
  }
  if (file.content.byteLength > EVIDENCE_FILE_MAX_BYTES) {
    throw new TillpointError('file_too_large', `Evidence files may be at most ${EVIDENCE_FILE_MAX_BYTES / 1024 / 1024} MB`, { param: 'file[data]' });
  }
  const signature = signatures[type];
  if (file.content.byteLength === 0 || !signature.every((byte, i) => file.content[i] === byte)) {
    throw new TillpointError('file_type_not_allowed', `The file's content is not ${type}`, { param: 'file[data]' });
  }
  return type;
}

/** The refusal for acting on a dispute that no longer takes an answer. */
export function disputeNotOpen(dispute: Dispute, action: string): TillpointError {
  return new TillpointError('dispute_not_open', `This dispute is ${dispute.status}; only a dispute that needs a response can ${action}`);
}

/** A new evidence line as recorded once the processor took it. */
export function newEvidence(fields: Omit<DisputeEvidence, 'id'>): DisputeEvidence {
  return { id: newId('dpe', 20), ...fields };
}

/** The API error a refused, failed or unanswered dispute action means for the caller. */
export function disputeOperationError(result: Exclude<DisputeOperationResult, { outcome: 'succeeded' }>): TillpointError {
  switch (result.outcome) {
    case 'refused':
      return new TillpointError('dispute_not_open', `The processor refused: ${result.message}`);
    case 'unavailable':
      return new TillpointError('processor_unavailable', 'The payment processor is unavailable; try again shortly');
    case 'unknown':
      return new TillpointError('processor_timeout', 'The processor did not answer in time; read the dispute again before retrying');
  }
}
