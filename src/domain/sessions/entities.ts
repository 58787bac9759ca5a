import { modes } from '../shared/events';
import { checkoutSessionStatuses } from '../payments/state-machine';
import { captureMethods, type PaymentMethodType } from '../payments/entities';
import { defineResource, field, type EntityOf } from '../shared/resource-shape';
import type { AppliedDiscount, AppliedTaxRate, ShippingRate } from '../pricing/entities';
import type { TotalDetails } from '../pricing/totals';
import { customerCreations, savePaymentMethodOptions } from '../customers/entities';
import type { Address, ShippingDetails } from '../addresses/entities';
import type { DynamicTaxRate } from '../pricing/entities';
import type { AdjustableQuantity, CustomField } from './shopper-option-types';

export interface LineItem {
  name: string;
  unitAmount: number;
  quantity: number;
  /** unitAmount × quantity, in minor units. */
  amount: number;
  /** The tax rates of the line, as they were when the session was made (docs/pricing.md). */
  taxRates?: AppliedTaxRate[];
  /** `dynamic_tax_rates`: the one whose jurisdiction matches the shopper's address applies (docs/pricing.md). */
  dynamicTaxRates?: DynamicTaxRate[];
  /** The shopper may change the quantity within these bounds (Stripe's `adjustable_quantity`). */
  adjustableQuantity?: AdjustableQuantity;
  /** The price (`price_…`) the line was made of, when it named one. */
  priceId?: string;
}

const checkoutSessionPurposes = ['payment', 'setup', 'subscription'] as const;

/** What a subscription-mode session's subscription starts with (Stripe's `subscription_data`). */
export interface SubscriptionData {
  trialPeriodDays: number | null;
  metadata: Record<string, string>;
  /** The price's renewal, copied when the session is made: what the page says ("then $20.00 every month"). */
  interval: 'day' | 'week' | 'month' | 'year';
  intervalCount: number;
}

/**
 * What the shopper is asked to pay, and whether they have (design.md §3, `cs_…`): the one definition
 * of its stored fields (resource-shape.ts). Its API object is `checkoutSessionSnapshot`.
 */
export const checkoutSessions = defineResource('checkout_sessions', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  status: field.oneOf(checkoutSessionStatuses).describe('`open` until paid (`complete`) or expired.'),
  currency: field.currency(),
  lineItems: field.json<LineItem[]>().internal(),
  amountSubtotal: field.integer().describe('Sum of the line items, in minor units'),
  amountTotal: field.integer().describe('What the shopper pays, in minor units'),
  /** The customer (`cus_…`) the session is for: given by the merchant, or made of its shopper. */
  customerId: field.text().nullable().shownAs('customer').describe('The customer the session is for, if any.'),
  /** Whether paying makes a customer of the shopper when the session has none. */
  customerCreation: field.oneOf(customerCreations),
  /** Whether paying saves the card to the customer: always (`on`), on the shopper's consent, or never (null). */
  paymentMethodSave: field.oneOf(savePaymentMethodOptions).nullable().internal(),
  /** A saved card paid on the page asks for its CVC again (the processor may require it too). */
  requireCvcRecollection: field.boolean().whenMissing(false).internal(),
  customerEmail: field.text().nullable(),
  successUrl: field.text().nullable(),
  cancelUrl: field.text().nullable(),
  captureMethod: field.oneOf(captureMethods),
  paymentMethodTypes: field.json<PaymentMethodType[]>(),
  locale: field.text().nullable(),
  metadata: field.json<Record<string, string>>(),
  clientReferenceId: field.text().nullable(),
  paymentLinkId: field.text().nullable().shownAs('payment_link').describe('The payment link that opened it, if any.'),
  expiresAt: field.timestamp().describe('When it stops taking payments'),
  completedAt: field.timestamp().nullable().describe('When it was paid'),
  expiredAt: field.timestamp().nullable().describe('When it expired: its time ran out, or the merchant expired it'),
  /** The successful payment, once there is one. */
  paymentId: field.text().nullable().shownAs('payment').describe('The payment that completed it, once there is one.'),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
  updatedAt: field.timestamp().internal(),
  // Shop options (docs/pricing.md).
  /** Discount, shipping and tax in `amountTotal` (computed by pricing/totals.ts only). */
  totalDetails: field.json<TotalDetails>().internal(),
  /** The page offers a promotion code field. */
  allowPromotionCodes: field.boolean().describe('Whether the page offers a promotion code field.'),
  /** At most one: the coupon (or promotion code) applied, its terms as applied. */
  discounts: field.json<AppliedDiscount[]>().internal(),
  /** Up to 5 shipping choices, priced in the session's currency; the shopper picks one. */
  shippingOptions: field.json<ShippingRate[]>().internal(),
  /** The chosen shipping option's id: the first one until the shopper picks another. */
  shippingRateId: field.text().nullable().internal(),
  /** `payment` (the default) takes one payment; `setup` saves a card without charging (the API's `mode`). */
  purpose: field
    .oneOf(checkoutSessionPurposes)
    .whenMissing('payment')
    .shownAs('mode')
    .describe('`payment` takes one payment; `setup` saves a card without charging; `subscription` starts a subscription to its recurring price.'),
  /** Subscription mode: the id (`sub_…`) of the subscription paying it starts, reserved at creation; the API shows it once complete. */
  subscriptionId: field.text().nullable().fixedAtCreation().internal(),
  /** Subscription mode: the trial and metadata the subscription starts with. */
  subscriptionData: field.json<SubscriptionData>().nullable().fixedAtCreation().internal(),
  /** A completed setup session: the payment method (`pm_…`) it saved. */
  setupPaymentMethodId: field.text().nullable().internal(),
  // Addresses (migration 0034, ADR 0068).
  /** `required`: the page asks for a billing address; `auto`: it does not. */
  billingAddressCollection: field.oneOf(['auto', 'required']).whenMissing('auto').describe('`required`: the page asks for a billing address.'),
  /** The countries the page ships to; null when the session asks for no shipping address. */
  shippingAddressCollection: field.json<{ allowedCountries: string[] } | null>().nullable().internal(),
  /** The shopper's shipping name and address, checked against its country's format. */
  shippingDetails: field.json<ShippingDetails>().nullable(),
  /** The shopper's billing address (Stripe's `customer_details.address`). */
  billingAddress: field.json<Address>().nullable().internal(),
  /** Up to 3 questions the page asks, with the shopper's answers once paid (docs/api.md). */
  customFields: field.json<CustomField[]>().whenMissing([]).internal(),
  /** `hosted`: the shopper is sent to `url`; `embedded`: the merchant's page mounts it with `clientSecret`. */
  uiMode: field.oneOf(['hosted', 'embedded']).whenMissing('hosted'),
  /** Embedded mode: where the top page goes after payment (`{CHECKOUT_SESSION_ID}` replaced). */
  returnUrl: field.text().nullable().describe('Embedded mode: where the page goes after payment.'),
  /** Embedded mode: what `Tillpoint.embed` is given to mount this session. */
  clientSecret: field.text().nullable().describe('Embedded mode: give it to `Tillpoint.embed` on your page. Null for a hosted session.'),
});

