import { z } from 'zod';
import { eventTypes } from '../domain/shared/events';
import type { NewPaymentLinkItem, PaymentLinkOptions } from '../domain/sessions/use-cases/create-payment-link';
import type { NewProduct } from '../domain/sessions/use-cases/create-product';
import type { NewPrice } from '../domain/sessions/price-rules';
import { priceIntervals } from '../domain/sessions/entities';
import type { NewCoupon, NewPromotionCode, NewTaxRate } from '../domain/pricing/rules';
import { couponDurations } from '../domain/pricing/entities';
import {
  adjustableQuantityBody,
  allowPromotionCodesBody,
  billingAddressCollectionBody,
  customFieldsBody,
  listQuery,
  shippingAddressCollectionBody,
  shippingOptionsBody,
  shippingOptionsOf,
} from './schemas';
import { disputeStatuses } from '../domain/disputes/state-machine';
import { EVIDENCE_TEXT_MAX_LENGTH } from '../domain/disputes/rules';

const objectId = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'must be an object id');
const minorUnits = z.number().int();
const currency = z.string().regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code');
const unixSeconds = z.coerce.number().int('must be a Unix timestamp in seconds').min(0);

/** Body of `POST /v1/payments`: charge a customer's saved payment method from the server. */
export const createPaymentBody = z.strictObject({
  customer: objectId.meta({ description: 'The customer (`cus_…`) whose saved payment method is charged.' }),
  payment_method: objectId.meta({ description: "A saved payment method (`pm_…`) of that customer, kept by the account's processor." }),
  amount: minorUnits.meta({ description: "Minor units of `currency`; at least the currency's minimum, at most 99,999,999." }),
  currency,
  capture_method: z.enum(['automatic', 'manual']).optional().meta({ description: 'Default `automatic`; `manual` only authorizes (capture later).' }),
});

/** Body of `POST /v1/payments/:id/capture`; no amount captures everything authorized. */
export const captureBody = z.strictObject({ amount: minorUnits.optional() });

/** Body of `POST /v1/refunds`. */
export const createRefundBody = z.strictObject({
  payment: objectId,
  amount: minorUnits.min(1, 'must be at least 1').optional(),
  reason: z.enum(['requested_by_customer', 'duplicate', 'fraudulent']).optional(),
});

/** Query of `GET /v1/disputes`. */
export const listDisputesQuery = z.strictObject({
  ...listQuery,
  payment: objectId.optional(),
  status: z.enum(disputeStatuses).optional(),
});

/**
 * Body of `POST /v1/disputes/:id`: text evidence, a file (base64, JPEG, PNG or PDF, at most 4 MB),
 * or both; `category` is Braintree's evidence category.
 */
export const disputeEvidenceBody = z.strictObject({
  text: z.string().max(EVIDENCE_TEXT_MAX_LENGTH).optional(),
  file: z
    .strictObject({
      name: z.string().min(1).max(255),
      type: z.string().min(1).max(100).meta({ description: '`image/jpeg`, `image/png` or `application/pdf`.' }),
      data: z.base64().meta({ description: 'The file, base64.' }),
    })
    .optional(),
  category: z
    .string()
    .regex(/^[A-Z_]{1,64}$/, 'must be a Braintree evidence category such as PROOF_OF_FULFILLMENT')
    .optional(),
});

export const listRefundsQuery = z.strictObject({ ...listQuery, payment: objectId.optional() });

/**
 * Query of `GET /v1/events`. Time bounds are written the Stripe way, `created[gte]=…&created[lte]=…`
 * (Unix seconds, inclusive): the query-string parser keeps the brackets in the key.
 */
export const listEventsQuery = z.strictObject({
  ...listQuery,
  type: z.enum(eventTypes).optional(),
  'created[gte]': unixSeconds.optional(),
  'created[lte]': unixSeconds.optional(),
});

/** Query of lists with pagination only. */
export const pageQuery = z.strictObject({ ...listQuery });

const customerFields = {
  email: z.string().max(254).nullable().optional().meta({ description: "The shopper's email; null clears it." }),
  name: z.string().max(256).nullable().optional(),
  preferred_locales: z.array(z.string().max(35)).optional().meta({
    description:
      'Languages (BCP 47 tags, such as `de` or `pt-BR`), the preferred first, at most 10; replaces the list. Its emails use the first one Tillpoint has words for.',
  }),
  metadata: z.record(z.string(), z.string()).optional().meta({ description: 'Merged into what is there; an empty value removes its key.' }),
};

/** Body of `POST /v1/customers`. */
export const createCustomerBody = z.strictObject({
  ...customerFields,
  test_clock: objectId.optional().meta({ description: "Test mode: a test clock (`clock_…`) whose time bills this customer's subscriptions." }),
});

/** Body of `POST /v1/customers/:id`: only the fields given change. */
export const updateCustomerBody = z.strictObject(customerFields);

