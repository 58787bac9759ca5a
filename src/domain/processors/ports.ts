import type { BankDetails, PaymentMethodDetails, PaymentMethodType } from '../payments/entities';
import type { LocalPaymentMethodType } from '../payments/payment-method-types';
import type { UsBankAccountHolderType, UsBankAccountType } from '../payments/bank-debits';
import type { DeclineCode } from '../shared/errors';
import type { ThreeDSecureMode } from './three-d-secure-policy';
import type { Scope } from '../shared/scope';
import type { DisputeStatus } from '../disputes/state-machine';

/** What a processor said about a follow-up operation on a transaction (capture, void, refund). */
export type OperationResult =
  | { outcome: 'succeeded'; transactionId: string; response: { code: string; text: string } | null }
  /**
   * The processor refused for a reason the domain acts on: `not_settled` (refund before settlement:
   * Braintree only allows a void), `not_capturable`, `not_voidable`, `not_refundable`, `declined`.
   */
  | {
      outcome: 'refused';
      reason: 'not_settled' | 'not_capturable' | 'not_voidable' | 'not_refundable' | 'declined';
      message: string;
      response: { code: string; text: string } | null;
    }
  | { outcome: 'unavailable'; response: { code: string; text: string } | null }
  /** No answer: the operation may or may not have happened. */
  | { outcome: 'unknown'; reason: string };

/** What the processor knows of a payment we sent it, found by our payment id (its order id). */
export type FoundTransaction =
  | { found: false }
  | {
      found: true;
      /** The authorization as it would have been reported had the call returned. */
      authorization: Exclude<AuthorizeResult, { outcome: 'unknown' } | { outcome: 'invalid_payment_method' }>;
      /** Processor-side status, e.g. `authorized`, `submitted_for_settlement`, `settled`, `voided`. */
      status: string;
      /** Minor units submitted for settlement (captured); 0 while only authorized or voided before capture. */
      amountCaptured: number;
      /** The authorization or the unsettled capture was voided: nothing was or will be charged. */
      voided: boolean;
      /** The refunds the processor made, each with our refund id when it carries one. */
      refunds: ProcessorRefund[];
    };

/** A refund as the processor keeps it: our refund id is its order id. */
export interface ProcessorRefund {
  refundId: string | null;
  processorRefundId: string;
  amount: number;
}

/**
 * The operations after an authorization. Every processor adapter implements them; amounts are minor
 * units of `currency`. Like `authorize`, they report and never decide our states.
 */
export interface ProcessorLifecycle {
  /** Capture (submit for settlement) up to the authorized amount; the rest is released. */
  capture(request: { transactionId: string; amount: number; currency: string }): Promise<OperationResult>;
  /** Void an authorization or an unsettled capture. */
  void(request: { transactionId: string }): Promise<OperationResult>;
  /** Refund a settled transaction, fully or in part; `refused: not_settled` when it is not settled yet. */
  refund(request: { transactionId: string; amount: number; currency: string; refundId: string }): Promise<OperationResult>;
  /** Finds a transaction by our payment id, for reconciliation after an unknown outcome. */
  findByPaymentId(request: { paymentId: string }): Promise<FoundTransaction>;
}

/** A dispute as the processor reports it (a notification, a search), its status in our words. */
export interface ProcessorDispute {
  processorDisputeId: string;
  /** The disputed transaction: our payment's `processorTransactionId`. */
  transactionId: string;
  amount: number;
  currency: string;
  reason: string;
  status: DisputeStatus;
  replyBy: Date | null;
  receivedAt: Date;
}

/** What the processor said about an action on a dispute. */
export type DisputeOperationResult =
  | { outcome: 'succeeded'; evidenceId: string | null }
  /** The processor refused (e.g. the dispute is no longer open), in its own words. */
  | { outcome: 'refused'; message: string }
  | { outcome: 'unavailable'; message: string }
  /** No answer: the action may or may not have happened. */
  | { outcome: 'unknown'; reason: string };

/** One piece of evidence to send: a text, or a file already checked (`checkEvidenceFile`). */
export type DisputeEvidenceUpload =
  | { kind: 'text'; text: string; category: string | null }
  | { kind: 'file'; name: string; contentType: string; content: Uint8Array; category: string | null };

