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

/**
 * The 3-D Secure scenarios of the test processor's 3-D Secure test cards (docs/test-processor.md):
 * authenticated without a challenge, a challenge the shopper passes or fails, authentication
 * failed without a challenge, authentication unavailable. Every other test card is not enrolled.
 */
export type SandboxThreeDSecureScenario = 'frictionless' | 'challenge' | 'failed' | 'unavailable';

/** 3-D Secure as a test nonce carries it: the card's scenario before verification, the result after. */
export interface SandboxNonceThreeDSecure {
  /** The card's scenario, kept from tokenization until the nonce is verified. */
  scenario?: SandboxThreeDSecureScenario;
  /** The verification's result: Braintree's `threeDSecureInfo` status and liability shift. */
  result?: { status: string; liabilityShifted: boolean; liabilityShiftPossible: boolean };
}

/** A tokenized test card as the vault keeps it: never the number, never the CVC. */
export interface SandboxNonceRecord {
  nonce: string;
  paymentMethod: PaymentMethodDetails;
  behavior: SandboxCardBehavior;
  createdAt: Date;
  threeDSecure?: SandboxNonceThreeDSecure | null;
}

/** Where test nonces live between tokenize and pay; shared by every instance (the database). */
export interface SandboxNonceVault {
  save(record: SandboxNonceRecord): Promise<void>;
  /** Returns the record and marks it used, atomically; null when unknown or already used. */
  take(nonce: string, at: Date): Promise<SandboxNonceRecord | null>;
}
