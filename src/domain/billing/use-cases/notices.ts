import type { Deps, UnitOfWork } from '../../deps';
import { renewingStatuses, type Invoice, type Subscription } from '../entities';
import type { NoticeLeads } from '../ports';
import { subscriptionEvent, upcomingInvoiceEvent } from '../snapshots';
import { renewalInvoice } from '../renewal-invoice';
import type { Price } from '../../sessions/entities';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 100;

/**
 * How long before the moment they are about the notices are due (docs/billing.md, "Notices"):
 * `customer.subscription.trial_will_end` 3 days before a trial ends, as Stripe sends it, and
 * `invoice.upcoming` 7 days before a renewal. A trial or period shorter than its lead has its notice
 * at once.
 */
export const NOTICE_LEADS: NoticeLeads = { trialWillEnd: 3 * DAY_MS, upcoming: 7 * DAY_MS };

/** Whether `customer.subscription.trial_will_end` is due at `at` and not sent: trialing, its trial ending after `at`, within 3 days. */
export function trialWillEndDue(subscription: Subscription, at: Date): subscription is Subscription & { trialEnd: Date } {
  const end = subscription.trialEnd;
  if (subscription.status !== 'trialing' || !end || subscription.trialWillEndSentFor?.getTime() === end.getTime()) return false;
  return end > at && end.getTime() - NOTICE_LEADS.trialWillEnd <= at.getTime();
}

/**
 * Whether `invoice.upcoming` is due at `at` and not sent: renewing (not to end at the period's end),
 * its period ending after `at`, within 7 days.
 */
export function upcomingDue(subscription: Subscription, at: Date): boolean {
  const end = subscription.currentPeriodEnd;
  if (!renewingStatuses.includes(subscription.status) || subscription.cancelAtPeriodEnd) return false;
  if (subscription.upcomingSentFor?.getTime() === end.getTime()) return false;
  return end > at && end.getTime() - NOTICE_LEADS.upcoming <= at.getTime();
}

/**
 * Sends every notice due by the clock's now, on the wall clock or on one test clock (the billing
 * job, a test clock's advance). Answers how many were sent.
 */
export async function sendDueNotices(deps: Deps, testClockId: string | null): Promise<number> {
  const now = deps.clock.now();
  let sent = 0;
  for (;;) {
    const due = await deps.store.read((reader) => reader.subscriptions.listNoticesDue(now, NOTICE_LEADS, BATCH, testClockId));
    let batch = 0;
    for (const id of due) batch += await sendNotices(deps, id, now);
    sent += batch;
    if (batch === 0 || due.length < BATCH) break;
  }
  return sent;
}

/**
 * After a subscription starts: the notices due already (a trial of 3 days or less, a period of 7
 * days or less) are sent at once, as of its start on its test clock, or now on the wall clock.
 */
export async function sendStartNotices(deps: Deps, subscription: Subscription): Promise<void> {
  await sendNotices(deps, subscription.id, subscription.testClockId ? subscription.createdAt : deps.clock.now());
}

/**
 * Sends the notices of one subscription due at `at`, each once: the subscription locked and checked
 * again, what was sent recorded (its claim) and the event inserted in one transaction, so instances
 * running at once send it once between them. Answers how many were sent.
 */
export async function sendNotices(deps: Deps, subscriptionId: string, at: Date): Promise<number> {
  return deps.store.transaction(async (tx) => {
    const subscription = await tx.subscriptions.get(null, subscriptionId, { forUpdate: true });
    if (!subscription) return 0;
    const trialEnding = trialWillEndDue(subscription, at);
    const renewing = upcomingDue(subscription, at);
    if (!trialEnding && !renewing) return 0;
    const price = await tx.prices.get(subscription, subscription.priceId);
    if (!price) throw new Error(`subscription ${subscription.id}: its price ${subscription.priceId} is gone`);
    let sent = 0;
    if (trialEnding && (await tx.subscriptions.claimTrialWillEnd(subscription.id, subscription.trialEnd))) {
      const notified = { ...subscription, trialWillEndSentFor: subscription.trialEnd };
      await tx.events.insert(subscriptionEvent(notified, price, 'customer.subscription.trial_will_end', at));
      sent += 1;
    }
    if (renewing && (await tx.subscriptions.claimUpcoming(subscription.id, subscription.currentPeriodEnd))) {
      await tx.events.insert(upcomingInvoiceEvent(subscription, await upcomingInvoice(tx, subscription, price), at));
      sent += 1;
    }
    return sent;
  });
}

/** The invoice the subscription's renewal is to make, as renewing would make it now, still a draft: nothing is stored. */
async function upcomingInvoice(tx: UnitOfWork, subscription: Subscription, price: Price): Promise<Invoice> {
  const { invoice } = await renewalInvoice(tx, subscription, price);
  return { ...invoice, status: 'draft', finalizedAt: null, paidAt: null };
}
