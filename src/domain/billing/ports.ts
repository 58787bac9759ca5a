import type { PageRequest } from '../shared/pagination';
import type { Scope } from '../shared/scope';
import type { BillingPortalSession, Invoice, InvoiceStatus, RecurringInterval, Subscription, SubscriptionStatus, TestClock } from './entities';

export interface TestClockRepository {
  insert(clock: TestClock): Promise<void>;
  get(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<TestClock | null>;
  update(clock: TestClock): Promise<void>;
  list(scope: Scope, page: PageRequest): Promise<TestClock[]>;
}

export interface SubscriptionRepository {
  /** False when one with its id, or one started by its checkout session, exists already. */
  insert(subscription: Subscription): Promise<boolean>;
  /** Scoped (another account's id reads as absent); `null` scope only for background work. */
  get(scope: Scope | null, id: string, options?: { forUpdate?: boolean }): Promise<Subscription | null>;
  update(subscription: Subscription): Promise<void>;
  /** Newest first; `customerIds` keeps those of any of these customers. */
  list(scope: Scope, filter: { customerId?: string; customerIds?: readonly string[]; status?: SubscriptionStatus } & PageRequest): Promise<Subscription[]>;
  /** Still renewing, whose period ended by `now`: on the wall clock, or on the test clock `testClockId`. */
  listRenewalDue(now: Date, limit: number, testClockId: string | null): Promise<Subscription[]>;
  /** Subscription-mode sessions completed after `since` whose subscription was not started (a crash between the two). */
  listCheckoutsToStart(limit: number, since: Date): Promise<string[]>;
  /** The earliest end of a period still renewing on test clock `testClockId`, or null. */
  nextRenewalOnClock(testClockId: string): Promise<Date | null>;
  /**
   * The scope's `active` and `past_due` subscriptions, summed by currency and by their price's
   * renewal: what one period of each group bills (unit amount × quantity), and how many there are.
   */
  recurringTotals(scope: Scope): Promise<RecurringTotal[]>;
  /**
   * Churn's counts over [`from`, `to`): subscriptions active at `from` (started by then, out of
   * trial, not ended, never left `incomplete`), and how many of those ended in the window.
   */
  churnCounts(scope: Scope, from: Date, to: Date): Promise<{ activeAtStart: number; canceled: number }>;
}

/** One group of `recurringTotals`: minor units billed per period of `interval` × `intervalCount`. */
export interface RecurringTotal {
  currency: string;
  interval: RecurringInterval;
  intervalCount: number;
  amount: number;
  subscriptions: number;
}

export interface InvoiceRepository {
  /** False when its subscription already has an invoice for that period (another instance made it). */
  insert(invoice: Invoice): Promise<boolean>;
  get(scope: Scope | null, id: string, options?: { forUpdate?: boolean }): Promise<Invoice | null>;
  /** The invoice whose hosted page `token` opens, or null. */
  getByHostedToken(token: string): Promise<Invoice | null>;
  update(invoice: Invoice): Promise<void>;
  list(scope: Scope, filter: { customerId?: string; subscriptionId?: string; status?: InvoiceStatus } & PageRequest): Promise<Invoice[]>;
  /** Open invoices whose next charge is due by `now` (on the wall clock, or on test clock `testClockId`). */
  listAttemptDue(now: Date, limit: number, testClockId: string | null): Promise<Invoice[]>;
  /** Open invoices with an attempt made and none planned: their latest payment's outcome is still to be settled. */
  listUnsettled(limit: number, testClockId: string | null): Promise<Invoice[]>;
  /** The earliest planned charge of an open invoice on test clock `testClockId`, or null. */
  nextAttemptOnClock(testClockId: string): Promise<Date | null>;
}

export interface BillingPortalSessionRepository {
  insert(session: BillingPortalSession): Promise<void>;
  /** The session whose page `token` opens (expired or not), or null. */
  getByToken(token: string): Promise<BillingPortalSession | null>;
}
