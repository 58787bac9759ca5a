import { z } from 'zod';
import { paymentMethodTypes } from '../domain/payments/entities';
import { localPaymentMethodTypes } from '../domain/payments/payment-method-types';
import { usBankAccountHolderTypes, usBankAccountTypes } from '../domain/payments/bank-debits';
import { TillpointError } from '../domain/shared/errors';
import type { NewShippingOption } from '../domain/sessions/rules';
import type { CheckoutSessionRequest } from '../domain/sessions/use-cases/create-checkout-session';
import type { DiscountReference } from '../domain/pricing/discount-lookup';

/**
 * A URL given to us (`success_url`, a webhook endpoint's `url`, the logo…). URL parsers drop CR, LF
 * and TAB silently, so such a URL would pass the domain's check and be stored, sent back and put in
 * webhook events as sent: control characters (C0, DEL, C1) are refused by name instead.
 */
export const urlText = (max = 2048) =>
  z
    .string()
    .max(max)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this check refuses.
    .refine((value) => !/[\u0000-\u001f\u007f-\u009f]/.test(value), 'must not contain control characters (such as CR, LF or TAB)');

const deliveryEstimateBound = z.strictObject({ unit: z.enum(['hour', 'day', 'business_day', 'week', 'month']), value: z.number().int() });

/** Stripe's `adjustable_quantity`: the shopper picks the quantity on the page (bounds checked in the domain). */
export const adjustableQuantityBody = z
  .strictObject({
    enabled: z.boolean(),
    minimum: z.number().int().optional().meta({ description: 'Lowest quantity, 0 (the shopper may remove the item; never the last one) by default.' }),
    maximum: z.number().int().optional().meta({ description: 'Highest quantity, 99 by default, at most 999.' }),
  })
  .meta({ description: 'Let the shopper change the quantity on the page; the server prices the session again.' });

const customFieldLengths = z.strictObject({ minimum_length: z.number().int().optional(), maximum_length: z.number().int().optional() });

/** Stripe's `custom_fields[]`: up to 3 questions the page asks (rules in the domain's shopper-options.ts). */
export const customFieldsBody = z
  .array(
    z.strictObject({
      key: z.string().max(200),
      label: z.strictObject({ type: z.literal('custom'), custom: z.string().max(50) }),
      type: z.enum(['text', 'numeric', 'dropdown']),
      optional: z.boolean().optional(),
      dropdown: z.strictObject({ options: z.array(z.strictObject({ label: z.string().max(100), value: z.string().max(100) })).max(200) }).optional(),
      text: customFieldLengths.optional(),
      numeric: customFieldLengths.optional(),
    }),
  )
  .max(3)
  .meta({ description: 'Up to 3 questions the page asks (`text`, `numeric` digits only, or `dropdown`); answers are on the session and the payment.' });

/** Stripe's `allow_promotion_codes` (sessions and payment links). */
export const allowPromotionCodesBody = z.boolean().describe('Show a promotion code field on the page.');