/** Query of `GET /v1/customers`. */
export const listCustomersQuery = z.strictObject({
  ...listQuery,
  email: z.string().max(254).optional().meta({ description: 'Only customers with this email (the whole address, any case).' }),
});

/** A price's `recurring`: how often it renews. */
const recurringBody = z
  .strictObject({
    interval: z.enum(priceIntervals),
    interval_count: z.number().int().optional().meta({
      description: 'Intervals between renewals (default 1): at most a year in all, so 365 days, 52 weeks, 12 months or 1 year.',
    }),
  })
  .meta({ description: "Makes it a recurring price, billed every `interval_count` `interval`s (a subscription's price)." });

const priceMetadata = z.record(z.string(), z.string());
const priceNickname = z.string().max(250).meta({ description: 'A name for the merchant (never shown to shoppers).' });

/** Body of `POST /v1/products`. */
export const createProductBody = z.strictObject({
  name: z.string().max(250),
  description: z.string().max(5000).optional(),
  active: z.boolean().optional(),
  default_price_data: z.strictObject({ currency, unit_amount: minorUnits.min(0, 'must not be negative'), recurring: recurringBody.optional() }).optional(),
});

/** Body of `POST /v1/products/:id`: a field left out is kept. */
export const updateProductBody = z.strictObject({
  name: z.string().max(250).optional(),
  description: z.string().max(5000).nullable().optional().meta({ description: 'Null or an empty string clears it.' }),
  active: z.boolean().optional().meta({ description: '`false` archives it: it takes no new prices.' }),
  default_price: objectId.optional().meta({ description: 'One of its own active prices (`price_…`).' }),
});

/** Body of `POST /v1/prices`. */
export const createPriceBody = z.strictObject({
  product: objectId.meta({ description: 'The active product (`prod_…`) it prices.' }),
  currency,
  unit_amount: minorUnits.min(0, 'must not be negative').meta({ description: 'Price of one, in minor units; it never changes once made.' }),
  recurring: recurringBody.optional(),
  nickname: priceNickname.optional(),
  metadata: priceMetadata.optional(),
  active: z.boolean().optional(),
});

/** Body of `POST /v1/prices/:id`: only these change; a new amount is a new price. */
export const updatePriceBody = z.strictObject({
  active: z.boolean().optional().meta({ description: '`false` archives it: new purchases may not use it.' }),
  nickname: priceNickname.nullable().optional(),
  metadata: priceMetadata.optional().meta({ description: 'Merged into its own; an empty value removes the key.' }),
});

/** Query of `GET /v1/prices`. */
export const listPricesQuery = z.strictObject({
  ...listQuery,
  product: objectId.optional().meta({ description: 'Only the prices of this product.' }),
  active: z.enum(['true', 'false']).optional().meta({ description: 'Only active (`true`) or archived (`false`) prices.' }),
  type: z.enum(['one_time', 'recurring']).optional(),
});

/** A create-price body in the use case's terms. */
export function priceInputOf(body: z.output<typeof createPriceBody>): NewPrice {
  return {
    currency: body.currency,
    unitAmount: body.unit_amount,
    recurring: recurringOf(body.recurring),
    nickname: body.nickname,
    metadata: body.metadata,
    active: body.active,
  };
}

const recurringOf = (recurring: z.output<typeof recurringBody> | undefined) =>
  recurring && { interval: recurring.interval, intervalCount: recurring.interval_count };

/**
 * Body of `POST /v1/payment_links`: each item names a price, or gives a name and an amount. The
 * shopper options are a session's own schema pieces (schemas.ts) and pass the session's rules.
 */
export const createPaymentLinkBody = z.strictObject({
  currency: currency.optional(),
  line_items: z
    .array(
      z.union([
        z.strictObject({ price: objectId, quantity: z.number().int(), adjustable_quantity: adjustableQuantityBody.optional() }),
        z.strictObject({ name: z.string(), unit_amount: minorUnits, quantity: z.number().int(), adjustable_quantity: adjustableQuantityBody.optional() }),
      ]),
    )
    .min(1, 'must have at least one item')
    .max(100),
  allow_promotion_codes: allowPromotionCodesBody.optional(),
  billing_address_collection: billingAddressCollectionBody.optional(),
  shipping_address_collection: shippingAddressCollectionBody.optional(),
  shipping_options: shippingOptionsBody.optional(),
  custom_fields: customFieldsBody.optional(),
});

/** Body of `POST /v1/payment_links/:id`. */
export const updatePaymentLinkBody = z.strictObject({ active: z.boolean().optional() });

/** A create-product body in the use case's terms (the merchant API and the dashboard take the same). */
export function productInputOf(body: z.output<typeof createProductBody>): NewProduct {
  return {
    name: body.name,
    description: body.description,
    active: body.active,
    defaultPrice: body.default_price_data && {
      currency: body.default_price_data.currency,
      unitAmount: body.default_price_data.unit_amount,
      recurring: recurringOf(body.default_price_data.recurring),
    },
  };
}

