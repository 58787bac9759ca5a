import type { Refund, Payment } from './entities';
import type { Scope } from '../shared/scope';
import type { PageRequest } from '../shared/pagination';
import type { DomainEvent } from '../shared/events';
import type { CheckoutSession } from '../sessions/entities';

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
  /** Starts asking the processor again about a payment failed as unknown to it (see `LateAnswerCheck`). */
  watchForLateAnswer(check: LateAnswerCheck): Promise<void>;
  /** Checks whose next time has come, soonest first, across accounts. */
  listLateAnswerChecksDue(now: Date, limit: number): Promise<LateAnswerCheck[]>;
  rescheduleLateAnswerCheck(paymentId: string, nextCheckAt: Date): Promise<void>;
  endLateAnswerCheck(paymentId: string): Promise<void>;
}

/**
 * A payment failed because the processor did not know it when its lease ran out. Until
 * `checkUntil` the processor is asked again (at `nextCheckAt`), so that a charge it makes late is
 * found and undone.
 */
export interface LateAnswerCheck {
  paymentId: string;
  nextCheckAt: Date;
  checkUntil: Date;
}

export interface PaymentRepository {
  /** Throws `SessionBusyError` when the session already holds a payment that is under way or has won. */
  insert(payment: Payment): Promise<void>;
  /**
   * One statement: locks the payment's session and inserts the payment only if the session is
   * still as `session` was read (its status and last update), which the caller has decided
   * payable. `busy` when the session already holds a payment under way or won; `session_changed`
   * when the session moved since it was read (nothing written).
   */
  insertForSession(payment: Payment, session: CheckoutSession): Promise<'inserted' | 'busy' | 'session_changed'>;
  get(scope: Scope | null, id: string, options?: { forUpdate?: boolean }): Promise<Payment | null>;
  update(payment: Payment, expectedStatus: Payment['status']): Promise<boolean>;
  /**
   * The one way a processor's outcome is written: one statement, atomic by itself, outside any
   * transaction — the payment's new state and its event and, for a payment that won, its
   * session's completion with the session's event and the conversion of the session's experiment
   * exposures (each event with its webhook deliveries). Written only if the payment is still in
   * `expectedStatus` and the session (locked first, as the intent locks it) still in the status
   * and last update of `session.expected`: `recorded`. Otherwise nothing is written, and the answer
   * says what moved: `payment_moved` (recorded by another meanwhile) or `session_changed` (read it
   * again and decide again).
   */
  recordOutcome(outcome: PaymentOutcome): Promise<OutcomeAnswer>;
  /**
   * Oldest first, across accounts: what the periodic jobs (reconciliation, auto-void) work on.
   * Payments waiting for the bank (local payments: `processorPaymentId` set) are not among them:
   * `listAwaitingBankCreatedBefore` lists those. Nor are bank debits waiting for their settlement
   * (`processing` with their transaction): the processor's settlement report decides them.
   */
  listInStatusCreatedBefore(status: Payment['status'], before: Date, limit: number): Promise<Payment[]>;
  /** Local payments still `processing` (waiting for the bank's confirmation), oldest first, across accounts. */
  listAwaitingBankCreatedBefore(before: Date, limit: number): Promise<Payment[]>;
  /** The scope's payment the processor knows as local payment `processorPaymentId` (its confirmation names it). */
  findByProcessorPaymentId(scope: Scope, processor: string, processorPaymentId: string): Promise<Payment | null>;
  holdingSession(sessionId: string): Promise<Payment | null>;
  /** The scope's payment the processor knows as `transactionId` (a dispute names its transaction). */
  findByProcessorTransactionId(scope: Scope, processor: string, transactionId: string): Promise<Payment | null>;
  /** Newest first; `startingAfter` is the id of the last payment of the previous page. */
  list(scope: Scope, filter: { checkoutSessionId?: string; invoiceId?: string; limit: number; startingAfter?: string }): Promise<Payment[]>;
}

export interface RefundRepository {
  insert(refund: Refund): Promise<void>;
  get(scope: Scope | null, id: string): Promise<Refund | null>;
  /** Writes the refund if it is still in `expectedStatus`. */
  update(refund: Refund, expectedStatus: Refund['status']): Promise<boolean>;
  /** Sum of the payment's pending refunds: money reserved but not yet confirmed by the processor. */
  pendingAmount(paymentId: string): Promise<number>;
  list(scope: Scope, filter: { paymentId?: string } & PageRequest): Promise<Refund[]>;
}

/** What `PaymentRepository.recordOutcome` did: see there. */
export type OutcomeAnswer = 'recorded' | 'payment_moved' | 'session_changed';

/** What `PaymentRepository.recordOutcome` writes. */
export interface PaymentOutcome {
  payment: Payment;
  expectedStatus: Payment['status'];
  event: DomainEvent | null;
  session?: {
    next: CheckoutSession;
    /** The session as read, whose status and `updatedAt` the row must still have. */
    expected: CheckoutSession;
    event: DomainEvent | null;
    /** Set on the session's exposures not yet converted; null: none convert (`planCheckoutSessionTransition` decides). */
    convertsExposuresAt: Date | null;
  };
}

/** Raised by the store when the database refuses a second live payment for one session. */
export class SessionBusyError extends Error {
  constructor(sessionId: string) {
    super(`checkout session ${sessionId} already has a payment under way or completed`);
    this.name = 'SessionBusyError';
  }
}

/** How long reconciliation leaves an unanswered operation alone, and how long it keeps asking after. */
export interface ReconciliationTimings {
  /**
   * The lease of an operation in flight: younger than this, its request may still be under way. A
   * payment the processor does not know once its lease has run out fails (and its session is open
   * again); it is then watched for a late charge for `notFoundGraceMs` from its start. A refund the
   * processor did not make once its lease has run out fails, releasing its amount.
   */
  afterMs: number;
  /**
   * How long after its start a payment failed as unknown is still asked about (a charge made late is
   * undone); a capture, void or refund whose payment the processor does not know at all after this
   * long never happened. One whose payment it knows is decided by its answer once the lease is over.
   */
  notFoundGraceMs: number;
}
