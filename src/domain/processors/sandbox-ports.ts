import type { FoundTransaction } from './ports';
import type { PaymentMethodDetails } from '../payments/entities';

/** Braintree's transaction statuses that the test processor models. */
export type SandboxTransactionStatus =
  | 'authorized'
  | 'submitted_for_settlement'
  | 'settled'
  | 'voided'
  | 'processor_declined';

/** The authorization as reported when it happened, replayed by `findByPaymentId`. */
export type RecordedAuthorization = Extract<FoundTransaction, { found: true }>['authorization'];

/** One transaction the test processor knows of, as Braintree's sandbox would keep it. */
export interface SandboxTransaction {
  id: string;
  /** Our payment id, sent as the order id. */
  paymentId: string;
  status: SandboxTransactionStatus;
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
export interface SandboxTransactionLedger {
  insert(transaction: SandboxTransaction): Promise<void>;
  get(id: string): Promise<SandboxTransaction | null>;
  findByPaymentId(paymentId: string): Promise<SandboxTransaction | null>;
  /**
   * Moves a transaction to `to` only if it is still in one of `from`, atomically, so two racing
   * operations (capture and void) cannot both win. False when it was in none of them.
   */
  move(
    id: string,
    from: readonly SandboxTransactionStatus[],
    to: SandboxTransactionStatus,
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

/** What a test card does when charged (see `testCards` in processors/sandbox/sandbox-cards.ts). */
export type SandboxCardBehavior =
  /** Amount decides (2000.00–2999.99 decline with that code, 3000.00 fails). */
  | 'amount'
  /** Always declined with processor response 2000 (Do Not Honor). */
  | 'decline'
  /** Always fails with processor response 3000 (network unavailable). */
  | 'processor_failure';

/** A tokenized test card as the vault keeps it: never the number, never the CVC. */
export interface SandboxNonceRecord {
  nonce: string;
  paymentMethod: PaymentMethodDetails;
  behavior: SandboxCardBehavior;
  createdAt: Date;
}

/** Where test nonces live between tokenize and pay; shared by every instance (the database). */
export interface SandboxNonceVault {
  save(record: SandboxNonceRecord): Promise<void>;
  /** Returns the record and marks it used, atomically; null when unknown or already used. */
  take(nonce: string, at: Date): Promise<SandboxNonceRecord | null>;
  /** Keeps a card for a customer under `token`, as Braintree's vault does (never the number or CVC). */
  saveMethod(record: SandboxSavedMethod): Promise<void>;
  /** The saved card of `token`; null when unknown or deleted. */
  getMethod(token: string): Promise<SandboxSavedMethod | null>;
  /** Deletes the saved card; false when there was none. */
  deleteMethod(token: string): Promise<boolean>;
}

/** A card the test processor keeps for a customer, as Braintree's vault keeps a payment method. */
export interface SandboxSavedMethod {
  token: string;
  customerId: string;
  paymentMethod: PaymentMethodDetails;
  behavior: SandboxCardBehavior;
  createdAt: Date;
}