/** Stripe's `shipping_options[].shipping_rate_data` of type `fixed_amount` (sessions and payment links). */
export const shippingOptionsBody = z
  .array(
    z.strictObject({
      shipping_rate_data: z.strictObject({
        type: z.literal('fixed_amount').optional(),
        display_name: z.string(),
        fixed_amount: z.strictObject({ amount: z.number().int(), currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code') }),
        delivery_estimate: z
          .strictObject({
            minimum: deliveryEstimateBound.optional(),
            maximum: deliveryEstimateBound.optional(),
          })
          .optional(),
      }),
    }),
  )
  .max(5)
  .describe('Up to 5 shipping choices; the first is chosen until the shopper picks another.');

/** Stripe's `billing_address_collection` (sessions and payment links). */
export const billingAddressCollectionBody = z.enum(['auto', 'required']).meta({
  description: '`required`: the page asks for a billing address; `auto` (default): it does not.',
});

/** Stripe's `shipping_address_collection` (sessions and payment links); the countries are checked in the domain. */
export const shippingAddressCollectionBody = z
  .strictObject({
    allowed_countries: z
      .array(z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter ISO 3166-1 code'))
      .min(1)
      .max(250),
  })
  .meta({ description: 'The page asks for a shipping address in one of `allowed_countries` (ISO 3166-1 alpha-2), laid out as that country writes addresses.' });

/** Body of `POST /v1/checkout/sessions`. Unknown fields are refused by name. */
export const createCheckoutSessionBody = z.strictObject({
  mode: z.enum(['payment', 'setup', 'subscription']).optional().meta({
    description:
      "`payment` (default) takes one payment for `line_items`; `setup` saves the shopper's card to the customer without charging (no `line_items`); `subscription` starts a subscription to its one line's recurring `price`, charging the first period now (or nothing during a trial) and saving the card to a customer.",
  }),
  subscription_data: z
    .strictObject({
      trial_period_days: z.number().int().optional().meta({ description: 'Days of free trial (1–730): nothing is charged today.' }),
      metadata: z.record(z.string(), z.string()).optional().meta({ description: "The subscription's metadata." }),
    })
    .optional()
    .meta({ description: 'Subscription mode: what the subscription starts with.' }),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code')
    .optional()
    .meta({
      description:
        "Required in `payment` mode unless every line names a `price` (the session then takes the prices' currency); in `setup` mode it picks the processor's merchant account that verifies the card (default: the account's default currency).",
    }),
  line_items: z
    .array(
      z.strictObject({
        // A price (`price_…`), our own `name` and `unit_amount`, or Stripe's `price_data`: one of the three.
        price: z
          .string()
          .regex(/^[A-Za-z0-9_]{1,64}$/, 'must be an object id')
          .optional()
          .describe("A one-time price (`price_…`) of an active product: the line takes the product's name and the price's amount."),
        name: z.string().optional(),
        unit_amount: z.number().int().optional(),
        price_data: z
          .strictObject({
            currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code'),
            unit_amount: z.number().int(),
            product_data: z.strictObject({ name: z.string() }),
          })
          .optional()
          .describe("Stripe's shape, accepted beside `name` and `unit_amount`; `currency` must be the session's."),
        quantity: z.number().int(),
        tax_rates: z
          .array(z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'must be an object id'))
          .max(5)
          .optional()
          .describe('Ids of tax rates (`txr_…`) applied to the line.'),
        dynamic_tax_rates: z
          .array(z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'must be an object id'))
          .max(50)
          .optional()
          .describe("Ids of tax rates with a country (and maybe a state): the one matching the shopper's shipping address (else billing address) applies."),
        adjustable_quantity: adjustableQuantityBody.optional(),
      }),
    )
    .optional()
    .meta({ description: 'Required in `payment` mode; not used in `setup` mode.' }),
  success_url: urlText().optional(),
  cancel_url: urlText().optional(),
  capture_method: z.enum(['automatic', 'manual']).optional(),
  payment_method_types: z.array(z.enum(paymentMethodTypes)).optional(),
  customer: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,64}$/, 'must be an object id')
    .optional()
    .meta({ description: 'An existing customer (`cus_…`) the session is for; its email is prefilled.' }),
  customer_email: z.email().max(254).optional(),
  payment_method_options: z
    .strictObject({
      card: z.strictObject({
        save: z.enum(['on', 'shopper_choice']).optional().meta({
          description: '`on`: paying saves the card to the customer; `shopper_choice`: the page asks the shopper for consent.',
        }),
        require_cvc_recollection: z.boolean().optional().meta({
          description:
            '`true`: a saved card paid on the page asks for its CVC again. A Braintree account whose CVV rules need it sets `require_cvv_for_saved_cards` instead, for every session.',
        }),
      }),
    })
    .optional(),
  customer_creation: z.enum(['always', 'if_required']).optional().meta({
    description: '`always`: paying makes a customer of the shopper; `if_required` (default): only when a payment method is saved.',
  }),
  // `auto` or a supported locale: checked (with the list of what is supported) in the domain.
  locale: z.string().max(35).describe("'auto' (default) or a supported locale such as de, pt-BR, zh-Hant").optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  client_reference_id: z.string().min(1).max(200).optional(),
  expires_at: z.number().int('must be a Unix timestamp in seconds').optional(),
  // Shop options: promotion codes and discounts (docs/pricing.md).
  allow_promotion_codes: allowPromotionCodesBody.optional(),
  discounts: z
    .array(
      z.strictObject({
        coupon: z
          .string()
          .regex(/^[A-Za-z0-9_]{1,64}$/)
          .optional(),
        promotion_code: z
          .string()
          .regex(/^[A-Za-z0-9_]{1,64}$/)
          .optional(),
      }),
    )
    .max(1)
    .optional()
    .describe('At most one: a coupon or a promotion code, by id, applied from the start.'),
  shipping_options: shippingOptionsBody.optional(),
  // Addresses (docs/api.md, ADR 0068).
  billing_address_collection: billingAddressCollectionBody.optional(),
  shipping_address_collection: shippingAddressCollectionBody.optional(),
  custom_fields: customFieldsBody.optional(),
  ui_mode: z.enum(['hosted', 'embedded']).optional().meta({
    description:
      '`hosted` (default): send the shopper to `url`. `embedded`: mount the page on yours with `client_secret` and `/js/embed.js` (docs/embedded-checkout.md).',
  }),
  return_url: urlText()
    .optional()
    .meta({ description: 'Embedded mode (required there): where your page goes after payment; `{CHECKOUT_SESSION_ID}` is replaced.' }),
});

