import type {
  Account,
  ApiKey,
  CheckoutSession,
  Payment,
  PaymentLink,
  PaymentMethodDetails,
} from './entities';
import type { DomainEvent, Mode } from './events';
import type { DeclineCode } from './errors';
import type { PasswordHasher, TeamRepositories } from './team-ports';

/**
 * What the domain needs from persistence. Every use case does its work inside `transaction`, so a
 * state change and its event commit together or not at all.
 */
export interface Store {
  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T>;
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
  };
  payments: {
    /** Throws `SessionBusyError` when the session already holds a payment that is under way or has won. */
    insert(payment: Payment): Promise<void>;
    get(scope: Scope | null, id: string): Promise<Payment | null>;
    update(payment: Payment, expectedStatus: Payment['status']): Promise<boolean>;
    holdingSession(sessionId: string): Promise<Payment | null>;
    /** Newest first; `startingAfter` is the id of the last payment of the previous page. */
    list(scope: Scope, filter: { checkoutSessionId?: string; limit: number; startingAfter?: string }): Promise<Payment[]>;
  };
  paymentLinks: {
    insert(link: PaymentLink): Promise<void>;
    getBySlug(slug: string): Promise<PaymentLink | null>;
  };
  events: {
    insert(event: DomainEvent): Promise<void>;
    listForObject(objectId: string): Promise<DomainEvent[]>;
  };
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
    }
  | {
      outcome: 'declined';
      declineCode: DeclineCode;
      transactionId: string | null;
      paymentMethod: PaymentMethodDetails | null;
      response: { code: string; text: string };
    }
  | { outcome: 'invalid_payment_method'; message: string }
  | { outcome: 'unavailable'; response: { code: string; text: string } | null }
  /** No answer (timeout, dropped connection): the charge may or may not exist. */
  | { outcome: 'unknown'; reason: string };

/** A payment processor adapter: `test` (built in) or `braintree`. */
export interface PaymentProcessor {
  readonly name: string;
  authorize(request: AuthorizeRequest): Promise<AuthorizeResult>;
  /** Only processors that take raw card data on our side (the test processor) tokenize. */
  tokenizeCard?(card: RawCard): Promise<TokenizeResult>;
  /** What the checkout page needs to set up this processor's client side. */
  clientConfiguration(): Promise<Record<string, unknown>>;
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
}
