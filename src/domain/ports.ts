import type {
  Account,
  ApiKey,
  CheckoutSession,
  Experiment,
  Exposure,
  Flag,
  Payment,
  PaymentLink,
  PaymentMethodDetails,
  PaymentMethodType,
  Price,
  Product,
  Refund,
} from './entities';
import type { PageRequest } from './pagination';
import type { DomainEvent, Mode } from './events';
import type { DeclineCode } from './errors';
import type { IdempotencyRecords, RateLimitCounter } from './api-guards';
import type { WebhookDeliveryRepository, WebhookEndpointRepository, WebhookUrlPolicy } from './webhooks';
import type { ProcessorLifecycle } from './processor-lifecycle';
import type { PasswordHasher, TeamRepositories } from './team-ports';
import type { OperationsInFlightRepository } from './operations-in-flight';
import type { ThreeDSecureMode } from './three-d-secure-policy';
import type { CheckoutPageIntegrityRepository } from './checkout-page-integrity';

/**
 * What the domain needs from persistence. Every use case does its work inside `transaction`, so a
 * state change and its event commit together or not at all.
 */
export interface Store {
  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T>;
  /**
   * Reads outside a transaction: no BEGIN and COMMIT round trips, each statement on its own
   * snapshot (as in a READ COMMITTED transaction). Only for work that writes nothing.
   */
  read<T>(work: (reader: UnitOfWork) => Promise<T>): Promise<T>;
  /**
   * Work of exactly one statement, atomic by itself (a conditional write that decides in the
   * database, such as `payments.insertForOpenSession`): no BEGIN and COMMIT round trips.
   */
  once<T>(work: (db: UnitOfWork) => Promise<T>): Promise<T>;
}

