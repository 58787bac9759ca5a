import type { Dispute, DisputeEvidence } from './entities';
import type { DisputeStatus } from './state-machine';
import type { Scope } from '../shared/scope';
import type { PageRequest } from '../shared/pagination';

export interface DisputeRepository {
  insert(dispute: Dispute): Promise<void>;
  /** With its evidence, oldest first. */
  get(scope: Scope | null, id: string, options?: { forUpdate?: boolean }): Promise<Dispute | null>;
  getByProcessorId(scope: Scope, processorDisputeId: string, options?: { forUpdate?: boolean }): Promise<Dispute | null>;
  /** Writes status, reply-by, amount and times if the dispute is still in `expectedStatus`. */
  update(dispute: Dispute, expectedStatus: DisputeStatus): Promise<boolean>;
  addEvidence(disputeId: string, evidence: DisputeEvidence): Promise<void>;
  /** Newest first. */
  list(scope: Scope, filter: PageRequest & { paymentId?: string; status?: DisputeStatus }): Promise<Dispute[]>;
  /**
   * The dashboard's inbox: disputes still open (needing a response, under review) by reply-by,
   * soonest first, then the closed ones, newest first; at most `limit`.
   */
  inbox(scope: Scope, limit: number): Promise<Dispute[]>;
  /**
   * Per currency, for the dashboard's figures: the amount of disputes opened in [from, before), and of
   * those lost (lost, accepted or expired) closed in it. Kept apart from refunds.
   */
  totals(scope: Scope, from: Date, before: Date): Promise<Array<{ currency: string; disputed: number; lost: number }>>;
  /** The disputes of one payment, newest first. */
  listForPayment(scope: Scope, paymentId: string): Promise<Dispute[]>;
}
