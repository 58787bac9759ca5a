import { apiObjectOf } from '../shared/resource-shape';
import { newEvent, type DomainEvent, type EventType } from '../shared/events';
import { prices, type Price } from '../sessions/entities';
import {
  billingPortalSessions,
  invoices,
  subscriptions,
  testClocks,
  type BillingPortalSession,
  type Invoice,
  type Subscription,
  type SubscriptionDiscount,
  type TestClock,
} from './entities';

/** A price as the API and its events show it: its fields, and its renewal spelled out (`recurring`, `type`). */
export function priceSnapshot(price: Price) {
  const recurring =
    price.recurringInterval && price.recurringIntervalCount ? { interval: price.recurringInterval, interval_count: price.recurringIntervalCount } : null;
  return { ...apiObjectOf('price', prices, price), recurring, type: recurring ? ('recurring' as const) : ('one_time' as const) };
}

/** A subscription's discount as the API shows it (Stripe's `discount`), or null. */
function discountSnapshot(discount: SubscriptionDiscount | null) {
  if (!discount) return null;
  const { coupon } = discount;
  return {
    object: 'discount' as const,
    coupon: {
      id: coupon.id,
      object: 'coupon' as const,
      name: coupon.name,
      percent_off: coupon.percentOff,
      amount_off: coupon.amountOff,
      currency: coupon.currency?.toLowerCase() ?? null,
      duration: coupon.duration,
      duration_in_months: coupon.durationInMonths,
    },
    promotion_code: discount.promotionCode?.id ?? null,
    start: discount.start,
    end: discount.end,
  };
}

/** A subscription as the API and its events show it: its fields, its discount, and its one item (the price and quantity billed). */
export function subscriptionSnapshot(subscription: Subscription, price: Price) {
  return {
    ...apiObjectOf('subscription', subscriptions, subscription),
    discount: discountSnapshot(subscription.discount),
    items: {
      object: 'list' as const,
      data: [{ object: 'subscription_item' as const, price: priceSnapshot(price), quantity: subscription.quantity }],
    },
  };
}

/** Where the customer sees an invoice and pays it (docs/billing.md, "The hosted invoice page"). */
export function hostedInvoiceUrl(invoice: Pick<Invoice, 'hostedToken'>, publicUrl: string): string {
  return `${publicUrl}/i/${invoice.hostedToken}`;
}

/** An invoice as the API and its events show it: its fields, its hosted page, its discount and tax by rate, and its lines as a list. */
export function invoiceSnapshot(invoice: Invoice, publicUrl: string) {
  return {
    ...apiObjectOf('invoice', invoices, invoice),
    hosted_invoice_url: hostedInvoiceUrl(invoice, publicUrl),
    amount_remaining: invoice.status === 'paid' || invoice.status === 'void' ? 0 : invoice.amountDue - invoice.amountPaid,
    total_discount_amounts: invoice.totalDiscountAmounts.map((off) => ({ amount: off.amount, coupon: off.couponId, promotion_code: off.promotionCodeId })),
    total_tax_amounts: invoice.totalTaxAmounts.map((tax) => ({ amount: tax.amount, inclusive: tax.inclusive, tax_rate: tax.taxRateId })),
    lines: {
      object: 'list' as const,
      data: invoice.lines.map((line) => ({
        id: line.id,
        object: 'line_item' as const,
        description: line.description,
        amount: line.amount,
        currency: invoice.currency.toLowerCase(),
        price: line.priceId,
        quantity: line.quantity,
        proration: line.proration,
        period: { start: line.periodStart, end: line.periodEnd },
      })),
    },
  };
}

/**
 * The invoice a renewal is to make, as `invoice.upcoming` carries it (Stripe's upcoming invoice): an
 * invoice's shape with `id: null` and `status: "draft"`, no hosted page (`hosted_invoice_url: null`)
 * and no payment yet; `created` and `next_payment_attempt` are the renewal's moment.
 */
export function upcomingInvoiceSnapshot(preview: Invoice) {
  // The page's URL is made from a token the preview does not keep: null replaces it, as the id.
  return { ...invoiceSnapshot(preview, ''), id: null, hosted_invoice_url: null };
}

/** A test clock as the API shows it. */
export function testClockSnapshot(clock: TestClock) {
  return apiObjectOf('test_helpers.test_clock', testClocks, clock);
}

export type SubscriptionEventType = Extract<EventType, `customer.subscription.${string}`>;
export type InvoiceEventType = Extract<EventType, `invoice.${string}`>;

export const subscriptionEvent = (subscription: Subscription, price: Price, type: SubscriptionEventType, at: Date): DomainEvent =>
  newEvent(subscription, type, subscriptionSnapshot(subscription, price), at);

export const invoiceEvent = (invoice: Invoice, type: Exclude<InvoiceEventType, 'invoice.upcoming'>, at: Date, publicUrl: string): DomainEvent =>
  newEvent(invoice, type, invoiceSnapshot(invoice, publicUrl), at);

/** Where a customer portal session's page is (docs/billing.md, "The customer portal"). */
export function portalUrl(session: Pick<BillingPortalSession, 'token'>, publicUrl: string): string {
  return `${publicUrl}/p/${session.token}`;
}

/** A customer portal session as the API shows it: its fields and its page's `url`. */
export function portalSessionSnapshot(session: BillingPortalSession, publicUrl: string) {
  return { ...apiObjectOf('billing_portal.session', billingPortalSessions, session), url: portalUrl(session, publicUrl) };
}

/** `invoice.upcoming` of `subscription`'s next renewal: about the subscription (the preview has no id). */
export const upcomingInvoiceEvent = (subscription: Subscription, preview: Invoice, at: Date): DomainEvent =>
  newEvent(subscription, 'invoice.upcoming', upcomingInvoiceSnapshot(preview), at);
