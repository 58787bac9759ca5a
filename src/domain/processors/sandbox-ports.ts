import type { Scope } from '../shared/scope';
import type { FoundTransaction } from './ports';
import type { PaymentMethodDetails } from '../payments/entities';
import type { LocalPaymentMethodType } from '../payments/payment-method-types';

/** Braintree's transaction statuses that the test processor models. */
export type SandboxTransactionStatus = 'authorized' | 'submitted_for_settlement' | 'settled' | 'voided' | 'processor_declined' | 'settlement_declined';

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

/** Braintree's dispute statuses that the test processor models. */
export type SandboxDisputeStatus = 'open' | 'accepted' | 'disputed' | 'won' | 'lost' | 'expired';

/** A dispute the test processor opened against one of its transactions (its dispute test card). */
export interface SandboxDispute {
  id: string;
  transactionId: string;
  paymentId: string;
  amount: number;
  currency: string;
  reason: string;
  status: SandboxDisputeStatus;
  /** When the bank opens it; null while its charge is only authorized (it opens after capture). */
  opensAt: Date | null;
  replyBy: Date | null;
  /** Text evidence as given, and files by name. */
  evidence: Array<{ id: string; kind: 'text' | 'file'; text: string | null; name: string | null }>;
  /** What finalizing decided, shown from `decidesAt`. */
  decision: 'won' | 'lost' | null;
  decidesAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Where the test processor keeps its disputes: the shared database, as its transactions. */
export interface SandboxDisputeLedger {
  insert(dispute: SandboxDispute): Promise<void>;
  get(id: string): Promise<SandboxDispute | null>;
  /** Sets when the transaction's dispute opens, if it has one not yet scheduled. */
  scheduleOpening(transactionId: string, opensAt: Date, replyBy: Date): Promise<void>;
  /** Moves the dispute to `to` only if it is still in one of `from`; false otherwise. */
  move(
    id: string,
    from: readonly SandboxDisputeStatus[],
    to: SandboxDisputeStatus,
    changes: { decision?: 'won' | 'lost' | null; decidesAt?: Date | null },
    at: Date,
  ): Promise<boolean>;
  /** Appends evidence to an `open` dispute; false when it is not open. */
  addEvidence(id: string, evidence: SandboxDispute['evidence'][number], at: Date): Promise<boolean>;
  /** Shows the decisions whose time has come, and expires open disputes past their reply-by. */
  decideDue(at: Date): Promise<void>;
  /** The scope's disputes opened by `at` and received since `since`, oldest first. */
  listOpened(scope: Scope, since: Date, at: Date): Promise<SandboxDispute[]>;
  /** The scopes with a dispute that opened or moved since `since`. */
  scopesWithNews(since: Date, at: Date): Promise<Scope[]>;
}

/** What a test card does when charged (see `testCards` in adapters/processors/sandbox/sandbox-cards.ts). */
export type SandboxCardBehavior =
  /** Amount decides (2000.00–2999.99 decline with that code, 3000.00 fails). */
  | 'amount'
  /** Saved to a customer as usual, then every charge of it declined with 2000 (Stripe's 4000 0000 0000 0341). */
  | 'decline_after_save'
  /** Always declined with processor response 2000 (Do Not Honor). */
  | 'decline'
  /** Always fails with processor response 3000 (network unavailable). */
  | 'processor_failure'
  /** Amount decides, and a captured charge is disputed some seconds later (Braintree's 4023 8984 9398 8028). */
  | 'dispute'
  /**
   * A CVC-only nonce: a saved card's CVC typed again, which pays only beside that card's token. The
   * CVC is not kept, only its check: `mismatch` is Braintree's sandbox CVV 200 (does not match).
   */
  | 'cvc_only_match'
  | 'cvc_only_mismatch'
  /** A test US bank account (docs/test-processor.md): what its debit does, or its verification's decline code. */
  | SandboxBankAccountBehavior;

/**
 * What a test US bank account does: its debit settles; settles, then is returned with that NACHA
 * code; is declined with that code instead of settling; or its verification (Braintree's network
 * check) is declined with that processor response code.
 */
export type SandboxBankAccountBehavior = 'ach_settles' | `ach_returned_${string}` | `ach_declined_${string}` | `ach_verification_${number}`;

/** A bank debit the test processor made, and what its account makes of it (`SandboxBankAccountBehavior`). */
export interface SandboxBankDebit {
  transactionId: string;
  paymentId: string;
  outcome: 'settles' | 'returned' | 'declined';
  returnCode: string | null;
  settlesAt: Date;
  returnsAt: Date | null;
  createdAt: Date;
}

/** Where the test processor keeps its bank debits: the shared database, as its transactions. */
export interface SandboxBankDebitLedger {
  insert(debit: SandboxBankDebit): Promise<void>;
  /**
   * The news due by `at`, each taken once by one caller: debits whose settlement day came (settled,
   * or declined), and settled debits whose return came.
   */
  takeDue(at: Date, limit: number): Promise<Array<{ debit: SandboxBankDebit; news: 'settled' | 'declined' | 'returned' }>>;
}

/** Whether a vault record is a CVC-only nonce (it pays only beside a saved card's token). */
export function isCvcOnly(behavior: SandboxCardBehavior): boolean {
  return behavior === 'cvc_only_match' || behavior === 'cvc_only_mismatch';
}

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

/** A local payment the test processor opened (`beginTestLocalPayment`), as Braintree keeps one. */
export interface SandboxLocalPayment {
  id: string;
  scope: Scope;
  paymentMethodType: LocalPaymentMethodType;
  amount: number;
  currency: string;
  /** pending → approved (the test window) → completed (reported), or pending → failed. */
  status: 'pending' | 'approved' | 'failed' | 'completed';
  bic: string | null;
  ibanLast4: string | null;
  /** When the bank completes an approved payment. */
  completesAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Where the test processor keeps its local payments: the shared database, as its transactions. */
export interface SandboxLocalPaymentLedger {
  insert(payment: SandboxLocalPayment): Promise<void>;
  get(id: string): Promise<SandboxLocalPayment | null>;
  /** A `pending` payment approved (completing at `completesAt`, from this bank) or failed; false when it is not pending. */
  answer(id: string, answer: { status: 'approved'; completesAt: Date; bic: string; ibanLast4: string } | { status: 'failed' }, at: Date): Promise<boolean>;
  /** Approved payments whose completion has come, moved to `completed` and answered: each is taken once, by one caller. */
  takeDue(at: Date, limit: number): Promise<SandboxLocalPayment[]>;
}
