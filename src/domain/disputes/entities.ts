import type { Mode } from '../shared/events';
import type { DisputeStatus } from './state-machine';

/** Why the cardholder's bank says the payment is wrong, as the processor reports it (e.g. `fraud`). */
export type DisputeReason = string;

/** One piece of the merchant's answer: a text, or a file (only its name, type and size are kept). */
export interface DisputeEvidence {
  id: string;
  kind: 'text' | 'file';
  /** The text, for text evidence. */
  text: string | null;
  /** Braintree's evidence category (e.g. `DEVICE_ID`, `PROOF_OF_FULFILLMENT`), when the merchant gave one. */
  category: string | null;
  fileName: string | null;
  contentType: string | null;
  size: number | null;
  /** The processor's id for this evidence. */
  processorEvidenceId: string | null;
  createdAt: Date;
}

/**
 * A chargeback or inquiry the cardholder's bank opened against a payment (`dp_…`). The merchant
 * answers with evidence and submits it, or accepts the loss, before `replyBy`.
 */
export interface Dispute {
  id: string;
  accountId: string;
  mode: Mode;
  paymentId: string;
  /** Minor units of `currency`: what the bank takes back. */
  amount: number;
  currency: string;
  reason: DisputeReason;
  status: DisputeStatus;
  /** The last moment to answer; null when the processor gave none. */
  replyBy: Date | null;
  evidence: DisputeEvidence[];
  /** `test` or `braintree`. */
  processor: string;
  /** The processor's dispute id. */
  processorDisputeId: string;
  /** When the dispute was submitted (finalized) with its evidence. */
  submittedAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
