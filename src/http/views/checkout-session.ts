import { currencyBoundMethod } from '../../domain/payments/bank-debits';
import { maskEmail } from '../../domain/sessions/customer-email';
import { customFieldSnapshot } from '../../domain/sessions/shopper-options';
import { checkoutSessionSnapshot } from '../../domain/shared/event-payloads';
import { sessionTaxBreakdown } from '../../domain/sessions/rules';
import { negotiateLocale } from '../../domain/shared/locale';
import type { Membership } from '../../domain/team/entities';
import type { CheckoutPage } from '../../domain/sessions/use-cases/get-checkout-page';
import { dashboardCustomerDetails, seesEmails } from './payment';
import { unixTime } from './resource';
import type { CheckoutSession } from '../../domain/sessions/entities';

/** The checkout session as the merchant API shows it: the same object its events carry. */
export const checkoutSessionView = checkoutSessionSnapshot;

/** The session as the dashboard shows it: emails masked for members who do not see them. */
export function dashboardSessionView(session: CheckoutSession, membership: Membership, publicUrl: string) {
  const view = checkoutSessionView(session, publicUrl);
  return {
    ...view,
    customer_email: seesEmails(membership) ? view.customer_email : maskEmail(view.customer_email),
    customer_details: dashboardCustomerDetails(view.customer_details, membership),
  };
}

/** Where the shopper goes once the session is paid. */
export function completionUrl(session: CheckoutSession, publicUrl: string): string {
  // Embedded: the top page goes to return_url (the page inside the frame tells /js/embed.js).
  if (session.uiMode === 'embedded' && session.returnUrl) return session.returnUrl.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id));
  return session.successUrl ? session.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id)) : `${publicUrl}/c/${session.id}/done`;
}

/**
 * What the shopper's page may see of a session: no metadata, no other payments, no internal ids.
 * `GET /api/checkout/sessions/:id` answers it, and the server-rendered page inlines it.
 */
export function publicCheckoutSessionView(page: CheckoutPage, publicUrl: string, acceptLanguage?: string) {
  const { session, account, payment } = page;
  return {
    id: session.id,
    status: session.status,
    livemode: session.mode === 'live',
    merchant: {
      name: account.branding.displayName ?? account.name,
      logo_url: account.branding.logoUrl,
      accent_color: account.branding.accentColor,
    },
    currency: session.currency,
    // The locale the page shows: the session's, else the shopper's Accept-Language, else English.
    locale: negotiateLocale({ sessionLocale: session.locale, acceptLanguage }),
    line_items: session.lineItems.map((item) => ({
      name: item.name,
      unit_amount: item.unitAmount,
      quantity: item.quantity,
      amount: item.amount,
      ...(item.taxRates?.length
        ? { tax_rates: item.taxRates.map((rate) => ({ display_name: rate.displayName, percentage: rate.percentage, inclusive: rate.inclusive })) }
        : {}),
      ...(item.adjustableQuantity
        ? { adjustable_quantity: { enabled: true, minimum: item.adjustableQuantity.minimum, maximum: item.adjustableQuantity.maximum } }
        : {}),
    })),
    // Questions the page asks before paying (shopper-options.ts), answered with the payment.
    custom_fields: (session.customFields ?? []).map(customFieldSnapshot),
    ui_mode: session.uiMode ?? 'hosted',
    amount_total: session.amountTotal,
    // Shop options (docs/pricing.md): the breakdown the page shows, and its promotion code field.
    amount_subtotal: session.amountSubtotal,
    total_details: {
      amount_discount: session.totalDetails.amountDiscount,
      amount_shipping: session.totalDetails.amountShipping,
      amount_tax: session.totalDetails.amountTax,
      // Each tax by rate: the page says "Includes VAT …" for an inclusive one instead of adding it.
      breakdown: {
        taxes: sessionTaxBreakdown(session).map((tax) => ({
          amount: tax.amount,
          rate: { display_name: tax.displayName, percentage: tax.percentage, inclusive: tax.inclusive },
        })),
      },
    },
    allow_promotion_codes: session.allowPromotionCodes,
    discount: session.discounts[0]
      ? {
          code: session.discounts[0].promotionCode?.code ?? null,
          name: session.discounts[0].coupon.name,
          percent_off: session.discounts[0].coupon.percentOff,
          amount_off: session.discounts[0].coupon.amountOff,
        }
      : null,
    shipping_options: session.shippingOptions.map((option) => ({
      id: option.id,
      display_name: option.displayName,
      amount: option.amount,
      delivery_estimate: option.deliveryEstimate,
    })),
    shipping_rate: session.shippingRateId,
    // Addresses (ADR 0068): what the page asks for, and what the shopper gave.
    billing_address_collection: session.billingAddressCollection,
    shipping_address_collection: session.shippingAddressCollection && { allowed_countries: session.shippingAddressCollection.allowedCountries },
    shipping_details: session.shippingDetails,
    billing_address: session.billingAddress,
    customer_email: session.customerEmail,
    payment_method_types: session.paymentMethodTypes,
    // `shopper_choice`: the page asks for consent; `on`: the page says the card will be saved.
    save_payment_method: session.paymentMethodSave,
    // `setup`: the page saves the card without charging ("Save card" instead of Pay).
    mode: session.purpose,
    // Subscription mode: what renews and when, for "Then $20.00 every month" (after a trial, if any).
    subscription: subscriptionTerms(session),
    saved_payment_methods: page.savedPaymentMethods.map((method) => ({
      id: method.id,
      brand: method.brand,
      last4: method.last4,
      exp_month: method.expMonth,
      exp_year: method.expYear,
    })),
    // The page asks a saved card's CVC again before paying with it.
    saved_card_cvc_required: page.savedCardCvcRequired,
    expires_at: unixTime(session.expiresAt),
    cancel_url: session.cancelUrl,
    redirect_url: session.status === 'complete' ? completionUrl(session, publicUrl) : null,
    payment: payment && {
      status: payment.status,
      amount: payment.amount,
      type: payment.paymentMethod?.type ?? null,
      // A local payment method by its own name (`iDEAL`), as the receipt says it.
      method_name: payment.paymentMethod ? (currencyBoundMethod(payment.paymentMethod.type)?.name ?? null) : null,
      brand: payment.paymentMethod?.brand ?? null,
      last4: payment.paymentMethod?.last4 ?? null,
    },
    processor: { name: page.processor.name, ...page.processor.client },
  };
}

/** A subscription session's renewal: the interval, the trial, and the charge per period (the price × quantity). */
function subscriptionTerms(session: CheckoutSession) {
  const data = session.subscriptionData;
  const line = session.lineItems[0];
  if (session.purpose !== 'subscription' || !data || !line) return null;
  return {
    interval: data.interval,
    interval_count: data.intervalCount,
    trial_period_days: data.trialPeriodDays,
    amount: line.unitAmount * line.quantity,
  };
}