/** What the shopper is asked to pay, and whether they have. */
export type CheckoutSession = EntityOf<typeof checkoutSessions>;

/** What a checkout session is for: the API's `mode` (our `mode` is test or live). */
export type CheckoutSessionPurpose = (typeof checkoutSessionPurposes)[number];

/** A reusable link that opens a fresh checkout session for fixed items (`/l/:slug`). Its API object is `paymentLinkView`. */
export const paymentLinks = defineResource('payment_links', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  /** Its path, `/l/:slug`: the API shows the whole `url`. */
  slug: field.text().fixedAtCreation().internal(),
  currency: field.currency(),
  lineItems: field.json<PaymentLinkItem[]>().internal(),
  active: field.boolean(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
  // The shopper options every session the link opens carries (checked as a session's are).
  /** The page offers a promotion code field. */
  allowPromotionCodes: field.boolean().whenMissing(false).describe('Whether the sessions it opens offer a promotion code field.'),
  /** `required`: the page asks for a billing address. */
  billingAddressCollection: field.oneOf(['auto', 'required']).whenMissing('auto').describe('`required`: the page asks for a billing address.'),
  /** The countries the page ships to; null when it asks for no shipping address. */
  shippingAllowedCountries: field.json<string[]>().nullable().internal(),
  /** Shipping choices in the link's currency; each opened session gives them fresh ids. */
  shippingOptions: field.json<Array<Omit<ShippingRate, 'id'>>>().whenMissing([]).internal(),
  /** Up to 3 questions the page asks (no answers: each session gets its own). */
  customFields: field.json<CustomField[]>().whenMissing([]).internal(),
});

/** A reusable link that opens a fresh checkout session for fixed items. */
export type PaymentLink = EntityOf<typeof paymentLinks>;

/** An item of a payment link: a price's name and amount copied at creation, or an ad-hoc item. */
export type PaymentLinkItem = Omit<LineItem, 'amount' | 'priceId'> & { priceId?: string | null };

/** How often a recurring price renews, as Stripe's `recurring.interval`. */
export const priceIntervals = ['day', 'week', 'month', 'year'] as const;
export type PriceInterval = (typeof priceIntervals)[number];

/** The most intervals between renewals: a year in all (Stripe's bound). */
export const MAX_INTERVAL_COUNT: Readonly<Record<PriceInterval, number>> = { day: 365, week: 52, month: 12, year: 1 };

/** Something a merchant sells (`prod_…`). Its API object is `productView`. */
export const products = defineResource('products', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  name: field.text(),
  description: field.text().nullable(),
  active: field.boolean(),
  /** Its default price (`price_…`), which the API spells out (`default_price`). */
  defaultPriceId: field.text().nullable().internal(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
  updatedAt: field.timestamp().shownAs('updated').describe('Last change'),
});

/** Something a merchant sells. */
export type Product = EntityOf<typeof products>;

/** What a product costs in one currency, once or every interval (`price_…`); its amount never changes once made, like Stripe's. Its API object is `priceView`. */
export const prices = defineResource('prices', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  productId: field.text().fixedAtCreation().shownAs('product').describe('The product it prices (`prod_…`).'),
  currency: field.currency().fixedAtCreation(),
  unitAmount: field.integer().fixedAtCreation().describe('Price of one, in minor units'),
  active: field.boolean().describe('Whether new purchases may use it; an archived price keeps its history.'),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
  // Recurring prices (migration 0047): both null for a one-time price, both set for one that renews.
  /** How often it renews: every `recurringIntervalCount` of these; null for a one-time price. */
  recurringInterval: field.oneOf(priceIntervals).nullable().fixedAtCreation().internal(),
  /** How many intervals between renewals (at most a year in all); null for a one-time price. */
  recurringIntervalCount: field.integer().nullable().fixedAtCreation().internal(),
  nickname: field.text().nullable().describe('A name for the merchant, never shown to shoppers.'),
  metadata: field.json<Record<string, string>>().whenMissing({}),
});

/** What a product costs in one currency, once or every interval. */
export type Price = EntityOf<typeof prices>;

/** Whether a price renews (a subscription's) rather than being paid once. */
export function priceIsRecurring(price: Pick<Price, 'recurringInterval'>): boolean {
  return price.recurringInterval !== null;
}