/**
 * A local payment's news as the processor reports it (Braintree's `LOCAL_PAYMENT_*` notifications):
 * the shopper's bank completed it, with the single-use nonce a sale takes (or the transaction the
 * processor made already); it expired unpaid; or the processor gave the money back because no
 * transaction took it in time (`reversed`).
 */
export type LocalPaymentReport =
  | {
      kind: 'completed';
      /** The processor's id of the local payment (Braintree's `paymentId`). */
      processorPaymentId: string;
      /** What the sale charges (Braintree's `paymentMethodNonce`); null when the processor made the transaction itself. */
      nonce: string | null;
      /** The processor's transaction for it, when it already made one: looked up by our payment id, never sold again. */
      transactionId: string | null;
      /** The shopper's bank, as far as the processor tells it. */
      bank: BankDetails | null;
    }
  | { kind: 'expired' | 'reversed'; processorPaymentId: string };

/**
 * A bank debit's news as the processor reports it (Braintree's `TRANSACTION_SETTLED` and
 * `TRANSACTION_SETTLEMENT_DECLINED`): the money settled, or the bank declined it — before it
 * settled, or after (a return, with its NACHA code when the processor gives one).
 */
export interface BankDebitReport {
  kind: 'settled' | 'declined';
  /** The processor's transaction. */
  transactionId: string;
  /** Our payment id, as the transaction's order id, when it carries one. */
  paymentId: string | null;
  /** The NACHA return code (`R01`…) of a declined debit, when the processor gives one. */
  returnCode: string | null;
}

/** A notification the processor sent us, as its SDK verified and read it. */
export type ProcessorNotification =
  | { verified: false; reason: string }
  | { verified: true; kind: string; dispute: ProcessorDispute | null; localPayment?: LocalPaymentReport | null; bankDebit?: BankDebitReport | null };

/** A US bank account as typed by the shopper. Lives in memory for one request; only its last 4 digits are ever kept. */
export interface RawBankAccount {
  routingNumber: string;
  accountNumber: string;
  accountType: UsBankAccountType;
  accountHolderType: UsBankAccountHolderType;
  /** The account holder: a person's name, or the business's. */
  holderName: string;
  /** The mandate the shopper accepted, word for word. */
  mandateText: string;
}

/**
 * Disputes (chargebacks) as the processor keeps them: every adapter answers for its own, and
 * reports; the domain decides our states.
 */
export interface ProcessorDisputes {
  acceptDispute(request: { disputeId: string }): Promise<DisputeOperationResult>;
  addDisputeEvidence(request: { disputeId: string; evidence: DisputeEvidenceUpload }): Promise<DisputeOperationResult>;
  /** Submits the evidence given so far: the processor then decides (`finalize`). */
  finalizeDispute(request: { disputeId: string }): Promise<DisputeOperationResult>;
  /** The scope's disputes received since `receivedSince`, as they are now; throws when the processor cannot answer. */
  searchDisputes(request: { scope: Scope; receivedSince: Date }): Promise<ProcessorDispute[]>;
  /** Verifies and reads a notification the processor posted; only processors that send them have it. */
  parseNotification?(request: { signature: string; payload: string }): Promise<ProcessorNotification>;
}

/** Card data as typed by the shopper. Lives in memory for one request; never stored or logged. */
export interface RawCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  postalCode: string | null;
}

export type TokenizeResult =
  | { ok: true; nonce: string; paymentMethod: PaymentMethodDetails }
  | { ok: false; declineCode: DeclineCode; param: string; message: string };

export interface SavePaymentMethodRequest {
  /** Our customer id (`cus_…`), used as the processor's customer id. */
  customerId: string;
  email: string | null;
  nonce: string;
  deviceData: string | null;
  /** The session's currency: Braintree verifies the card with that currency's merchant account. */
  currency?: string;
  /** What the nonce is: a bank account (`us_bank_account`) is verified by a network check, not as a card. */
  paymentMethodType?: PaymentMethodType;
}

export type SavePaymentMethodResult =
  | { outcome: 'saved'; token: string; paymentMethod: PaymentMethodDetails }
  | { outcome: 'declined'; declineCode: DeclineCode; paymentMethod: PaymentMethodDetails | null; response: { code: string; text: string } }
  | { outcome: 'invalid_payment_method'; message: string }
  | { outcome: 'unavailable'; response: { code: string; text: string } | null };

