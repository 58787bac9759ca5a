import type { Deps, UnitOfWork } from '../../deps';
import type { Scope } from '../../shared/scope';
import { TillpointError } from '../../shared/errors';
import type { Payment } from '../../payments/entities';
import { merchantInitiatedAuthorization, merchantInitiatedPayment, recordChargeOutcome, recordSettlementPending } from '../../payments/rules';
import { ConcurrentTransitionError } from '../../payments/transition';
import type { Price } from '../../sessions/entities';
import { renewingStatuses, type Invoice, type Subscription } from '../entities';
import { isRecordedChargeFailure, nextRetryAt } from '../rules';
import { renewalInvoice } from '../renewal-invoice';
import { invoiceEvent, subscriptionEvent } from '../snapshots';
import { startCheckoutSubscription } from './checkout-subscription';

import { sendDueNotices } from './notices';
import { emailFailedPayments } from './payment-failed-emails';

/** What one run of billing did. */
export interface BillingReport {
  /** Subscriptions renewed (an invoice made for their next period) or ended at their period's end. */
  renewed: number;
  /** Invoice charges sent to the processor. */
  charged: number;
  /** Notices sent (`customer.subscription.trial_will_end`, `invoice.upcoming`). */
  notices: number;
}

const BATCH = 100;

/**
 * Bills everything due by the clock's now (docs/billing.md), on the wall clock or on one test clock:
 * 1. renews each subscription whose period ended (an invoice for the next period, due at once; or
 *    its end, when it was to cancel at the period's end);
 * 2. settles invoices whose last charge's outcome is known but not yet recorded on them (a crash,
 *    a charge resolved by reconciliation);
 * 3. charges each open invoice whose next attempt is due, once: the claim and the payment it makes
 *    commit together, and an invoice holds at most one payment under way or won;
 * 4. sends the notices due (notices.ts) and emails each failed charge's customer (payment-failed-emails.ts), once each.
 * Safe in several instances at once: every step locks its row and checks it again.
 */
export async function runBilling(deps: Deps, options: { testClockId?: string | null } = {}): Promise<BillingReport> {
  const clockId = options.testClockId ?? null;
  const report: BillingReport = { renewed: 0, charged: 0, notices: 0 };
  const now = deps.clock.now();
  // Subscriptions a paid checkout did not get to start (its request cut short after the payment).
  if (clockId === null) {
    const toStart = await deps.store.read((reader) => reader.subscriptions.listCheckoutsToStart(BATCH, new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000)));
    for (const sessionId of toStart) await startCheckoutSubscription(deps, sessionId);
  }
  for (;;) {
    const due = await deps.store.read((reader) => reader.subscriptions.listRenewalDue(now, BATCH, clockId));
    let moved = 0;
    for (const subscription of due) if (await renewSubscription(deps, subscription.id)) moved += 1;
    report.renewed += moved;
    if (moved === 0 || due.length < BATCH) break;
  }
  const unsettled = await deps.store.read((reader) => reader.invoices.listUnsettled(BATCH, clockId));
  for (const invoice of unsettled) await settleInvoice(deps, invoice.id);
  const attempts = await deps.store.read((reader) => reader.invoices.listAttemptDue(now, BATCH, clockId));
  for (const invoice of attempts) {
    if (await chargeInvoice(deps, invoice.id, { manual: false }).catch(swallowDecline)) report.charged += 1;
  }
  report.notices = await sendDueNotices(deps, clockId);
  await emailFailedPayments(deps, clockId);
  return report;
}

/**
 * A charge the job made whose failure is already recorded (`RECORDED_CHARGE_FAILURES`), or an invoice
 * with no saved card left to charge (deleted since): not the job's failure, and no reason to stop
 * billing the others. The latter waits, due, for a card (the customer portal, `POST /v1/invoices/:id/pay`).
 */
function swallowDecline(error: unknown): boolean {
  if (isRecordedChargeFailure(error)) return true;
  if (error instanceof TillpointError && error.code === 'resource_missing' && error.param === 'payment_method') return false;
  throw error;
}

async function priceOf(tx: UnitOfWork, subscription: Subscription): Promise<Price> {
  const price = await tx.prices.get(subscription, subscription.priceId);
  if (!price) throw new Error(`subscription ${subscription.id}: its price ${subscription.priceId} is gone`);
  return price;
}

/**
 * Renews one subscription whose period ended: locks it, and, still due, either ends it (set to cancel
 * at the period's end) or makes the next period's invoice, with its discount while it lasts and its
 * tax rates, and moves the period on. False when another instance did it first.
 */
