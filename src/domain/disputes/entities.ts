import { modes } from '../shared/events';
import { defineResource, field, type EntityOf } from '../shared/resource-shape';
import { disputeStatuses } from './state-machine';

/** Why the cardholder's bank says the payment is wrong, as the processor reports it (e.g. `fraud`). */
export type DisputeReason = string;

/** What a piece of evidence is: a text, or a file. */
export const disputeEvidenceKinds = ['text', 'file'] as const;
export type DisputeEvidenceKind = (typeof disputeEvidenceKinds)[number];

/**
 * One piece of the merchant's answer: a text, or a file (only its name, type and size are kept). The
 * one definition of its stored fields (resource-shape.ts); its row also names its dispute
 * (`dispute_id`), and the dispute's API object shows it in `evidence`.
 */
export const disputeEvidence = defineResource('dispute_evidence', {
  id: field.text().fixedAtCreation(),
  kind: field.oneOf(disputeEvidenceKinds),
  /** The text, for text evidence. */
  text: field.text().nullable(),
  /** Braintree's evidence category (e.g. `DEVICE_ID`, `PROOF_OF_FULFILLMENT`), when the merchant gave one. */
  category: field.text().nullable(),
  fileName: field.text().nullable(),
  contentType: field.text().nullable(),
  size: field.integer().nullable().describe('Bytes, for a file.'),
  /** The processor's id for this evidence. */
  processorEvidenceId: field.text().nullable().internal(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('When it was given'),
});

/** One piece of the merchant's answer to a dispute. */
export type DisputeEvidence = EntityOf<typeof disputeEvidence>;

/**
 * A chargeback or inquiry the cardholder's bank opened against a payment (`dp_…`). The merchant
 * answers with evidence and submits it, or accepts the loss, before `replyBy`. The one definition of
 * its stored fields (resource-shape.ts); its evidence is read from its own rows. Its API object is
 * `disputeSnapshot`.
 */
export const disputes = defineResource('disputes', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  paymentId: field.text().fixedAtCreation().shownAs('payment').describe('The disputed payment.'),
  /** Minor units of `currency`: what the bank takes back. */
  amount: field.integer().describe('Amount disputed, in minor units'),
  currency: field.currency().fixedAtCreation(),
  reason: field.text<DisputeReason>().fixedAtCreation().describe("The bank's reason, as the processor reports it, e.g. `fraud`, `product_not_received`."),
  status: field.oneOf(disputeStatuses),
  /** The last moment to answer; null when the processor gave none. */
  replyBy: field.timestamp().nullable().describe('Last moment to answer'),
  /** `test` or `braintree`. */
  processor: field.text().fixedAtCreation(),
  /** The processor's dispute id. */
  processorDisputeId: field.text().fixedAtCreation(),
  /** When the dispute was submitted (finalized) with its evidence. */
  submittedAt: field.timestamp().nullable().describe('When the evidence was submitted'),
  closedAt: field.timestamp().nullable().describe('When it was won, lost, accepted or expired'),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
  updatedAt: field.timestamp().shownAs('updated').describe('Last change'),
});

/** A chargeback or inquiry against a payment, with the evidence given so far. */
export type Dispute = EntityOf<typeof disputes> & { evidence: DisputeEvidence[] };

/** Evidence file types the processor takes (Braintree: JPEG, PNG and PDF). */
export const evidenceFileTypes = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type EvidenceFileType = (typeof evidenceFileTypes)[number];

/** The largest evidence file, in bytes (Braintree's limit for a dispute document). */
export const EVIDENCE_FILE_MAX_BYTES = 4 * 1024 * 1024;
