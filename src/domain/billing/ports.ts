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
   * Ids of the subscriptions with a notice due by `now` and not sent (notices.ts), on the wall clock
   * or on test clock `testClockId`: trialing, its trial ending after `now` and within its lead; or
   * renewing (not at the period's end), its period ending after `now` and within its lead.
   */
  listNoticesDue(now: Date, leads: NoticeLeads, limit: number, testClockId: string | null): Promise<string[]>;
  /** The earliest moment a notice not sent falls due on test clock `testClockId`, of those about a moment after `after`; or null. */
  nextNoticeOnClock(testClockId: string, after: Date, leads: NoticeLeads): Promise<Date | null>;
  /** Records `customer.subscription.trial_will_end` sent for the trial ending at `trialEnd`: false when it was already. */
  claimTrialWillEnd(id: string, trialEnd: Date): Promise<boolean>;
  /** Records `invoice.upcoming` sent for the renewal at `periodEnd`: false when it was already. */
  claimUpcoming(id: string, periodEnd: Date): Promise<boolean>;
  /**
   * The scope's `active` and `past_due` subscriptions, summed by currency and by their price's
   * renewal: what one period of each group bills (unit amount × quantity, less a repeating or
   * forever discount in effect at `at`; unrounded), and how many there are.
   */
  recurringTotals(scope: Scope, at: Date): Promise<RecurringTotal[]>;
  /**
   * Churn's counts over [`from`, `to`): subscriptions active at `from` (started by then, out of
   * trial, not ended, never left `incomplete`), and how many of those ended in the window.
   */
  churnCounts(scope: Scope, from: Date, to: Date): Promise<{ activeAtStart: number; canceled: number }>;
}

/** How long before the moment they are about the notices are due, in milliseconds (notices.ts). */
export interface NoticeLeads {
  /** Before a trial's end: `customer.subscription.trial_will_end`. */
  trialWillEnd: number;
  /** Before a renewal: `invoice.upcoming`. */
  upcoming: number;
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
  /** Invoices whose latest charge failed (retry planned, or uncollectible) and whose email about it is not claimed yet. */
  listFailureEmailsDue(limit: number, testClockId: string | null): Promise<Invoice[]>;
  /**
   * Claims the email about the invoice's latest failed charge: answers the invoice with the claim
   * recorded, or null when no failure awaits an email (another instance claimed it, or a charge is
   * under way, or it was paid or voided).
   */
  claimFailureEmail(id: string): Promise<Invoice | null>;
}

export interface BillingPortalSessionRepository {
  insert(session: BillingPortalSession): Promise<void>;
  /** The session whose page `token` opens (expired or not), or null. */
  getByToken(token: string): Promise<BillingPortalSession | null>;
}
