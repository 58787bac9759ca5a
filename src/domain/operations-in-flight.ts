import type { Refund } from './entities';

/**
 * A capture or void sent to the processor whose answer is not recorded yet. Written before the call
 * and removed with its outcome, so one left behind means the answer was lost (timeout, crash).
 */
export interface OperationInFlight {
  paymentId: string;
  operation: 'capture' | 'void';
  /** The capture amount asked for; null for a void. */
  amount: number | null;
  startedAt: Date;
}

/** Where reconciliation finds follow-up operations whose processor answer was lost. */
export interface OperationsInFlightRepository {
  /** Records the intent; false when another capture or void of the payment is already in flight. */
  begin(operation: OperationInFlight): Promise<boolean>;
  finish(paymentId: string): Promise<void>;
  /** Oldest first, across accounts. */
  listStartedBefore(before: Date, limit: number): Promise<OperationInFlight[]>;
  /** Refunds still `pending` (their answer lost), oldest first, across accounts. */
  listPendingRefundsCreatedBefore(before: Date, limit: number): Promise<Refund[]>;
}
