import { TillpointError } from '../shared/errors';
import { newId } from '../shared/ids';
import { blankOf } from '../shared/resource-shape';
import type { Price } from '../sessions/entities';
import type { AppliedDiscount, Coupon } from '../pricing/entities';
import { pricingDiscount } from '../pricing/rules';
import { computeTotals, type PricingTaxRate } from '../pricing/totals';
import {
  invoices,
  subscriptions,
  type BillingReason,
  type Invoice,
  type InvoiceDiscountAmount,
  type InvoiceLine,
  type InvoiceTaxAmount,
  type RecurringInterval,
  type Subscription,
  type SubscriptionDiscount,
} from './entities';

/**
 * Charges of an invoice after a failed one, in days after the first failure: retried 1, 3, 5 and 7
 * days later, five tries in all. After the last, the subscription is canceled (docs/billing.md).
 */
export const RETRY_AFTER_DAYS: readonly number[] = [1, 3, 5, 7];
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The error codes of a charge whose failure is already recorded on its payment and its invoice (a
 * decline, a method the processor refused, the processor unavailable or not answering in time): the
 * invoice's retries take it from there, so neither the billing job nor `POST /v1/subscriptions`
 * fails for it.
 */
export const RECORDED_CHARGE_FAILURES: readonly string[] = ['card_declined', 'parameter_invalid', 'processor_unavailable', 'processor_timeout'];

/** Whether `error` is a charge failure already recorded (`RECORDED_CHARGE_FAILURES`). */
export function isRecordedChargeFailure(error: unknown): error is TillpointError {
  return error instanceof TillpointError && RECORDED_CHARGE_FAILURES.includes(error.code);
}

/** A price's renewal, or null for a one-time price. */
export function recurrenceOf(price: Price): { interval: RecurringInterval; count: number } | null {
  return price.recurringInterval && price.recurringIntervalCount ? { interval: price.recurringInterval, count: price.recurringIntervalCount } : null;
}

/**
 * The end of period `n` counted from `anchor` (n = 1: the end of the first), in UTC. Months and years
 * keep the anchor's day, or the month's last day when it has fewer (31 January, 28 February, 31
 * March): counted from the anchor each time, never from the previous end, so no day drifts.
 */