/** The session's shipping choices from the body. */
export function shippingOptionsOf(options: z.output<typeof shippingOptionsBody> | undefined): NewShippingOption[] | undefined {
  return options?.map(({ shipping_rate_data: data }) => ({
    displayName: data.display_name,
    amount: data.fixed_amount.amount,
    currency: data.fixed_amount.currency,
    deliveryEstimate: data.delivery_estimate ? { minimum: data.delivery_estimate.minimum ?? null, maximum: data.delivery_estimate.maximum ?? null } : null,
  }));
}

/** The session's items from the body: a `price`, `name` and `unit_amount`, or `price_data`. */
export function checkoutSessionLineItemsOf(items: z.output<typeof createCheckoutSessionBody>['line_items'] = []): CheckoutSessionRequest['lineItems'] {
  return items.map((item, i) => {
    const at = `line_items[${i}]`;
    if (item.price !== undefined) {
      if (item.price_data || item.name !== undefined || item.unit_amount !== undefined) {
        throw new TillpointError('parameter_invalid', 'Give price, price_data, or name and unit_amount: only one', { param: `${at}[price]` });
      }
      return {
        pricedBy: item.price,
        quantity: item.quantity,
        taxRateIds: item.tax_rates,
        dynamicTaxRateIds: item.dynamic_tax_rates,
        adjustableQuantity: item.adjustable_quantity,
      };
    }
    if (item.price_data) {
      if (item.name !== undefined || item.unit_amount !== undefined) {
        throw new TillpointError('parameter_invalid', 'Give price_data, or name and unit_amount, not both', { param: `${at}[price_data]` });
      }
      return {
        name: item.price_data.product_data.name,
        unitAmount: item.price_data.unit_amount,
        quantity: item.quantity,
        currency: item.price_data.currency,
        taxRateIds: item.tax_rates,
        dynamicTaxRateIds: item.dynamic_tax_rates,
        adjustableQuantity: item.adjustable_quantity,
      };
    }
    if (item.name === undefined) throw new TillpointError('parameter_missing', `Missing required parameter: ${at}[name]`, { param: `${at}[name]` });
    if (item.unit_amount === undefined) {
      throw new TillpointError('parameter_missing', `Missing required parameter: ${at}[unit_amount]`, { param: `${at}[unit_amount]` });
    }
    return {
      name: item.name,
      unitAmount: item.unit_amount,
      quantity: item.quantity,
      taxRateIds: item.tax_rates,
      dynamicTaxRateIds: item.dynamic_tax_rates,
      adjustableQuantity: item.adjustable_quantity,
    };
  });
}

/** The one discount of `discounts[]`: a coupon or a promotion code. */
export function discountReferenceOf(discounts: z.output<typeof createCheckoutSessionBody>['discounts']): DiscountReference | null {
  const discount = discounts?.[0];
  if (!discount) return null;
  if ((discount.coupon === undefined) === (discount.promotion_code === undefined)) {
    throw new TillpointError('parameter_invalid', 'Give a coupon or a promotion_code', { param: 'discounts[0]' });
  }
  return discount.coupon !== undefined ? { coupon: discount.coupon } : { promotionCode: discount.promotion_code! };
}

/** Body of the page's shipping choice: one of the session's `shipping_options`. */
export const chooseShippingRateBody = z.strictObject({ shipping_rate: z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'must be an object id') });

/** Body of the page's promotion code: a code to apply, or null to remove the one applied. */
export const applyPromotionCodeBody = z.strictObject({ code: z.string().min(1).max(50).nullable() });

/** An address as the page sends it: Stripe's fields; the country's format decides which are required. */
const addressInput = z.strictObject({
  line1: z.string().max(200).nullable().optional(),
  line2: z.string().max(200).nullable().optional(),
  city: z.string().max(200).nullable().optional(),
  state: z.string().max(200).nullable().optional(),
  postal_code: z.string().max(200).nullable().optional(),
  country: z.string().max(2),
});