/** A payment link's items in the use case's terms. */
export function paymentLinkItemsOf(items: z.output<typeof createPaymentLinkBody>['line_items']): NewPaymentLinkItem[] {
  return items.map((item) => {
    const adjustable = item.adjustable_quantity ? { adjustableQuantity: item.adjustable_quantity } : {};
    return 'price' in item
      ? { priceId: item.price, quantity: item.quantity, ...adjustable }
      : { name: item.name, unitAmount: item.unit_amount, quantity: item.quantity, ...adjustable };
  });
}

/** A payment link's shopper options in the use case's terms (the merchant API and the dashboard take the same). */
export function paymentLinkOptionsOf(body: z.output<typeof createPaymentLinkBody>): PaymentLinkOptions {
  return {
    allowPromotionCodes: body.allow_promotion_codes,
    billingAddressCollection: body.billing_address_collection,
    shippingAllowedCountries: body.shipping_address_collection?.allowed_countries ?? null,
    shippingOptions: shippingOptionsOf(body.shipping_options),
    customFields: body.custom_fields,
  };
}

/** Body of `POST /v1/coupons`. */
export const createCouponBody = z.strictObject({
  name: z.string().max(40).optional(),
  percent_off: z.number().optional().describe('Percent off, more than 0 and at most 100, up to 2 decimals.'),
  amount_off: minorUnits.optional().describe('Amount off in minor units of `currency`.'),
  currency: currency.optional(),
  duration: z
    .enum(couponDurations)
    .optional()
    .describe("How long it applies to a subscription's invoices: `once` (the default), `repeating` or `forever`. A one-off checkout applies it once."),
  duration_in_months: z.number().int().optional().describe('`repeating` only, and required there: how many months it applies, 1 to 36.'),
  max_redemptions: z.number().int().optional(),
  redeem_by: z.number().int('must be a Unix timestamp in seconds').optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});

/** Body of `POST /v1/promotion_codes`. */
export const createPromotionCodeBody = z.strictObject({
  code: z.string().max(50).optional().describe('Generated when not given.'),
  coupon: objectId,
  active: z.boolean().optional(),
  max_redemptions: z.number().int().optional(),
  expires_at: z.number().int('must be a Unix timestamp in seconds').optional(),
  restrictions: z
    .strictObject({
      first_time_transaction: z.boolean().optional(),
      minimum_amount: minorUnits.optional(),
      minimum_amount_currency: currency.optional(),
    })
    .optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});

/** Query of `GET /v1/promotion_codes`. */
export const listPromotionCodesQuery = z.strictObject({ ...listQuery, code: z.string().min(1).max(50).optional() });

const unixDate = (seconds: number | undefined) => (seconds === undefined ? null : new Date(seconds * 1000));

/** A coupon in the use case's terms. */
export function couponInputOf(body: z.output<typeof createCouponBody>): NewCoupon {
  return {
    name: body.name,
    percentOff: body.percent_off,
    amountOff: body.amount_off,
    currency: body.currency,
    duration: body.duration,
    durationInMonths: body.duration_in_months,
    maxRedemptions: body.max_redemptions,
    redeemBy: unixDate(body.redeem_by),
    metadata: body.metadata,
  };
}

/** A promotion code in the use case's terms. */
export function promotionCodeInputOf(body: z.output<typeof createPromotionCodeBody>): NewPromotionCode {
  return {
    code: body.code,
    coupon: body.coupon,
    active: body.active,
    maxRedemptions: body.max_redemptions,
    expiresAt: unixDate(body.expires_at),
    restrictions: body.restrictions && {
      firstTimeTransaction: body.restrictions.first_time_transaction,
      minimumAmount: body.restrictions.minimum_amount,
      minimumAmountCurrency: body.restrictions.minimum_amount_currency,
    },
    metadata: body.metadata,
  };
}

/** Body of `POST /v1/tax_rates`. */
export const createTaxRateBody = z.strictObject({
  display_name: z.string().max(50),
  description: z.string().max(500).optional(),
  percentage: z.number().describe('0–100, up to 4 decimals.'),
  inclusive: z.boolean(),
  country: z.string().max(2).optional(),
  state: z.string().max(3).optional(),
  jurisdiction: z.string().max(50).optional(),
  active: z.boolean().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});

/** A tax rate in the use case's terms. */
export function taxRateInputOf(body: z.output<typeof createTaxRateBody>): NewTaxRate {
  return {
    displayName: body.display_name,
    description: body.description,
    percentage: body.percentage,
    inclusive: body.inclusive,
    country: body.country,
    state: body.state,
    jurisdiction: body.jurisdiction,
    active: body.active,
    metadata: body.metadata,
  };
}
