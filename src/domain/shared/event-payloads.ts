import {
  bankDetails,
  payments,
  refunds,
  usBankAccountDetails,
  type BankDetails,
  type UsBankAccountDetails,
  type Payment,
  type Refund,
} from '../payments/entities';
import { isLocalPaymentMethod } from '../payments/payment-method-types';
import { events, type DomainEvent } from './events';
import { checkoutSessions, type CheckoutSession } from '../sessions/entities';
import { apiFieldsOf, apiFieldsOrBlank, apiObjectOf } from './resource-shape';
import type { CheckoutPageChange } from '../checkout-page/entities';
import { disputeEvidence, disputes, type Dispute } from '../disputes/entities';
import type { TotalDetails } from '../pricing/totals';
import { customers, savedPaymentMethods, type Customer, type SavedPaymentMethod } from '../customers/entities';
import { customFieldSnapshot } from '../sessions/shopper-options';

/*
 * What an event carries. An event stores a snapshot of its object at the moment of the change, and a
 * webhook delivers the event, signed (docs/webhooks.md). Both are part of the domain's contract: they
 * are written by the use cases in the same transaction as the change, kept in the events table, and
 * must read the same tomorrow as today. So the core owns these few shapes, and only these; every
 * other reply shape is the HTTP layer's (src/http/views/). The merchant API answers the same objects
 * for these resources (`GET /v1/payments/:id` is what `payment.succeeded` carries), by reusing these
 * builders.
 */

/** Seconds since the epoch, the way events and the API show every time. */
export function unixTime(date: Date | null): number | null {
  return date === null ? null : Math.floor(date.getTime() / 1000);
}

/** Stripe's `total_details`: what of the total is discount, shipping and tax. */
function totalDetailsSnapshot(details: TotalDetails) {
  return { amount_discount: details.amountDiscount, amount_shipping: details.amountShipping, amount_tax: details.amountTax };
}

/**
 * The checkout session as its events carry it (and the merchant API shows it): its plain fields as
 * its definition shows them (`checkoutSessions`), then the ones shaped here.
 */
export function checkoutSessionSnapshot(session: CheckoutSession, publicUrl: string) {
  return {
    ...apiObjectOf('checkout.session', checkoutSessions, session),
    url: session.status === 'open' ? `${publicUrl}/c/${session.id}` : null,
    line_items: session.lineItems.map((item) => ({
      name: item.name,
      unit_amount: item.unitAmount,
      quantity: item.quantity,
      amount: item.amount,
      ...(item.taxRates?.length ? { tax_rates: item.taxRates.map((rate) => rate.id) } : {}),
      ...(item.dynamicTaxRates?.length ? { dynamic_tax_rates: item.dynamicTaxRates.map((rate) => rate.id) } : {}),
      ...(item.adjustableQuantity ? { adjustable_quantity: item.adjustableQuantity } : {}),
    })),
    payment_method_options:
      session.paymentMethodSave || session.requireCvcRecollection
        ? { card: { save: session.paymentMethodSave, require_cvc_recollection: session.requireCvcRecollection } }
        : null,
    // Shop options (docs/pricing.md).
    total_details: totalDetailsSnapshot(session.totalDetails),
    discounts: session.discounts.map((discount) => ({
      coupon: discount.coupon.id,
      promotion_code: discount.promotionCode?.id ?? null,
    })),
    shipping_options: session.shippingOptions.map((option) => ({
      shipping_amount: option.amount,
      shipping_rate: {
        id: option.id,
        display_name: option.displayName,
        fixed_amount: { amount: option.amount, currency: session.currency.toLowerCase() },
        delivery_estimate: option.deliveryEstimate,
      },
    })),
    shipping_cost: session.shippingRateId && { amount_total: session.totalDetails.amountShipping, shipping_rate: session.shippingRateId },
    // Addresses (docs/api.md).
    shipping_address_collection: session.shippingAddressCollection && { allowed_countries: session.shippingAddressCollection.allowedCountries },
    customer_details: { email: session.customerEmail, address: session.billingAddress },
    // Setup mode (docs/customers.md): what the session saved, in the shape of Stripe's SetupIntent result.
    setup_intent: session.setupPaymentMethodId
      ? { object: 'setup_intent' as const, status: 'succeeded' as const, customer: session.customerId, payment_method: session.setupPaymentMethodId }
      : null,
    // Custom fields, with the shopper's answers once paid.
    custom_fields: session.customFields.map(customFieldSnapshot),
    // Subscription mode (docs/billing.md): the subscription paying it started, once complete.
    subscription: session.status === 'complete' ? session.subscriptionId : null,
  };
}

