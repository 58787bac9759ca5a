import { modes } from '../shared/events';
import { defineResource, field, type EntityOf } from '../shared/resource-shape';

/**
 * How long a coupon applies to a subscription's invoices (docs/billing.md): its first invoice only
 * (`once`), those made within `duration_in_months` of its start (`repeating`), or all (`forever`).
 * A one-off checkout applies any coupon once.
 */
export const couponDurations = ['once', 'repeating', 'forever'] as const;
export type CouponDuration = (typeof couponDurations)[number];

/** The longest a `repeating` coupon lasts, in months. */
export const MAX_DURATION_IN_MONTHS = 36;

/**
 * A discount's terms (`coupon`, Stripe's object): a percentage or an amount in one currency off a
 * whole session, or off each invoice of a subscription while its `duration` lasts. Its API object
 * is `couponView`.
 */
export const coupons = defineResource('coupons', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  name: field.text().nullable(),
  /** Percent off, 0 < p ≤ 100, up to 2 decimals; null when `amountOff` is set. */
  percentOff: field.decimal().nullable().describe('Percent off the subtotal (up to 2 decimals), or null.'),
  /** Minor units of `currency` off; null when `percentOff` is set. */
  amountOff: field.integer().nullable().describe('Amount off the subtotal, in minor units'),
  currency: field.currency().nullable().describe("`amount_off`'s currency; null for a percentage."),
  duration: field.oneOf(couponDurations).describe('How long it applies to a subscription: its first invoice, some months, or for ever.'),
  durationInMonths: field.integer().nullable().describe('`repeating`: how many months (1–36) from its start it applies; null otherwise.'),
  maxRedemptions: field.integer().nullable(),
  redeemBy: field.timestamp().nullable().describe('Last moment it can be redeemed'),
  metadata: field.json<Record<string, string>>(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
});

/** A discount's terms: a percentage or an amount off a whole session, or a subscription's invoices. */
export type Coupon = EntityOf<typeof coupons>;

/** What a promotion code asks of the session it applies to. */
export interface PromotionCodeRestrictions {
  /** Only for an email that has never paid this account before. */
  firstTimeTransaction: boolean;
  /** The session's subtotal must reach this amount of `minimumAmountCurrency`. */
  minimumAmount: number | null;
  minimumAmountCurrency: string | null;
}

/** A code shoppers type that applies a coupon (`promo_…`), with its own limits. Its API object is `promotionCodeView`. */
export const promotionCodes = defineResource('promotion_codes', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  code: field.text().describe('What the shopper types; matched whatever the case.'),
  /** The coupon it applies: the API spells it out (`coupon`). */
  couponId: field.text().internal(),
  active: field.boolean(),
  maxRedemptions: field.integer().nullable(),
  expiresAt: field.timestamp().nullable().describe('When it stops applying'),
  restrictions: field.json<PromotionCodeRestrictions>().internal(),
  metadata: field.json<Record<string, string>>(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
});

/** A code shoppers type that applies a coupon, with its own limits. */
export type PromotionCode = EntityOf<typeof promotionCodes>;

/** How often a coupon or code has been redeemed (sessions complete with it), and whether it still can be. */
export interface Redemptions {
  timesRedeemed: number;
  /** Unexpired, active, and under its `max_redemptions`. */
  valid: boolean;
}

/**
 * A discount as a session keeps it: the coupon's terms copied at the time it was applied (a
 * session is priced from what it stores), and the promotion code that brought it, if any.
 */
export interface AppliedDiscount {
  coupon: { id: string; name: string | null; percentOff: number | null; amountOff: number | null; currency: string | null };
  promotionCode: { id: string; code: string } | null;
}

/** A tax rate (`txr_…`, Stripe's object): a percentage, inclusive or exclusive, for a jurisdiction. Its API object is `taxRateView`. */
export const taxRates = defineResource('tax_rates', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  displayName: field.text(),
  description: field.text().nullable(),
  /** Up to 4 decimals: 8.875. */
  percentage: field.decimal().describe('Percent, up to 4 decimals.'),
  inclusive: field.boolean().describe('Already in the price (true) or added to it (false).'),
  /** ISO 3166-1 alpha-2, upper case. */
  country: field.text().nullable().describe('ISO 3166-1 alpha-2.'),
  /** ISO 3166-2 subdivision code without the country (`CA` for California). */
  state: field.text().nullable().describe('ISO 3166-2 subdivision, without the country.'),
  jurisdiction: field.text().nullable(),
  active: field.boolean(),
  metadata: field.json<Record<string, string>>(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
});

/** A percentage, inclusive or exclusive, for a jurisdiction. */
export type TaxRate = EntityOf<typeof taxRates>;

/** A tax rate as a line item keeps it: its terms copied when the session was made. */
export interface AppliedTaxRate {
  id: string;
  displayName: string;
  percentage: number;
  inclusive: boolean;
}

/** A shipping choice of a session (Stripe's `shipping_rate_data` of type `fixed_amount`), `shr_…`. */
export interface ShippingRate {
  id: string;
  displayName: string;
  /** Minor units of the session's currency. */
  amount: number;
  deliveryEstimate: {
    minimum: { unit: DeliveryUnit; value: number } | null;
    maximum: { unit: DeliveryUnit; value: number } | null;
  } | null;
}

export type DeliveryUnit = 'hour' | 'day' | 'business_day' | 'week' | 'month';

/** A line's `dynamic_tax_rates` entry: the rate's terms and the jurisdiction it is matched by. */
export interface DynamicTaxRate extends AppliedTaxRate {
  country: string;
  state: string | null;
}