export async function renewSubscription(deps: Deps, subscriptionId: string): Promise<boolean> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const subscription = await tx.subscriptions.get(null, subscriptionId, { forUpdate: true });
    if (!subscription || !renewingStatuses.includes(subscription.status) || subscription.currentPeriodEnd > now) return false;
    const price = await priceOf(tx, subscription);
    const at = subscription.currentPeriodEnd;
    if (subscription.cancelAtPeriodEnd) {
      const ended: Subscription = { ...subscription, status: 'canceled', endedAt: at, canceledAt: subscription.canceledAt ?? at, updatedAt: now };
      await tx.subscriptions.update(ended);
      await tx.events.insert(subscriptionEvent(ended, price, 'customer.subscription.deleted', now));
      return true;
    }
    const { invoice, discount, period } = await renewalInvoice(tx, subscription, price);
    if (!(await tx.invoices.insert(invoice))) return false;
    const renewed: Subscription = {
      ...subscription,
      discount,
      // A trial that ended with nothing to pay is over at once; otherwise its first charge decides.
      status: subscription.status === 'trialing' && invoice.status === 'paid' ? 'active' : subscription.status,
      currentPeriodStart: period.start,
      currentPeriodEnd: period.end,
      latestInvoiceId: invoice.id,
      pendingInvoiceLines: [],
      updatedAt: now,
    };
    await tx.subscriptions.update(renewed);
    await tx.events.insert(invoiceEvent(invoice, 'invoice.created', now, deps.publicUrl));
    await tx.events.insert(invoiceEvent(invoice, 'invoice.finalized', now, deps.publicUrl));
    if (invoice.status === 'paid') await tx.events.insert(invoiceEvent(invoice, 'invoice.paid', now, deps.publicUrl));
    await tx.events.insert(subscriptionEvent(renewed, price, 'customer.subscription.updated', now));
    return true;
  });
}

/**
 * Charges an open invoice to its subscription's saved payment method (or `paymentMethodId`, a
 * customer's other saved method): claims the attempt and records the payment in one transaction,
 * asks the processor holding none, records the outcome, then settles the invoice. `manual`: the
 * merchant asked (`POST /v1/invoices/:id/pay`), whatever the schedule, an uncollectible invoice too.
 * Null when the invoice was not due or another charge holds it.
 */
export async function chargeInvoice(
  deps: Deps,
  invoiceId: string,
  options: { manual: boolean; scope?: Scope; paymentMethodId?: string },
): Promise<{ invoice: Invoice; payment: Payment } | null> {
  const now = deps.clock.now();
  const claim = await deps.store.transaction(async (tx) => {
    const invoice = await tx.invoices.get(options.scope ?? null, invoiceId, { forUpdate: true });
    if (!invoice) throw new TillpointError('resource_missing', `No such invoice: '${invoiceId}'`, { param: 'id' });
    const payable = invoice.status === 'open' || (options.manual && invoice.status === 'uncollectible');
    if (!payable) {
      if (options.manual)
        throw new TillpointError('invoice_not_payable', `This invoice is ${invoice.status}; only an open or uncollectible invoice can be paid`);
      return null;
    }
    if (!options.manual && (invoice.nextPaymentAttempt === null || invoice.nextPaymentAttempt > now)) return null;
    const last = invoice.paymentId ? await tx.payments.get(null, invoice.paymentId) : null;
    if (last && last.status !== 'failed') {
      if (options.manual) throw new TillpointError('invoice_not_payable', 'A charge of this invoice is under way');
      return null;
    }
    const subscription = invoice.subscriptionId ? await tx.subscriptions.get(null, invoice.subscriptionId) : null;
    const methodId = options.paymentMethodId ?? subscription?.defaultPaymentMethodId ?? null;
    const method = methodId ? await tx.savedPaymentMethods.get(invoice, methodId) : null;
    if (!method || method.customerId !== invoice.customerId) {
      throw new TillpointError('resource_missing', `No saved payment method to charge for invoice '${invoice.id}'`, { param: 'payment_method' });
    }
    const customer = await tx.customers.get(invoice, invoice.customerId);
    const payment = merchantInitiatedPayment({
      scope: invoice,
      customer: { id: invoice.customerId, email: customer?.email ?? null },
      processor: method.processor,
      amount: invoice.amountDue - invoice.amountPaid,
      currency: invoice.currency,
      invoiceId: invoice.id,
      now,
    });
    await tx.payments.insert(payment);
    const claimed: Invoice = {
      ...invoice,
      status: 'open',
      attemptCount: invoice.attemptCount + 1,
      nextPaymentAttempt: null,
      paymentId: payment.id,
      updatedAt: now,
    };
    await tx.invoices.update(claimed);
    return { invoice: claimed, payment, method };
  });
  if (!claim) return null;

  const processor = await deps.processors.forScope(claim.invoice);
  // The billing job's charges follow the subscription's schedule; one the merchant or the customer
  // asks for now is unscheduled.
  const result = await processor.authorize(
    merchantInitiatedAuthorization(claim.payment, claim.method.processorToken, { recurring: !options.manual, paymentMethodType: claim.method.type }),
  );
  // An unknown outcome stays `processing`: reconciliation resolves the payment, and the next run
  // settles the invoice by it.
  if (result.outcome === 'unknown') throw new TillpointError('processor_timeout', 'The processor did not answer in time; the charge is resolved later');
  // A saved bank account's debit settles later (ADR 0108): the payment stays `processing`, so the
  // invoice stays open and holds it (no other charge, no retry) until the settlement report decides
  // it; the next run (or the report itself) settles the invoice then, paid or failed as a card's.
  if (result.outcome === 'pending') {
    const pending = await recordSettlementPending(deps, { payment: claim.payment, result });
    return { invoice: claim.invoice, payment: pending };
  }
  let recorded: { payment: Payment; error: TillpointError | null };
  try {
    recorded = await recordChargeOutcome(deps, { payment: claim.payment, result });
  } catch (error) {
    if (!(error instanceof ConcurrentTransitionError)) throw error;
    recorded = { payment: claim.payment, error: null };
  }
  const invoice = (await settleInvoice(deps, claim.invoice.id)) ?? claim.invoice;
  if (recorded.error) throw recorded.error;
  return { invoice, payment: recorded.payment };
}