export function periodBoundary(anchor: Date, recurrence: { interval: RecurringInterval; count: number }, n: number): Date {
  const steps = recurrence.count * n;
  if (recurrence.interval === 'day') return new Date(anchor.getTime() + steps * DAY_MS);
  if (recurrence.interval === 'week') return new Date(anchor.getTime() + steps * 7 * DAY_MS);
  const months = recurrence.interval === 'month' ? steps : steps * 12;
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** The period after the one that ends at `end`: counted from the anchor, so month ends keep their day. */
export function nextPeriod(subscription: Subscription, price: Price): { start: Date; end: Date } {
  const recurrence = recurrenceOf(price);
  if (!recurrence) throw new Error(`price ${price.id} does not recur`);
  const start = subscription.currentPeriodEnd;
  // The first boundary after `start`: the periods since the anchor, counted.
  let n = 1;
  while (periodBoundary(subscription.billingCycleAnchor, recurrence, n) <= start) n += 1;
  return { start, end: periodBoundary(subscription.billingCycleAnchor, recurrence, n) };
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The line of a whole period of `price` × `quantity`. */
export function periodLine(price: Price, quantity: number, period: { start: Date; end: Date }, description: string): InvoiceLine {
  return {
    id: newId('il', 16),
    description,
    amount: price.unitAmount * quantity,
    priceId: price.id,
    quantity,
    proration: false,
    periodStart: seconds(period.start),
    periodEnd: seconds(period.end),
  };
}

/**
 * The proration of a change at `at` within the period: the unused time of the old price and quantity
 * credited, the remaining time of the new one charged, each rounded to the currency's minor unit.
 * Together they come to exactly what the invoice adds: each line is an integer of minor units.
 */
export function prorationLines(
  change: { from: { price: Price; quantity: number }; to: { price: Price; quantity: number } },
  period: { start: Date; end: Date },
  at: Date,
): InvoiceLine[] {
  const whole = period.end.getTime() - period.start.getTime();
  const remaining = Math.max(0, period.end.getTime() - at.getTime());
  if (remaining === 0 || whole <= 0) return [];
  const share = (amount: number) => Math.round((amount * remaining) / whole);
  const span = { periodStart: seconds(at), periodEnd: seconds(period.end) };
  const credit = share(change.from.price.unitAmount * change.from.quantity);
  const charge = share(change.to.price.unitAmount * change.to.quantity);
  return [
    {
      id: newId('il', 16),
      description: 'Unused time',
      amount: -credit,
      priceId: change.from.price.id,
      quantity: change.from.quantity,
      proration: true,
      ...span,
    },
    { id: newId('il', 16), description: 'Remaining time', amount: charge, priceId: change.to.price.id, quantity: change.to.quantity, proration: true, ...span },
  ];
}

/**
 * The discount a subscription carries from `applied` (a coupon's terms, and the code that brought
 * it) from `at`: for ever, for `duration_in_months` months (counted as periods are, so 31 January
 * plus one month ends on 28 February), or, `once`, until an invoice takes it.
 */
export function subscriptionDiscount(applied: AppliedDiscount, coupon: Pick<Coupon, 'duration' | 'durationInMonths'>, at: Date): SubscriptionDiscount {
  const months = coupon.duration === 'repeating' ? coupon.durationInMonths : null;
  return {
    coupon: { ...applied.coupon, duration: coupon.duration, durationInMonths: months },
    promotionCode: applied.promotionCode,
    start: seconds(at),
    end: months ? seconds(periodBoundary(at, { interval: 'month', count: months }, 1)) : null,
  };
}

/** The discount an invoice made at `at` takes: the subscription's, when `at` is within its start and end. */
export function discountAt(discount: SubscriptionDiscount | null, at: Date): SubscriptionDiscount | null {
  if (!discount) return null;
  const moment = seconds(at);
  return moment >= discount.start && (discount.end === null || moment < discount.end) ? discount : null;
}

/** An invoice's figures (Stripe's): `total` = `subtotal` − the discount + exclusive tax; `tax` counts inclusive tax too. */
export interface PricedInvoice {
  lines: InvoiceLine[];
  subtotal: number;
  totalDiscountAmounts: InvoiceDiscountAmount[];
  tax: number;
  totalTaxAmounts: InvoiceTaxAmount[];
  total: number;
}

/**
 * An invoice's figures from its lines, its discount and its tax rates, computed by checkout's own
 * `computeTotals` (src/domain/pricing/totals.ts, the one place totals are computed): the lines'
 * sum is priced as one line, so a percentage is rounded once on it, an amount off is capped at it,
 * and each rate is rounded once, exclusive or inclusive, to the currency's minor unit. `shipping`
 * (a checkout's first invoice only) is its own line, neither discounted nor taxed. Lines that come
 * to nothing or less (a trial, credits over charges) take no discount and no tax.
 */
export function priceInvoice(
  currency: string,
  lines: InvoiceLine[],
  terms: { discount: SubscriptionDiscount | null; taxRates: readonly PricingTaxRate[]; shipping?: InvoiceLine | null },
): PricedInvoice {
  const charged = lines.reduce((sum, line) => sum + line.amount, 0);
  const shipping = terms.shipping ?? null;
  const all = shipping ? [...lines, shipping] : lines;
  const subtotal = charged + (shipping?.amount ?? 0);
  if (charged <= 0) return { lines: all, subtotal, totalDiscountAmounts: [], tax: 0, totalTaxAmounts: [], total: subtotal };
  const { discount } = terms;
  const totals = computeTotals({
    currency,
    lines: [{ unitAmount: charged, quantity: 1, taxRates: terms.taxRates }],
    discount: pricingDiscount(discount ?? undefined),
    shipping: shipping?.amount ?? 0,
  });
  const off = totals.totalDetails.amountDiscount;
  return {
    lines: all,
    subtotal,
    totalDiscountAmounts: discount && off > 0 ? [{ amount: off, couponId: discount.coupon.id, promotionCodeId: discount.promotionCode?.id ?? null }] : [],
    tax: totals.totalDetails.amountTax,
    totalTaxAmounts: totals.taxes.map((tax) => ({ amount: tax.amount, inclusive: tax.inclusive, taxRateId: tax.taxRate })),
    total: totals.amountTotal,
  };
}

/**
 * The invoice of `subscription` made at `at` for `period`, its `lines` discounted and taxed by the
 * subscription's terms (`taxRates`: the terms of its `default_tax_rates`), and the discount the
 * subscription keeps after it: none once a `once` discount came off an invoice or a discount's end
 * has come.
 */
export function billPeriod(
  subscription: Subscription,
  lines: InvoiceLine[],
  period: { start: Date; end: Date },
  reason: BillingReason,
  at: Date,
  terms: { taxRates: readonly PricingTaxRate[]; shipping?: InvoiceLine | null },
): { invoice: Invoice; discount: SubscriptionDiscount | null } {
  const discount = discountAt(subscription.discount, at);
  const priced = priceInvoice(subscription.currency, lines, { discount, taxRates: terms.taxRates, shipping: terms.shipping });
  const invoice = newInvoice(subscription, priced, period, reason, at);
  const used = discount?.coupon.duration === 'once' && lines.reduce((sum, line) => sum + line.amount, 0) > 0;
  const ended = subscription.discount?.end != null && seconds(at) >= subscription.discount.end;
  return { invoice, discount: used || ended ? null : subscription.discount };
}

/**
 * A new invoice of `subscription` for `period`, as `priced`: open and due at once (its first
 * charge at `at`), or paid when it comes to nothing (a trial, a discount of all of it). A negative
 * total (credits over charges) is owed nothing; the credit is not carried.
 */
export function newInvoice(subscription: Subscription, priced: PricedInvoice, period: { start: Date; end: Date }, reason: BillingReason, at: Date): Invoice {
  const due = Math.max(0, priced.total);
  return {
    ...blankOf(invoices),
    id: newId('in'),
    accountId: subscription.accountId,
    mode: subscription.mode,
    customerId: subscription.customerId,
    subscriptionId: subscription.id,
    status: due === 0 ? 'paid' : 'open',
    billingReason: reason,
    currency: subscription.currency,
    ...priced,
    amountDue: due,
    amountPaid: 0,
    periodStart: period.start,
    periodEnd: period.end,
    attemptCount: 0,
    nextPaymentAttempt: due === 0 ? null : at,
    testClockId: subscription.testClockId,
    hostedToken: newId('ih', 32),
    createdAt: at,
    finalizedAt: at,
    paidAt: due === 0 ? at : null,
    updatedAt: at,
  };
}

/**
 * When to charge an invoice again after its `attemptCount`-th try failed at `failedAt`: the retry
 * schedule counts from the invoice's first charge (its finalization); null after the last try.
 */
export function nextRetryAt(invoice: Invoice, failedAt: Date): Date | null {
  const days = RETRY_AFTER_DAYS[invoice.attemptCount - 1];
  if (days === undefined) return null;
  const first = invoice.finalizedAt ?? invoice.createdAt;
  return new Date(Math.max(failedAt.getTime(), first.getTime() + days * DAY_MS));
}

/** What a new subscription starts from (`POST /v1/subscriptions`, or a paid subscription-mode checkout). */
export interface SubscriptionStart {
  id: string;
  scope: { accountId: string; mode: Subscription['mode'] };
  customer: { id: string; testClockId: string | null };
  price: Price;
  quantity: number;
  paymentMethodId: string | null;
  trialPeriodDays: number | null;
  metadata: Record<string, string>;
  checkoutSessionId: string | null;
  /** The line's words (`lineDescription`). */
  description: string;
  /** The discount it starts with (`subscriptionDiscount`), or null. */
  discount: SubscriptionDiscount | null;
  /** The tax rates each invoice adds, with their terms. */
  taxRates: readonly PricingTaxRate[];
  /** What a checkout charged for shipping: on the first invoice only. */
  shipping: { description: string; amount: number } | null;
  /** The customer's time: its test clock's, or the wall clock's. */
  now: Date;
}

/**
 * A new subscription and its first invoice (`subscription_create`), discounted and taxed by its
 * terms: with a trial, `trialing` until it ends, periods counted from its end, and an invoice of
 * nothing (paid); without, its first period from now, `status` as the caller says (`incomplete`
 * until charged, or `active` when a checkout paid it), and an open invoice due at once (or, coming
 * to nothing, paid, and the subscription `active`).
 */
export function startSubscription(start: SubscriptionStart, status: 'incomplete' | 'active'): { subscription: Subscription; invoice: Invoice } {
  const { now, price } = start;
  const recurrence = recurrenceOf(price);
  if (!recurrence) throw new Error(`price ${price.id} does not recur`);
  const trialEnd = start.trialPeriodDays ? new Date(now.getTime() + start.trialPeriodDays * DAY_MS) : null;
  const anchor = trialEnd ?? now;
  const period = { start: now, end: trialEnd ?? periodBoundary(anchor, recurrence, 1) };
  const subscription: Subscription = {
    ...(blankOf(subscriptions) as Omit<Subscription, 'id'>),
    id: start.id,
    accountId: start.scope.accountId,
    mode: start.scope.mode,
    customerId: start.customer.id,
    status: trialEnd ? 'trialing' : status,
    priceId: price.id,
    quantity: start.quantity,
    currency: price.currency,
    defaultPaymentMethodId: start.paymentMethodId,
    defaultTaxRates: start.taxRates.map((rate) => rate.id),
    discount: start.discount,
    billingCycleAnchor: anchor,
    currentPeriodStart: period.start,
    currentPeriodEnd: period.end,
    trialStart: trialEnd ? now : null,
    trialEnd,
    cancelAtPeriodEnd: false,
    pendingInvoiceLines: [],
    checkoutSessionId: start.checkoutSessionId,
    testClockId: start.customer.testClockId,
    metadata: start.metadata,
    createdAt: now,
    updatedAt: now,
  };
  const line = periodLine(price, start.quantity, period, trialEnd ? `Trial period for ${start.description}` : start.description);
  if (trialEnd) line.amount = 0;
  // A trial's checkout charges nothing, shipping included.
  const shipping =
    start.shipping && !trialEnd
      ? { ...line, id: newId('il', 16), description: start.shipping.description, amount: start.shipping.amount, priceId: null, quantity: 1 }
      : null;
  const { invoice, discount } = billPeriod(subscription, [line], period, 'subscription_create', now, { taxRates: start.taxRates, shipping });
  subscription.discount = discount;
  subscription.latestInvoiceId = invoice.id;
  // A first invoice that comes to nothing (a discount of all of it) is paid: nothing is left to charge.
  if (!trialEnd && invoice.status === 'paid') subscription.status = 'active';
  return { subscription, invoice };
}

/**
 * What `amount` billed every `count` × `interval` comes to per month, unrounded (docs/dashboard.md,
 * "MRR"): a year is 12 months, a week 52/12 of a month, a day 365/12 of one.
 *
 * @example monthlyAmount(12_000, 'year', 1) // 1000
 */
export function monthlyAmount(amount: number, interval: RecurringInterval, count: number): number {
  const perMonth = { day: 365 / 12, week: 52 / 12, month: 1, year: 1 / 12 }[interval];
  return (amount * perMonth) / count;
}
