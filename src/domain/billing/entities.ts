import { modes } from '../shared/events';
import { defineResource, field, type EntityOf } from '../shared/resource-shape';
import type { priceIntervals } from '../sessions/entities';
import type { AppliedDiscount, CouponDuration } from '../pricing/entities';

/** How often a recurring price bills: every `count` days, weeks, months or years. */
export type RecurringInterval = (typeof priceIntervals)[number];

/**
 * A test clock (`clock_…`, test mode only): a time of its own that the customers made on it are
 * billed by. Advancing it runs every renewal, retry and email that falls due on the way, in order.
 */
export const testClocks = defineResource('test_clocks', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  name: field.text().nullable(),
  frozenTime: field.timestamp().describe('The time the clock reads: its customers are billed as of it.'),
  status: field.oneOf(['ready', 'advancing']).describe('`advancing` while an advance runs what falls due; `ready` after.'),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
});
export type TestClock = EntityOf<typeof testClocks>;

export const subscriptionStatuses = ['incomplete', 'trialing', 'active', 'past_due', 'canceled', 'unpaid'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** The statuses in which a subscription still renews. */
export const renewingStatuses: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

/**
 * A subscription's discount (Stripe's `discount`): the coupon's terms as they were applied, the
 * promotion code that brought it, and when it lasts, in seconds since the epoch. Each invoice made
 * from `start` until `end` takes it (`end` null: for ever); a `once` discount is removed by the
 * first invoice it comes off, a `repeating` one ends `duration_in_months` after its start.
 */
export interface SubscriptionDiscount extends AppliedDiscount {
  coupon: AppliedDiscount['coupon'] & { duration: CouponDuration; durationInMonths: number | null };
  start: number;
  end: number | null;
}

/**
 * A customer's subscription to a recurring price (`sub_…`): billed at the start of each period by an
 * invoice charged to its saved payment method. The one definition of its stored fields; its API
 * object is `subscriptionView`, which spells out its item (price and quantity).
 */
export const subscriptions = defineResource('subscriptions', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  customerId: field.text().fixedAtCreation().shownAs('customer').describe('The customer billed.'),
  status: field.oneOf(subscriptionStatuses),
  /** The recurring price (`price_…`) billed; the API shows it under `items`. */
  priceId: field.text().internal(),
  quantity: field.integer().describe('How many of the price are billed each period.'),
  currency: field.currency().fixedAtCreation(),
  /** The saved payment method (`pm_…`) each invoice is charged to. */
  defaultPaymentMethodId: field.text().nullable().shownAs('default_payment_method').describe('The saved payment method each invoice is charged to.'),
  /** The tax rates (`txr_…`) each invoice adds, on its lines less its discount. */
  defaultTaxRates: field
    .json<string[]>()
    .whenMissing([])
    .describe('The tax rates (`txr_…`) each invoice adds to its lines, less its discount, inclusive or exclusive as each rate says.'),
  /** Its discount; the API shapes it (`discount`). */
  discount: field.json<SubscriptionDiscount>().nullable().internal(),
  billingCycleAnchor: field.timestamp().fixedAtCreation().describe('The moment periods are counted from.'),
  currentPeriodStart: field.timestamp().describe('Start of the period billed last.'),
  currentPeriodEnd: field.timestamp().describe('End of the period billed last: the next invoice is made then.'),
  trialStart: field.timestamp().nullable(),
  trialEnd: field.timestamp().nullable().describe('When the free trial ends and the first charge is made, or null.'),
  cancelAtPeriodEnd: field.boolean().describe('Whether it ends at the end of the current period instead of renewing.'),
  canceledAt: field.timestamp().nullable().describe('When it was canceled (or set to cancel at period end), or null.'),
  endedAt: field.timestamp().nullable().describe('When it ended, or null.'),
  latestInvoiceId: field.text().nullable().shownAs('latest_invoice').describe('Its newest invoice.'),
  /** Proration lines of changes made mid-period, billed on the next invoice. */
  pendingInvoiceLines: field.json<InvoiceLine[]>().whenMissing([]).internal(),
  /** The trial end whose `customer.subscription.trial_will_end` was sent: once per trial (notices.ts). */
  trialWillEndSentFor: field.timestamp().nullable().internal().writtenByClaim(),
  /** The period end (the renewal) whose `invoice.upcoming` was sent: once per period (notices.ts). */
  upcomingSentFor: field.timestamp().nullable().internal().writtenByClaim(),
  checkoutSessionId: field.text().nullable().fixedAtCreation().internal(),
  testClockId: field.text().nullable().fixedAtCreation().shownAs('test_clock').describe('The test clock that bills it, or null.'),
  metadata: field.json<Record<string, string>>(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
  updatedAt: field.timestamp().internal(),
});
export type Subscription = EntityOf<typeof subscriptions>;

export const invoiceStatuses = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

/** An invoice's discount (Stripe's `total_discount_amounts` entry): minor units off its subtotal, and what took them off. */
export interface InvoiceDiscountAmount {
  amount: number;
  couponId: string;
  promotionCodeId: string | null;
}

/** One tax rate's share of an invoice (Stripe's `total_tax_amounts` entry), in minor units. */
export interface InvoiceTaxAmount {
  amount: number;
  inclusive: boolean;
  taxRateId: string;
}

export const billingReasons = ['subscription_create', 'subscription_cycle', 'subscription_update', 'manual'] as const;
export type BillingReason = (typeof billingReasons)[number];

/** One line of an invoice: a period of a price, a proration of a change, or the shipping a checkout charged. */
export interface InvoiceLine {
  id: string;
  description: string;
  /** Minor units; negative for an unused time credited. */
  amount: number;
  /** The price billed; null on a shipping line. */
  priceId: string | null;
  quantity: number;
  proration: boolean;
  /** The period it covers, in seconds since the epoch (as the API shows it). */
  periodStart: number;
  periodEnd: number;
}

/**
 * What a customer owes for a period of a subscription (`in_…`): made `open` when due, charged to the
 * subscription's saved method until paid, retried on a schedule when a charge fails. At most one
 * payment under way or won per invoice (the database's unique index). Its API object is `invoiceView`.
 */
export const invoices = defineResource('invoices', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  customerId: field.text().fixedAtCreation().shownAs('customer').describe('The customer who owes it.'),
  subscriptionId: field.text().nullable().fixedAtCreation().shownAs('subscription').describe('The subscription it bills, or null.'),
  status: field.oneOf(invoiceStatuses),
  billingReason: field.oneOf(billingReasons).fixedAtCreation(),
  currency: field.currency().fixedAtCreation(),
  /** Its lines; the API shows them as a list under `lines`. */
  lines: field.json<InvoiceLine[]>().fixedAtCreation().internal(),
  subtotal: field.integer().fixedAtCreation().describe('Sum of the lines, before discount and exclusive tax, in minor units.'),
  /** Its discount; the API shows it as `total_discount_amounts`. */
  totalDiscountAmounts: field.json<InvoiceDiscountAmount[]>().whenMissing([]).fixedAtCreation().internal(),
  tax: field.integer().fixedAtCreation().describe('Every tax on it, inclusive ones (already in the subtotal) included, in minor units.'),
  /** Its tax by rate; the API shows it as `total_tax_amounts`. */
  totalTaxAmounts: field.json<InvoiceTaxAmount[]>().whenMissing([]).fixedAtCreation().internal(),
  total: field.integer().fixedAtCreation().describe('What it comes to: the subtotal, less the discount, plus exclusive tax, in minor units.'),
  amountDue: field.integer().fixedAtCreation().describe('What is to be charged, in minor units.'),
  amountPaid: field.integer().describe('What has been paid, in minor units.'),
  periodStart: field.timestamp().fixedAtCreation(),
  periodEnd: field.timestamp().fixedAtCreation(),
  attemptCount: field.integer().describe('Charges tried so far.'),
  nextPaymentAttempt: field.timestamp().nullable().describe('When the next charge is tried, or null when none is planned.'),
  /** The payment that paid it, or the latest attempt. */
  paymentId: field.text().nullable().shownAs('payment').describe('The payment that paid it, or its latest attempt.'),
  testClockId: field.text().nullable().fixedAtCreation().shownAs('test_clock'),
  /** The secret its hosted page is opened by (`hosted_invoice_url`); never its id. */
  hostedToken: field.text().fixedAtCreation().internal(),
  /** The attempt count whose failure the customer was emailed about last (once per failed charge); null: none. */
  failureEmailedAttempts: field.integer().nullable().internal().writtenByClaim(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
  finalizedAt: field.timestamp().nullable(),
  paidAt: field.timestamp().nullable(),
  voidedAt: field.timestamp().nullable(),
  updatedAt: field.timestamp().internal(),
});
export type Invoice = EntityOf<typeof invoices>;

/**
 * A customer portal session (`bps_…`, Stripe's `billing_portal.session`): the short-lived page at
 * `url` where one customer sees their subscriptions and invoices, changes the card they are billed to
 * and cancels (docs/billing.md). The page is opened by `token`, never by the id.
 */
export const billingPortalSessions = defineResource('billing_portal_sessions', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  customerId: field.text().fixedAtCreation().shownAs('customer').describe('The customer whose portal it is.'),
  returnUrl: field.text().nullable().fixedAtCreation().describe('Where the page\'s "Return" link goes, or null.'),
  locale: field.text().nullable().fixedAtCreation().describe("The page's language; null: the customer's browser's."),
  /** The secret the page is opened by (the end of `url`). */
  token: field.text().fixedAtCreation().internal(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
  expiresAt: field.timestamp().fixedAtCreation().describe('When `url` stops opening the page.'),
});
export type BillingPortalSession = EntityOf<typeof billingPortalSessions>;