/**
 * The payment as its events carry it (and the merchant API shows it): its plain fields as its
 * definition shows them (`payments`), then the card or wallet, 3-D Secure, the totals, the
 * shopper's details and the custom fields, shaped here.
 */
export function paymentSnapshot(payment: Payment) {
  const method = payment.paymentMethod;
  return {
    ...apiObjectOf('payment', payments, payment),
    payment_method: method && {
      type: method.type,
      brand: method.brand,
      last4: method.last4,
      exp_month: method.expMonth,
      exp_year: method.expYear,
      fingerprint: method.fingerprint,
      payer_email: method.payerEmail ?? null,
      username: method.username ?? null,
      // A local payment method's bank, under the method's own name (Stripe's `ideal: {bank}`).
      ...(isLocalPaymentMethod(method.type) ? { [method.type]: bankSnapshot(method.bank ?? null) } : {}),
      // A bank debit's account: its last 4 digits only, never the number (Stripe's `us_bank_account`).
      ...(method.type === 'us_bank_account' ? { us_bank_account: usBankAccountSnapshot(method.usBankAccount ?? null) } : {}),
    },
    three_d_secure: payment.threeDSecure && {
      status: payment.threeDSecure.status,
      liability_shifted: payment.threeDSecure.liabilityShifted,
    },
    total_details: payment.totalDetails && totalDetailsSnapshot(payment.totalDetails),
    customer_details: { email: payment.customerEmail, address: payment.billingAddress },
    custom_fields: payment.customFields.map(customFieldSnapshot),
  };
}

/** The bank a local payment was paid from, as its definition shows it (`bankDetails`): never its account number. */
export const bankSnapshot = (bank: BankDetails | null) => apiFieldsOrBlank(bankDetails, bank);

/** A US bank account that paid (ACH), as its definition shows it (`usBankAccountDetails`): only its last 4 digits. */
export const usBankAccountSnapshot = (account: UsBankAccountDetails | null) => apiFieldsOrBlank(usBankAccountDetails, account);

/** The refund as its events carry it (and the merchant API shows it): its fields as its definition shows them (`refunds`). */
export function refundSnapshot(refund: Refund) {
  return apiObjectOf('refund', refunds, refund);
}

/**
 * The dispute as its events carry it (and the merchant API shows it): its fields as its definition
 * shows them (`disputes`), and its evidence as that one's does (a file's name, type and size only).
 */
export function disputeSnapshot(dispute: Dispute) {
  return {
    ...apiObjectOf('dispute', disputes, dispute),
    evidence: dispute.evidence.map((evidence) => apiFieldsOf(disputeEvidence, evidence)),
  };
}

/** The customer as its events carry it (and the merchant API shows it): its fields as its definition shows them (`customers`). */
export function customerSnapshot(customer: Customer) {
  return apiObjectOf('customer', customers, customer);
}

/**
 * A saved payment method as its events carry it (and the merchant API shows it): its fields as its
 * definition shows them (`savedPaymentMethods`), and what may be shown of the card. Never the card.
 */
export function paymentMethodSnapshot(method: SavedPaymentMethod) {
  return {
    ...apiObjectOf('payment_method', savedPaymentMethods, method),
    // Stripe's shape: a card's fields under `card`, a bank account's under `us_bank_account` (never its number).
    ...(method.type === 'us_bank_account'
      ? { us_bank_account: usBankAccountSnapshot(method.usBankAccount) }
      : { card: { brand: method.brand, last4: method.last4, exp_month: method.expMonth, exp_year: method.expYear, fingerprint: method.fingerprint } }),
  };
}

/** A change of the checkout page as the `checkout_page.changed` event carries it (and the dashboard shows it). */
export function checkoutPageChangeSnapshot(change: CheckoutPageChange) {
  return {
    id: change.id,
    object: 'checkout_page_change' as const,
    baseline_digest: change.baselineDigest,
    digest: change.digest,
    differences: change.differences,
    detected_at: unixTime(change.detectedAt),
    resolved_at: unixTime(change.resolvedAt),
    resolution: change.resolution,
  };
}

/** The event itself, as a webhook delivers it (and `GET /v1/events/:id` answers it): its fields as its definition shows them (`events`), and the object. */
export function eventEnvelope(event: DomainEvent) {
  return { ...apiObjectOf('event', events, event), data: { object: event.data } };
}