export interface AuthorizeRequest {
  /** Our payment id; sent to the processor as the order id so an unknown outcome can be found again. */
  paymentId: string;
  amount: number;
  currency: string;
  /** true: authorize and capture now; false: authorize only (capture_method manual). */
  capture: boolean;
  /** A single-use payment method nonce, or (with `paymentMethodToken`) empty. */
  nonce: string;
  /** A saved card's processor token: charged instead of a nonce. */
  paymentMethodToken?: string | null;
  /**
   * With `paymentMethodToken`: a CVC-only nonce (the saved card's CVC typed again on the page),
   * sent with the sale so the processor checks the CVC (Braintree's CVV-only nonce).
   */
  cvcNonce?: string | null;
  /**
   * The merchant charges a saved card with no shopper present (`POST /v1/payments`): the processor
   * is told so (Braintree's `transactionSource: "unscheduled"`), and no 3-D Secure is asked.
   */
  merchantInitiated?: boolean;
  /**
   * A merchant-initiated charge on a fixed schedule (a subscription's renewal or retry, billed by
   * the billing job): Braintree's `transactionSource: "recurring"` instead of `"unscheduled"`.
   */
  recurring?: boolean;
  deviceData: string | null;
  email: string | null;
  /** The `three_d_secure` flag for this payment; the adapter applies `threeDSecurePolicy` to it. */
  threeDSecureMode?: ThreeDSecureMode;
  paymentMethodType?: PaymentMethodType;
}

/**
 * What the processor said, never what we decide: the domain turns it into a state. Declines are
 * results; a thrown error means a bug or an outage we could not classify.
 */
export type AuthorizeResult =
  | {
      outcome: 'approved';
      captured: boolean;
      transactionId: string;
      paymentMethod: PaymentMethodDetails;
      response: { code: string; text: string };
      /** The 3-D Secure result the processor attached, when the shopper was authenticated. */
      threeDSecure?: ThreeDSecureResult | null;
      /** The processor's fraud screening (Braintree's `riskData.decision`), when it returned one. */
      riskDecision?: string | null;
    }
  | {
      outcome: 'declined';
      declineCode: DeclineCode;
      transactionId: string | null;
      paymentMethod: PaymentMethodDetails | null;
      response: { code: string; text: string };
      threeDSecure?: ThreeDSecureResult | null;
      riskDecision?: string | null;
    }
  /**
   * Accepted, but the money settles later (a bank debit: Braintree's `settlement_pending`): the
   * payment stays `processing` until the processor reports the settlement (`BankDebitReport`).
   */
  | {
      outcome: 'pending';
      transactionId: string;
      paymentMethod: PaymentMethodDetails;
      response: { code: string; text: string };
      riskDecision?: string | null;
    }
  | { outcome: 'invalid_payment_method'; message: string }
  | { outcome: 'unavailable'; response: { code: string; text: string } | null }
  /** No answer (timeout, dropped connection): the charge may or may not exist. */
  | { outcome: 'unknown'; reason: string };