export interface UnitOfWork extends TeamRepositories {
  accounts: {
    insert(account: Account): Promise<void>;
    get(id: string): Promise<Account | null>;
    count(): Promise<number>;
  };
  apiKeys: {
    insert(key: ApiKey): Promise<void>;
    findBySecretHash(hash: string): Promise<ApiKey | null>;
    markUsed(id: string, at: Date): Promise<void>;
    /** The scope's keys, newest first, revoked ones included. */
    list(scope: Scope): Promise<ApiKey[]>;
    /** False when the scope has no such unrevoked key. */
    revoke(scope: Scope, id: string, at: Date): Promise<boolean>;
  };
  checkoutSessions: {
    insert(session: CheckoutSession): Promise<void>;
    /** Scoped to an account and mode, so another account's id reads as absent. */
    get(scope: Scope | null, id: string, options?: { forUpdate?: boolean }): Promise<CheckoutSession | null>;
    /** Writes the session if it is still in `expectedStatus`; false when someone else moved it first. */
    update(session: CheckoutSession, expectedStatus: CheckoutSession['status']): Promise<boolean>;
    listOpenExpiredBefore(at: Date, limit: number): Promise<CheckoutSession[]>;
    /** Newest first. */
    list(scope: Scope, page: PageRequest): Promise<CheckoutSession[]>;
  };
  payments: {
    /** Throws `SessionBusyError` when the session already holds a payment that is under way or has won. */
    insert(payment: Payment): Promise<void>;
    /**
     * One statement: locks the payment's session and inserts the payment if the session is still
     * open, unexpired at `at`, and of the payment's amount, currency and capture method. `busy` when
     * the session already holds a payment under way or won; `not_open` otherwise (nothing written).
     */
    insertForOpenSession(payment: Payment, at: Date): Promise<'inserted' | 'busy' | 'not_open'>;
    get(scope: Scope | null, id: string, options?: { forUpdate?: boolean }): Promise<Payment | null>;
    update(payment: Payment, expectedStatus: Payment['status']): Promise<boolean>;
    /** Oldest first, across accounts: what the periodic jobs (reconciliation, auto-void) work on. */
    listInStatusCreatedBefore(status: Payment['status'], before: Date, limit: number): Promise<Payment[]>;
    holdingSession(sessionId: string): Promise<Payment | null>;
    /** Newest first; `startingAfter` is the id of the last payment of the previous page. */
    list(scope: Scope, filter: { checkoutSessionId?: string; limit: number; startingAfter?: string }): Promise<Payment[]>;
  };
  paymentLinks: {
    insert(link: PaymentLink): Promise<void>;
    getBySlug(slug: string): Promise<PaymentLink | null>;
    get(scope: Scope, id: string): Promise<PaymentLink | null>;
    setActive(scope: Scope, id: string, active: boolean, at: Date): Promise<PaymentLink | null>;
    list(scope: Scope, page: PageRequest): Promise<PaymentLink[]>;
  };
  events: {
    insert(event: DomainEvent): Promise<void>;
    listForObject(objectId: string): Promise<DomainEvent[]>;
    get(scope: Scope, id: string): Promise<DomainEvent | null>;
    /** Newest first; `createdGte` / `createdLte` bound `created_at` inclusively. */
    list(scope: Scope, filter: EventFilter & PageRequest): Promise<DomainEvent[]>;
  };
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  refunds: {
    insert(refund: Refund): Promise<void>;
    get(scope: Scope | null, id: string): Promise<Refund | null>;
    /** Writes the refund if it is still in `expectedStatus`. */
    update(refund: Refund, expectedStatus: Refund['status']): Promise<boolean>;
    /** Sum of the payment's pending refunds: money reserved but not yet confirmed by the processor. */
    pendingAmount(paymentId: string): Promise<number>;
    list(scope: Scope, filter: { paymentId?: string } & PageRequest): Promise<Refund[]>;
  };
  products: {
    insert(product: Product): Promise<void>;
    get(scope: Scope, id: string): Promise<Product | null>;
    list(scope: Scope, page: PageRequest): Promise<Product[]>;
  };
  prices: {
    insert(price: Price): Promise<void>;
    get(scope: Scope, id: string): Promise<Price | null>;
  };
  flags: {
    list(scope: Scope): Promise<Flag[]>;
    get(scope: Scope, key: string): Promise<Flag | null>;
    insert(flag: Flag): Promise<void>;
    update(flag: Flag): Promise<void>;
  };
  experiments: {
    insert(experiment: Experiment): Promise<void>;
    get(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<Experiment | null>;
    /** Newest first, cursor-paginated like every list. */
    list(scope: Scope, filter: { limit: number; startingAfter?: string }): Promise<Experiment[]>;
    /** Throws `ExperimentKeyBusyError` when another experiment on the same key is already running. */
    update(experiment: Experiment): Promise<void>;
    running(scope: Scope): Promise<Experiment[]>;
  };
  exposures: {
    /** Records that a session saw a variant; false when it was already recorded (idempotent). */
    insert(exposure: Exposure): Promise<boolean>;
    /** Marks every exposure of the session as converted, once. */
    markConverted(checkoutSessionId: string, at: Date): Promise<void>;
    tally(experimentId: string): Promise<Array<{ variant: string; exposed: number; conversions: number }>>;
  };
  /** Captures and voids sent to the processor and not yet answered; pending refunds to reconcile. */
  operationsInFlight: OperationsInFlightRepository;
  /** Checkout page baselines, detected changes, CSP reports and script notes (PCI DSS 6.4.3 / 11.6.1). */
  checkoutPage: CheckoutPageIntegrityRepository;
}

export interface EventFilter {
  type?: DomainEvent['type'];
  createdGte?: Date;
  createdLte?: Date;
}

/** Raised by the store when a second experiment on one key would run at the same time. */
export class ExperimentKeyBusyError extends Error {
  constructor(readonly key: string) {
    super(`another experiment on ${key} is already running`);
    this.name = 'ExperimentKeyBusyError';
  }
}

/**
 * Flags as the server reads them (through OpenFeature: our own store, or an external OFREP
 * service when one is configured). A flag that cannot be read yields the default.
 */
export interface FlagReader {
  booleanValue(scope: Scope, key: string, defaultValue: boolean, targetingKey?: string): Promise<boolean>;
  stringValue(scope: Scope, key: string, defaultValue: string, targetingKey?: string): Promise<string>;
}

/** An account and a mode: the boundary nothing crosses. */
export interface Scope {
  accountId: string;
  mode: Mode;
}

/** Raised by the store when the database refuses a second live payment for one session. */
export class SessionBusyError extends Error {
  constructor(sessionId: string) {
    super(`checkout session ${sessionId} already has a payment under way or completed`);
    this.name = 'SessionBusyError';
  }
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

export interface AuthorizeRequest {
  /** Our payment id; sent to the processor as the order id so an unknown outcome can be found again. */
  paymentId: string;
  amount: number;
  currency: string;
  /** true: authorize and capture now; false: authorize only (capture_method manual). */
  capture: boolean;
  nonce: string;
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
    }
  | {
      outcome: 'declined';
      declineCode: DeclineCode;
      transactionId: string | null;
      paymentMethod: PaymentMethodDetails | null;
      response: { code: string; text: string };
      threeDSecure?: ThreeDSecureResult | null;
    }
  | { outcome: 'invalid_payment_method'; message: string }
  | { outcome: 'unavailable'; response: { code: string; text: string } | null }
  /** No answer (timeout, dropped connection): the charge may or may not exist. */
  | { outcome: 'unknown'; reason: string };

/** A payment processor adapter: `test` (built in) or `braintree`; capture, void, refund and lookup come from `ProcessorLifecycle`. */
export interface PaymentProcessor extends ProcessorLifecycle {
  readonly name: string;
  authorize(request: AuthorizeRequest): Promise<AuthorizeResult>;
  /** Only processors that take raw card data on our side (the test processor) tokenize. */
  tokenizeCard?(card: RawCard): Promise<TokenizeResult>;
  /** What the checkout page needs to set up this processor's client side, for a session in `currency`. */
  clientConfiguration(context?: { currency: string }): Promise<Record<string, unknown>>;
  /** Only the test processor takes a Google Pay token from Google's test gateway (`gateway: "example"`). */
  tokenizeGooglePay?(payment: GooglePayTestPayment): Promise<TokenizeResult>;
}

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
}

export interface Clock {
  now(): Date;
}

/** Everything a use case may reach; handed in by the composition root. */
export interface Deps {
  store: Store;
  processors: ProcessorDirectory;
  clock: Clock;
  passwords: PasswordHasher;
  /** Base URL shoppers reach this install at, e.g. https://pay.example.com. */
  publicUrl: string;
  /** Idempotency-Key records and rate-limit counters of the merchant API. */
  idempotency: IdempotencyRecords;
  rateLimits: RateLimitCounter;
  /** Merchant API requests allowed per second per account, by mode (design.md §9 by default). */
  rateLimitPerSecond: Record<Mode, number>;
  webhookUrls: WebhookUrlPolicy;
  flags: FlagReader;
  /** Reconciliation's waits (RECONCILE_* settings); the defaults of reconcile-processing-payments when absent. */
  reconciliation?: ReconciliationTimings;
}

/** How long reconciliation leaves an unanswered operation alone, and when "the processor never saw it" holds. */
export interface ReconciliationTimings {
  /** An operation younger than this may still have its request in flight. */
  afterMs: number;
  /** An operation the processor still does not know after this long never happened. */
  notFoundGraceMs: number;
}