/** Body of the page's addresses, sent before paying (ADR 0068); null removes one. */
export const checkoutAddressesBody = z.strictObject({
  shipping_details: z
    .strictObject({ name: z.string().max(200), address: addressInput })
    .nullable()
    .optional(),
  billing_address: addressInput.nullable().optional(),
});
/** Body of the page's quantity stepper: a line's new quantity (the server prices the session again). */
export const setLineItemQuantityBody = z.strictObject({ quantity: z.number().int() });

/** A line of a session in a path: its index, as the page lists them. */
export const lineItemParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/), index: z.coerce.number().int().min(0).max(99) });

/** The shopper's answers to the session's custom fields, by key. */
export const customFieldAnswers = z
  .record(z.string().max(200), z.string().max(255).nullable())
  .meta({ description: "Answers to the session's custom fields, by key." });

/** An object id in a path: letters, digits and underscores, bounded. */
export const idParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/) });

/** Body of the checkout page's card tokenization (test processor only). */
export const tokenizeCardBody = z.strictObject({
  number: z.string().max(32),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int().min(0).max(9999),
  cvc: z.string().max(4),
  postal_code: z.string().max(16).nullable().optional(),
});

/** Body of a US bank account typed on the checkout page, with the mandate the shopper accepted (test processor only). */
export const tokenizeBankAccountBody = z.strictObject({
  routing_number: z.string().max(32),
  account_number: z.string().max(32),
  account_type: z.enum(usBankAccountTypes),
  account_holder_type: z.enum(usBankAccountHolderTypes),
  account_holder_name: z.string().max(200),
  /** The mandate the page showed and the shopper accepted, word for word. */
  mandate_text: z.string().max(2000),
});

/** Body of a saved card's CVC typed again on the checkout page (test processor only). */
export const tokenizeCvcBody = z.strictObject({
  payment_method: z.string().regex(/^pm_[A-Za-z0-9]{1,60}$/, 'must be a saved payment method id'),
  cvc: z.string().max(4),
});

/** Body of the checkout page's payment. */
export const payBody = z.strictObject({
  payment_method_type: z.enum(paymentMethodTypes),
  nonce: z.string().min(1).max(4096).optional(),
  payment_method: z
    .string()
    .regex(/^pm_[A-Za-z0-9]{1,60}$/, 'must be a saved payment method id')
    .optional(),
  save_payment_method: z.boolean().optional(),
  email: z.string().max(254),
  device_data: z.string().max(8192).nullable().optional(),
  custom_fields: customFieldAnswers.optional(),
});

/** Body of a local payment (iDEAL, Bancontact…) the checkout page starts. */
export const startLocalPaymentBody = z.strictObject({
  payment_method_type: z.enum(localPaymentMethodTypes),
  email: z.string().max(254),
  /** With Braintree: braintree-web's local payment id (`onPaymentStart`'s `paymentId`); none with the test processor. */
  local_payment_id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  custom_fields: customFieldAnswers.optional(),
});

/** Path of one local payment of a session. */
export const localPaymentParams = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/),
  payment: z.string().regex(/^pay_[A-Za-z0-9_]{1,60}$/, 'must be a payment id'),
});

/** Body of the shopper's answer in the bank's window (approve: the test processor's test window only). */
export const answerLocalPaymentBody = z.strictObject({ answer: z.enum(['approve', 'fail', 'cancel']) });

/** An object id (`cs_…`, `we_…`) in a path or cursor. */
export const objectId = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'must be an object id');

/** Query of a list endpoint: cursor pagination (design.md §7). */
export const listQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(10).meta({ description: 'How many objects a page holds, 1–100.' }),
  starting_after: objectId.optional().meta({
    description: 'The id of the last object of the previous page: answers the page after it (`has_more` says whether there is one).',
  }),
};

/** Query of `GET /v1/payments`. */
export const listPaymentsQuery = z.strictObject({ ...listQuery, checkout_session: objectId.optional() });
export const searchPaymentsQuery = z.strictObject({
  ...listQuery,
  query: z
    .string()
    .min(1)
    .max(1000)
    .meta({
      description:
        "Clauses joined by AND: field:'value' (exact), email~'part' (the email starts or ends with it), id~'pay_1a' (id starts with it), " +
        "metadata['key']:'value', and amount or created (Unix seconds) with :, >, <, >= or <=. " +
        'Fields: id, email, last4, status, currency, client_reference_id, checkout_session, metadata, amount, created.',
      example: "status:'succeeded' AND amount>1000 AND email~'@example.com'",
    }),
});