/** A payment processor adapter: `test` (built in) or `braintree`; capture, void, refund and lookup come from `ProcessorLifecycle`. */
export interface PaymentProcessor extends ProcessorLifecycle, ProcessorDisputes {
  readonly name: string;
  authorize(request: AuthorizeRequest): Promise<AuthorizeResult>;
  /** Only processors that take raw card data on our side (the test processor) tokenize. */
  tokenizeCard?(card: RawCard): Promise<TokenizeResult>;
  /** A saved card's CVC typed again → a CVC-only nonce (the test processor; Braintree's Hosted Fields make it in the browser). */
  tokenizeCvc?(request: { cvc: string; brand: string | null }): Promise<TokenizeResult>;
  /**
   * The processor refuses a saved card's sale without its CVC (a Braintree account's CVV rules):
   * the page asks for it on every session.
   */
  readonly requiresCvcForSavedCards?: boolean;
  /**
   * What the checkout page needs to set up this processor's client side, for a session in
   * `currency`; with `customerId`, scoped to that customer's saved cards (Braintree's
   * customer-scoped client token).
   */
  clientConfiguration(context?: { currency: string; customerId?: string | null }): Promise<Record<string, unknown>>;
  /**
   * Keeps the card of a single-use `nonce` for the customer (making the customer at the processor
   * when it has none yet) and answers its reusable token. Braintree verifies the card first.
   */
  savePaymentMethod?(request: SavePaymentMethodRequest): Promise<SavePaymentMethodResult>;
  /** Deletes a saved card at the processor; `missing` when it had none under the token. Throws when unreachable. */
  deletePaymentMethod?(request: { token: string }): Promise<'deleted' | 'missing'>;
  /**
   * Only processors that take bank details on our side (the test processor): a US bank account and
   * its accepted mandate → a single-use nonce (braintree-web's `us-bank-account` does it against Braintree).
   */
  tokenizeBankAccount?(account: RawBankAccount): Promise<TokenizeResult>;
  /** Only the test processor takes a Google Pay token from Google's test gateway (`gateway: "example"`). */
  tokenizeGooglePay?(payment: GooglePayTestPayment): Promise<TokenizeResult>;
  /**
   * Only the test processor: 3-D Secure verification of a card nonce as Braintree's sandbox runs it
   * (braintree-web's `verifyCard` does it against Braintree). Consumes the nonce; answers a new one.
   */
  verifyThreeDSecure?(request: { nonce: string }): Promise<ThreeDSecureVerification>;
  /** Only the test processor: the shopper's answer to a test challenge (`challenge: true` above). */
  answerThreeDSecureChallenge?(request: { nonce: string; passed: boolean }): Promise<ThreeDSecureVerification>;
  /**
   * Only the test processor: opens a local payment for the shopper to approve in the page's test
   * window (with Braintree, braintree-web's `local-payment` opens it from the page and names it).
   */
  beginTestLocalPayment?(request: TestLocalPaymentRequest): Promise<{ processorPaymentId: string }>;
  /**
   * Only the test processor: the shopper's answer in the test window. Approved, the bank completes
   * the payment some seconds later (`ProcessorDirectory.testLocalPaymentReports`); failed, it never
   * does. False when no local payment of that id waits for an answer.
   */
  answerTestLocalPayment?(request: { processorPaymentId: string; approve: boolean }): Promise<boolean>;
}

/** What the test processor is told of a local payment it opens. */
export interface TestLocalPaymentRequest {
  scope: Scope;
  paymentMethodType: LocalPaymentMethodType;
  amount: number;
  currency: string;
}

/** A 3-D Secure verification: the nonce to pay with and what the authentication said. */
export type ThreeDSecureVerification =
  | {
      ok: true;
      nonce: string;
      status: string;
      liabilityShifted: boolean;
      liabilityShiftPossible: boolean;
      /** A challenge the shopper must answer before the nonce is authenticated. */
      challenge: boolean;
    }
  | { ok: false; message: string };

/** 3-D Secure as the processor reports it: e.g. `authenticate_successful`, and whether liability shifted. */
export interface ThreeDSecureResult {
  status: string;
  liabilityShifted: boolean;
}

/** What Google Pay hands the page with the test gateway: the token and the card it describes. */
export interface GooglePayTestPayment {
  token: string;
  cardNetwork: string;
  cardDetails: string;
}

/** Picks the processor configured for an account and mode. */
export interface ProcessorDirectory {
  forScope(scope: Scope): Promise<PaymentProcessor>;
  /**
   * The scopes whose disputes `processor` may have news of: each with Braintree credentials for
   * `braintree`; for the test processor, each with a dispute it opened or moved lately.
   */
  disputeScopes?(processor: 'test' | 'braintree'): Promise<Scope[]>;
  /**
   * The test processor's local payments whose bank completed them by now, each reported once with
   * its scope (what Braintree sends as notifications).
   */
  testLocalPaymentReports?(): Promise<Array<{ scope: Scope; report: LocalPaymentReport }>>;
  /**
   * The test processor's bank debits that settled or were declined or returned by now, each news
   * reported once (what Braintree sends as `TRANSACTION_SETTLED` / `_SETTLEMENT_DECLINED`); each
   * names our payment.
   */
  testBankDebitReports?(): Promise<BankDebitReport[]>;
}