/**
 * Records on an open invoice the outcome of its last charge, once known: paid (and its subscription
 * active again), or failed, with the next try planned (the subscription `past_due`), or, after the
 * last try, the invoice uncollectible and the subscription canceled. Does nothing while the charge is
 * under way or once it is recorded, so any instance may call it any number of times.
 */
export async function settleInvoice(deps: Deps, invoiceId: string): Promise<Invoice | null> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const invoice = await tx.invoices.get(null, invoiceId, { forUpdate: true });
    if (invoice?.status !== 'open' || invoice.nextPaymentAttempt !== null || !invoice.paymentId) return invoice;
    const payment = await tx.payments.get(null, invoice.paymentId);
    if (!payment || payment.status === 'processing') return invoice;
    const subscription = invoice.subscriptionId ? await tx.subscriptions.get(null, invoice.subscriptionId, { forUpdate: true }) : null;
    const price = subscription ? await priceOf(tx, subscription) : null;
    const moveSubscription = async (next: Subscription, type: 'customer.subscription.updated' | 'customer.subscription.deleted') => {
      await tx.subscriptions.update(next);
      await tx.events.insert(subscriptionEvent(next, price!, type, now));
    };
    if (payment.status === 'succeeded' || payment.status === 'requires_capture') {
      const paid: Invoice = { ...invoice, status: 'paid', amountPaid: invoice.amountDue, paidAt: now, updatedAt: now };
      await tx.invoices.update(paid);
      await tx.events.insert(invoiceEvent(paid, 'invoice.paid', now, deps.publicUrl));
      if (subscription && subscription.status !== 'active' && subscription.status !== 'canceled') {
        await moveSubscription({ ...subscription, status: 'active', updatedAt: now }, 'customer.subscription.updated');
      }
      return paid;
    }
    const retryAt = nextRetryAt(invoice, now);
    const failed: Invoice = retryAt
      ? { ...invoice, nextPaymentAttempt: retryAt, updatedAt: now }
      : { ...invoice, status: 'uncollectible', nextPaymentAttempt: null, updatedAt: now };
    await tx.invoices.update(failed);
    await tx.events.insert(invoiceEvent(failed, 'invoice.payment_failed', now, deps.publicUrl));
    if (subscription && subscription.status !== 'canceled') {
      if (!retryAt) {
        // The account says whether the last failure ends the subscription or keeps it `unpaid`.
        const account = await tx.accounts.get(subscription.accountId);
        if (account?.subscriptionFailureAction === 'unpaid') {
          await moveSubscription({ ...subscription, status: 'unpaid', updatedAt: now }, 'customer.subscription.updated');
        } else {
          await moveSubscription(
            { ...subscription, status: 'canceled', canceledAt: subscription.canceledAt ?? now, endedAt: now, updatedAt: now },
            'customer.subscription.deleted',
          );
        }
      } else if (subscription.status === 'active' || subscription.status === 'trialing') {
        await moveSubscription({ ...subscription, status: 'past_due', updatedAt: now }, 'customer.subscription.updated');
      }
    }
    return failed;
  });
}
