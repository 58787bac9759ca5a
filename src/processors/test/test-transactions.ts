import type { FoundTransaction } from '../../domain/processor-lifecycle';

/** Braintree's transaction statuses that the test processor models. */
export type TestTransactionStatus =
  | 'authorized'
  | 'submitted_for_settlement'
  | 'settled'
  | 'voided'
  | 'processor_declined';

/** The authorization as reported when it happened, replayed by `findByPaymentId`. */
export type RecordedAuthorization = Extract<FoundTransaction, { found: true }>['authorization'];

/** One transaction the test processor knows of, as Braintree's sandbox would keep it. */
export interface TestTransaction {
  id: string;
  /** Our payment id, sent as the order id. */
  paymentId: string;
  status: TestTransactionStatus;
  currency: string;
  amountAuthorized: number;
  amountCaptured: number;
  amountRefunded: number;
  authorization: RecordedAuthorization;
  /** When a submitted transaction becomes `settled`; null until submitted. */
  settlesAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Where the test processor keeps its transactions: the shared database, so that every instance
 * (and a restarted one) sees the same processor, as with a real gateway.
 */
export interface TestTransactionLedger {
  insert(transaction: TestTransaction): Promise<void>;
  get(id: string): Promise<TestTransaction | null>;
  findByPaymentId(paymentId: string): Promise<TestTransaction | null>;
  /**
   * Moves a transaction to `to` only if it is still in one of `from`, atomically, so two racing
   * operations (capture and void) cannot both win. False when it was in none of them.
   */
  move(
    id: string,
    from: readonly TestTransactionStatus[],
    to: TestTransactionStatus,
    changes: { amountCaptured?: number; settlesAt?: Date | null },
    at: Date,
  ): Promise<boolean>;
  /** The refunds made on a transaction, oldest first. */
  refundsOf(id: string): Promise<Array<{ refundId: string; refundTransactionId: string; amount: number }>>;
  /** Settles the transaction if it was submitted and its settlement time has come. */
  settleDue(id: string, at: Date): Promise<void>;
  /**
   * Refunds part of a settled transaction atomically, never beyond what it captured. A refund id
   * seen before answers `repeated` with the first refund's id and changes nothing.
   */
  refund(
    id: string,
    refund: { refundId: string; amount: number; at: Date; refundTransactionId: string },
  ): Promise<{ result: 'refunded' | 'repeated'; refundTransactionId: string } | { result: 'refused' }>;
}
