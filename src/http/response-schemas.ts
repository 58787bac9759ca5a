import { z } from 'zod';
import { declineCodes, errorCatalogue } from '../domain/shared/errors';
import { events, eventTypes } from '../domain/shared/events';
import { bankDetails, paymentMethodTypes, payments, refunds, usBankAccountDetails } from '../domain/payments/entities';
import { localPaymentMethodTypes, type LocalPaymentMethodType } from '../domain/payments/payment-method-types';
import { localPaymentMethods } from '../domain/payments/local-payment-methods';
import { checkoutSessions, paymentLinks, priceIntervals, prices, products } from '../domain/sessions/entities';
import { customers, savedPaymentMethods } from '../domain/customers/entities';
import { couponDurations, coupons, promotionCodes, taxRates } from '../domain/pricing/entities';
import { disputeEvidence, disputes } from '../domain/disputes/entities';
import { webhookEndpoints } from '../domain/webhooks/entities';
import { partFieldsSchema, partSchema, resourceSchema } from './resource-schema';
import { billingPortalSessions, invoices, subscriptions, testClocks } from '../domain/billing/entities';

/**
 * What the merchant API answers, as zod schemas. Each one with an `id` becomes a named schema of
 * the OpenAPI document (`#/components/schemas/<id>`), and a route names the one it answers with in
 * its contract (`response`). Objects are strict, so a test that parses real answers with these
 * schemas fails the moment a view in `src/http/views/` grows or loses a field the document does
 * not describe. `examples` are parsed by the same test.
 */

const id = (prefix: string, example: string, description?: string) =>
  z.string().meta({ description: description ?? `Object id, \`${prefix}…\`.`, examples: [example] });
const nullableId = (prefix: string, example: string, description: string) => id(prefix, example, description).nullable();
const unixTime = (description: string) =>
  z
    .number()
    .int()
    .meta({ description: `${description} (Unix seconds).` });
const livemode = z.boolean().meta({ description: 'True in live mode, false in test mode.' });
const minorUnits = (description: string) =>
  z
    .number()
    .int()
    .meta({ description: `${description}, an integer in the currency's minor unit (cents for USD).` });
const currency = z.string().meta({ description: 'Three-letter ISO 4217 code, lower case.', examples: ['usd'] });

export const lineItemSchema = z
  .strictObject({
    name: z.string(),
    unit_amount: minorUnits('Price of one'),
    quantity: z.number().int(),
    amount: minorUnits('unit_amount × quantity'),
    tax_rates: z.array(z.string()).optional().meta({ description: 'The tax rates (`txr_…`) of the line, when it has any.' }),
    dynamic_tax_rates: z.array(z.string()).optional().meta({ description: "Tax rates (`txr_…`) matched to the shopper's address, when the line has any." }),
    adjustable_quantity: z
      .strictObject({ enabled: z.boolean(), minimum: z.number().int(), maximum: z.number().int() })
      .optional()
      .meta({ description: 'The shopper may change the quantity within these bounds, when given.' }),
  })
  .meta({ id: 'LineItem' });

const customFieldLengthsSchema = z.strictObject({
  minimum_length: z.number().int().nullable(),
  maximum_length: z.number().int().nullable(),
  value: z.string().nullable(),
});

/** Stripe's `custom_fields[]`, with the shopper's answer in `text.value`, `numeric.value` or `dropdown.value`. */
export const customFieldSchema = z
  .strictObject({
    key: z.string(),
    label: z.strictObject({ type: z.literal('custom'), custom: z.string() }),
    type: z.enum(['text', 'numeric', 'dropdown']),
    optional: z.boolean(),
    text: customFieldLengthsSchema.optional(),
    numeric: customFieldLengthsSchema.optional(),
    dropdown: z.strictObject({ options: z.array(z.strictObject({ label: z.string(), value: z.string() })), value: z.string().nullable() }).optional(),
  })
  .meta({ id: 'CustomField', description: "A question the page asks, with the shopper's answer (null until given)." });

const deliveryEstimateBound = z.strictObject({ unit: z.enum(['hour', 'day', 'business_day', 'week', 'month']), value: z.number().int() }).nullable();

export const addressSchema = z
  .strictObject({
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable().meta({ description: 'ISO 3166-2 subdivision code without the country where the country has a list (`CA`, `13`).' }),
    postal_code: z.string().nullable(),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2.' }),
  })
  .meta({ id: 'Address', description: "Stripe's address shape, checked against its country's format." });

export const shippingDetailsSchema = z
  .strictObject({ name: z.string(), address: addressSchema })
  .nullable()
  .meta({ description: "The shopper's shipping name and address; null until given." });

const customerDetailsSchema = z
  .strictObject({ email: z.string().nullable(), address: addressSchema.nullable().meta({ description: 'The billing address, when the page asked for one.' }) })
  .meta({ description: "The shopper's email and billing address." });

export const totalDetailsSchema = z
  .strictObject({
    amount_discount: minorUnits('Discount off the subtotal'),
    amount_shipping: minorUnits('Shipping added'),
    amount_tax: minorUnits('Taxes, inclusive ones included'),
  })
  .meta({ id: 'TotalDetails', description: 'What of the total is discount, shipping and tax (docs/pricing.md).' });

const checkoutSessionExample = {
  id: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmN',
  status: 'open',
  url: 'https://pay.example.com/c/cs_test_a1B2c3D4e5F6g7H8i9J0kLmN',
  currency: 'usd',
  line_items: [{ name: 'Kenya AA, 250 g', unit_amount: 1650, quantity: 2, amount: 3300 }],
  amount_subtotal: 3300,
  amount_total: 3300,
  customer_creation: 'if_required',
  success_url: 'https://shop.example/thanks?session={CHECKOUT_SESSION_ID}',
  cancel_url: 'https://shop.example/cart',
  payment_method_types: ['card', 'google_pay'],
  payment_method_options: null,
  metadata: { order_id: '1042' },
  total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
  discounts: [],
  shipping_options: [],
  shipping_cost: null,
  shipping_address_collection: null,
  customer_details: { email: null, address: null },
  setup_intent: null,
  custom_fields: [],
  subscription: null,
  expires_at: 1767312000,
  created: 1767225600,
};

export const checkoutSessionSchema = resourceSchema('checkout.session', checkoutSessions, {
  id: 'CheckoutSession',
  description: 'What the shopper is asked to pay, and whether they have.',
  prefix: 'cs_',
  example: checkoutSessionExample,
  json: {
    paymentMethodTypes: z.array(z.enum(paymentMethodTypes)),
    metadata: z.record(z.string(), z.string()),
    shippingDetails: shippingDetailsSchema,
  },
  shaped: {
    url: z.string().nullable().meta({ description: 'Where to send the shopper; null once the session is not open.' }),
    line_items: z.array(lineItemSchema),
    payment_method_options: z
      .strictObject({ card: z.strictObject({ save: z.enum(['on', 'shopper_choice']).nullable(), require_cvc_recollection: z.boolean() }) })
      .nullable()
      .meta({ description: 'Whether paying saves the card to the customer, and whether a saved card asks for its CVC again.' }),
    // Shop options (docs/pricing.md).
    total_details: totalDetailsSchema,
    discounts: z
      .array(
        z.strictObject({
          coupon: id('coupon_', 'coupon_test_k1', 'The coupon applied.'),
          promotion_code: nullableId('promo_', 'promo_test_k1', 'The promotion code that applied it, if any.'),
        }),
      )
      .meta({ description: 'The discount applied (at most one).' }),
    shipping_options: z
      .array(
        z.strictObject({
          shipping_amount: minorUnits('What this choice adds'),
          shipping_rate: z.strictObject({
            id: id('shr_', 'shr_test_s1'),
            display_name: z.string(),
            fixed_amount: z.strictObject({ amount: minorUnits('Shipping amount'), currency }),
            delivery_estimate: z.strictObject({ minimum: deliveryEstimateBound, maximum: deliveryEstimateBound }).nullable(),
          }),
        }),
      )
      .meta({ description: 'The shipping choices offered on the page.' }),
    shipping_cost: z
      .strictObject({ amount_total: minorUnits('Shipping in the total'), shipping_rate: id('shr_', 'shr_test_s1', 'The chosen option.') })
      .nullable(),
    shipping_address_collection: z
      .strictObject({ allowed_countries: z.array(z.string()) })
      .nullable()
      .meta({ description: 'The countries the page takes a shipping address in; null when it asks for none.' }),
    customer_details: customerDetailsSchema,
    setup_intent: z
      .strictObject({
        object: z.literal('setup_intent'),
        status: z.literal('succeeded'),
        customer: nullableId('cus_', 'cus_test_r1', 'The customer the card was saved to.'),
        payment_method: id('pm_', 'pm_test_c1', 'The saved payment method.'),
      })
      .nullable()
      .meta({ description: 'A completed setup session: the card it saved. Null otherwise.' }),
    custom_fields: z.array(customFieldSchema).meta({ description: "The session's questions, with the shopper's answers once paid." }),
    subscription: nullableId('sub_', 'sub_test_s1', 'Subscription mode: the subscription paying it started, once complete; null otherwise.'),
  },
});

/** A local payment method's bank, as `payment_method.<type>` shows it: its definition's fields (`bankDetails`). */
const localBankSchema = (type: LocalPaymentMethodType) =>
  partFieldsSchema('LocalBank', bankDetails)
    .optional()
    .meta({ description: `${localPaymentMethods[type].name}: the bank paid from; only on ${type} payments.` });

/** A US bank account that paid (ACH), as `payment_method.us_bank_account` shows it: its definition's fields (`usBankAccountDetails`). */
const usBankAccountSchema = partFieldsSchema('UsBankAccount', usBankAccountDetails)
  .optional()
  .meta({ description: 'A bank debit (ACH): the account paid from; only on us_bank_account payments.' });

const paymentExample = {
  id: 'pay_test_q9W8e7R6t5Y4u3I2o1P0',
  object: 'payment',
  livemode: false,
  status: 'succeeded',
  amount: 3300,
  amount_captured: 3300,
  amount_refunded: 0,
  currency: 'usd',
  capture_method: 'automatic',
  checkout_session: checkoutSessionExample.id,
  customer: null,
  customer_email: 'shopper@example.com',
  invoice: null,
  payment_method: { type: 'card', brand: 'visa', last4: '1111', exp_month: 12, exp_year: 2034, fingerprint: 'fp_3kq9c0d1', payer_email: null, username: null },
  processor: 'test',
  processor_transaction_id: 'test_txn_7f3a',
  processor_response: { code: '1000', text: 'Approved' },
  failure_code: null,
  decline_code: null,
  risk_decision: null,
  ach_return: null,
  three_d_secure: null,
  total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
  shipping_details: null,
  customer_details: { email: 'shopper@example.com', address: null },
  custom_fields: [],
  created: 1767225700,
};

export const paymentSchema = resourceSchema('payment', payments, {
  id: 'Payment',
  description: 'One attempt to pay a checkout session.',
  prefix: 'pay_',
  example: paymentExample,
  json: {
    processorResponse: z.strictObject({ code: z.string(), text: z.string() }).nullable(),
    shippingDetails: shippingDetailsSchema,
    achReturn: z
      .strictObject({
        code: z.string().meta({ description: 'The NACHA return code, e.g. `R01`.' }),
        reason: z.string().meta({ description: 'The code in words: `insufficient_funds`, `account_closed`…, `other` for a code not listed.' }),
        returned_at: z.number().int().meta({ description: 'When the processor reported the return (Unix seconds).' }),
      })
      .nullable(),
  },
  shaped: {
    payment_method: z
      .strictObject({
        type: z.enum(paymentMethodTypes),
        brand: z.string().nullable(),
        last4: z.string().nullable(),
        exp_month: z.number().int().nullable(),
        exp_year: z.number().int().nullable(),
        fingerprint: z.string().nullable().meta({ description: 'Same card, same fingerprint, within one install.' }),
        payer_email: z.string().nullable().meta({ description: "PayPal: the payer's email; null for other methods." }),
        username: z.string().nullable().meta({ description: "Venmo: the account's username; null for other methods." }),
        // A local payment method's bank, under the method's name: present only for that method.
        ...(Object.fromEntries(localPaymentMethodTypes.map((type) => [type, localBankSchema(type)])) as Record<
          LocalPaymentMethodType,
          ReturnType<typeof localBankSchema>
        >),
        us_bank_account: usBankAccountSchema,
      })
      .nullable(),
    three_d_secure: z.strictObject({ status: z.string(), liability_shifted: z.boolean() }).nullable(),
    total_details: totalDetailsSchema.nullable().meta({ description: "The session's discount, shipping and tax when this attempt was made." }),
    customer_details: customerDetailsSchema,
    custom_fields: z.array(customFieldSchema).meta({ description: "The session's custom fields with the shopper's answers." }),
  },
});

const refundExample = {
  id: 're_test_z1X2c3V4b5N6',
  object: 'refund',
  livemode: false,
  payment: paymentExample.id,
  amount: 1650,
  currency: 'usd',
  reason: 'requested_by_customer',
  status: 'succeeded',
  failure_reason: null,
  created_by: 'key_test_k1',
  processor_refund_id: 'test_rf_91ab',
  created: 1767226000,
  updated: 1767226000,
};

export const refundSchema = resourceSchema('refund', refunds, {
  id: 'Refund',
  description: 'Money sent back from a succeeded payment.',
  prefix: 're_',
  example: refundExample,
  json: {},
  shaped: {},
});

const disputeExample = {
  id: 'dp_test_q1W2e3R4t5Y6',
  payment: paymentExample.id,
  amount: 3300,
  currency: 'usd',
  reason: 'fraud',
  status: 'needs_response',
  reply_by: 1767830400,
  evidence: [
    {
      id: 'dpe_test_a1S2d3F4',
      kind: 'text',
      text: 'Delivered on 2 January, signed for by the cardholder.',
      category: null,
      file_name: null,
      content_type: null,
      size: null,
      created: 1767226500,
    },
  ],
  processor: 'test',
  processor_dispute_id: 'dp91ab23cd45ef',
  submitted_at: null,
  closed_at: null,
  created: 1767226000,
  updated: 1767226500,
};

export const disputeSchema = resourceSchema('dispute', disputes, {
  id: 'Dispute',
  description: "A chargeback the cardholder's bank opened against a payment.",
  prefix: 'dp_',
  example: disputeExample,
  json: {},
  shaped: {
    evidence: z.array(partSchema('DisputeEvidence', disputeEvidence, { prefix: 'dpe_', exampleId: 'dpe_test_a1S2d3F4', json: {} })),
  },
});

const customerExample = {
  id: 'cus_test_r1T2y3U4i5O6p7A8s9D0fGhJ',
  email: 'shopper@example.com',
  name: 'Ada Lovelace',
  preferred_locales: ['en'],
  metadata: { crm_id: '8812' },
  created: 1767225600,
  updated: 1767225600,
};

export const customerSchema = resourceSchema('customer', customers, {
  id: 'Customer',
  description: 'A returning shopper: sessions, payments and saved payment methods point to one.',
  prefix: 'cus_',
  example: customerExample,
  json: { preferredLocales: z.array(z.string()), metadata: z.record(z.string(), z.string()) },
  shaped: {},
});

const paymentMethodExample = {
  id: 'pm_test_k8L7j6H5g4F3d2S1a0QwErTy',
  customer: customerExample.id,
  type: 'card',
  card: { brand: 'visa', last4: '1111', exp_month: 12, exp_year: 2034, fingerprint: 'fp_3kq9c0d1' },
  processor: 'test',
  created: 1767225600,
};

export const paymentMethodSchema = resourceSchema('payment_method', savedPaymentMethods, {
  id: 'PaymentMethod',
  description: "A card or a US bank account saved to a customer at the processor: never a card's number or CVC, never an account number.",
  prefix: 'pm_',
  example: paymentMethodExample,
  json: {},
  shaped: {
    card: z
      .strictObject({
        brand: z.string().nullable(),
        last4: z.string().nullable(),
        exp_month: z.number().int().nullable(),
        exp_year: z.number().int().nullable(),
        fingerprint: z.string().nullable(),
      })
      .optional()
      .meta({ description: 'A saved card: what may be shown of it; only on card payment methods.' }),
    us_bank_account: usBankAccountSchema.meta({
      description: 'A saved US bank account (ACH): bank, last 4 digits, routing number and type; only on us_bank_account payment methods.',
    }),
  },
});

const priceExample = {
  id: 'price_test_p1',
  object: 'price',
  livemode: false,
  product: 'prod_test_c1',
  currency: 'usd',
  unit_amount: 1650,
  active: true,
  nickname: null,
  metadata: {},
  created: 1767225600,
  recurring: { interval: 'month', interval_count: 1 },
  type: 'recurring',
};

export const priceSchema = resourceSchema('price', prices, {
  id: 'Price',
  description: 'What a product costs in one currency; immutable once made.',
  prefix: 'price_',
  example: priceExample,
  json: { metadata: z.record(z.string(), z.string()) },
  shaped: {
    recurring: z
      .strictObject({
        interval: z.enum(priceIntervals).meta({ description: 'The unit a period is counted in.' }),
        interval_count: z.number().int().min(1).meta({ description: 'Periods are this many intervals long.' }),
      })
      .nullable()
      .meta({ description: 'How often it bills; null for a one-time price.' }),
    type: z.enum(['one_time', 'recurring']),
  },
});

const subscriptionExample = {
  id: 'sub_test_s1D2f3G4h5J6k7L8',
  customer: 'cus_test_r1T2y3U4i5O6p7A8s9D0fGhJ',
  status: 'active',
  quantity: 1,
  currency: 'usd',
  default_payment_method: 'pm_test_k8L7j6H5g4F3d2S1a0QwErTy',
  default_tax_rates: ['txr_test_t1'],
  billing_cycle_anchor: 1767225600,
  current_period_start: 1767225600,
  current_period_end: 1769904000,
  cancel_at_period_end: false,
  latest_invoice: 'in_test_i1O2p3A4s5D6f7G8',
  metadata: {},
  created: 1767225600,
  discount: {
    object: 'discount',
    coupon: {
      id: 'coupon_test_k1',
      object: 'coupon',
      name: 'First quarter',
      percent_off: 25,
      amount_off: null,
      currency: null,
      duration: 'repeating',
      duration_in_months: 3,
    },
    promotion_code: null,
    start: 1767225600,
    end: 1775001600,
  },
  items: { object: 'list', data: [{ object: 'subscription_item', price: priceExample, quantity: 1 }] },
};

/** A subscription's discount (Stripe's `discount`): the coupon's terms as applied, and when it lasts. */
const subscriptionDiscountSchema = z
  .strictObject({
    object: z.literal('discount'),
    coupon: z
      .strictObject({
        id: id('coupon_', 'coupon_test_k1', 'The coupon applied.'),
        object: z.literal('coupon'),
        name: z.string().nullable(),
        percent_off: z.number().nullable(),
        amount_off: z.number().int().nullable(),
        currency: currency.nullable(),
        duration: z.enum(couponDurations),
        duration_in_months: z.number().int().nullable(),
      })
      .meta({ description: "The coupon's terms as they were when it was applied." }),
    promotion_code: nullableId('promo_', 'promo_test_k1', 'The promotion code that applied it, if any.'),
    start: z.number().int().meta({ description: 'When it was applied (Unix seconds): invoices from then take it.' }),
    end: z.number().int().nullable().meta({
      description:
        'When it ends (Unix seconds): `repeating`, its start plus `duration_in_months`; null for `forever` and `once` (which the first invoice it comes off removes).',
    }),
  })
  .nullable()
  .meta({ description: 'The discount its invoices take while it lasts, or null.' });

export const subscriptionSchema = resourceSchema('subscription', subscriptions, {
  id: 'Subscription',
  description: "A customer's subscription to a recurring price, billed each period by an invoice charged to its saved payment method.",
  prefix: 'sub_',
  example: subscriptionExample,
  json: { metadata: z.record(z.string(), z.string()), defaultTaxRates: z.array(z.string()) },
  shaped: {
    discount: subscriptionDiscountSchema,
    items: z.strictObject({
      object: z.literal('list'),
      data: z.array(z.strictObject({ object: z.literal('subscription_item'), price: priceSchema, quantity: z.number().int() })),
    }),
  },
});

const invoiceExample = {
  id: 'in_test_i1O2p3A4s5D6f7G8',
  customer: subscriptionExample.customer,
  subscription: subscriptionExample.id,
  status: 'paid',
  billing_reason: 'subscription_cycle',
  currency: 'usd',
  subtotal: 2000,
  tax: 124,
  total: 1624,
  amount_due: 1624,
  amount_paid: 1624,
  period_start: 1767225600,
  period_end: 1769904000,
  attempt_count: 1,
  payment: 'pay_test_q9W8e7R6t5Y4u3I2o1P0',
  created: 1767225600,
  amount_remaining: 0,
  hosted_invoice_url: 'https://pay.example.com/i/ih_Hq2wE3rT4yU5iO6pA7sD8fG9hJ0kL1zX',
  total_discount_amounts: [{ amount: 500, coupon: 'coupon_test_k1', promotion_code: null }],
  total_tax_amounts: [{ amount: 124, inclusive: false, tax_rate: 'txr_test_t1' }],
  lines: {
    object: 'list',
    data: [
      {
        id: 'il_test_l1K2j3H4',
        object: 'line_item',
        description: '1 × Coffee club',
        amount: 2000,
        currency: 'usd',
        price: 'price_test_p1',
        quantity: 1,
        proration: false,
        period: { start: 1767225600, end: 1769904000 },
      },
    ],
  },
};

export const invoiceSchema = resourceSchema('invoice', invoices, {
  id: 'Invoice',
  description: 'What a customer owes for a period of a subscription: charged to its saved payment method until paid, retried on a schedule.',
  prefix: 'in_',
  example: invoiceExample,
  json: {},
  shaped: {
    amount_remaining: z.number().int().meta({ description: 'What is still owed, in minor units.' }),
    hosted_invoice_url: z
      .url()
      .meta({ description: 'A page where the customer sees the invoice and, while it is owed, pays it with a saved or another card.' }),
    total_discount_amounts: z
      .array(
        z.strictObject({
          amount: minorUnits('Taken off the subtotal'),
          coupon: id('coupon_', 'coupon_test_k1', 'The coupon of the discount.'),
          promotion_code: nullableId('promo_', 'promo_test_k1', 'The promotion code that applied it, if any.'),
        }),
      )
      .meta({ description: "The subscription's discount, when it applied to this invoice." }),
    total_tax_amounts: z
      .array(
        z.strictObject({
          amount: minorUnits('Tax at this rate'),
          inclusive: z.boolean().meta({ description: 'Already in the subtotal (true) or added to the total (false).' }),
          tax_rate: id('txr_', 'txr_test_t1', 'The tax rate.'),
        }),
      )
      .meta({ description: 'The tax, rate by rate, on the subtotal less the discount, rounded to the minor unit once per rate.' }),
    lines: z.strictObject({
      object: z.literal('list'),
      data: z.array(
        z.strictObject({
          id: z.string(),
          object: z.literal('line_item'),
          description: z.string(),
          amount: z.number().int().meta({ description: 'Minor units; negative for unused time credited.' }),
          currency: z.string(),
          price: z.string().nullable().meta({ description: 'The price billed; null on a shipping line.' }),
          quantity: z.number().int(),
          proration: z.boolean(),
          period: z.strictObject({ start: z.number().int(), end: z.number().int() }),
        }),
      ),
    }),
  },
});

export const billingPortalSessionSchema = resourceSchema('billing_portal.session', billingPortalSessions, {
  id: 'BillingPortalSession',
  description: 'A short-lived page where one customer sees their subscriptions and invoices, changes the card they are billed to and cancels.',
  prefix: 'bps_',
  example: {
    id: 'bps_test_P1o2I3u4Y5t6R7e8W9q0',
    customer: subscriptionExample.customer,
    return_url: 'https://shop.example.com/account',
    locale: null,
    created: 1767225600,
    expires_at: 1767229200,
    url: 'https://pay.example.com/p/bpt_Qw3Er4Ty5Ui6Op7As8Df9Gh0Jk1Lz2Xc3Vb4Nm5Q',
  },
  json: {},
  shaped: {
    url: z.url().meta({ description: 'The page: send the customer there. It opens until `expires_at`.' }),
  },
});

const [invoiceExampleWhole] = (z.globalRegistry.get(invoiceSchema)?.examples ?? []) as Array<Record<string, unknown>>;

/** What `invoice.upcoming` carries: the invoice a renewal is to make, not made yet (`upcomingInvoiceSnapshot`). */
export const upcomingInvoiceSchema = invoiceSchema
  .extend({
    // Always null, each; typed nullable, since a property typed `null` alone is lost by the SDK's response types.
    id: z.string().nullable().meta({ description: 'Null: the invoice is made at the renewal, with its id.' }),
    status: z.literal('draft'),
    hosted_invoice_url: z.url().nullable().meta({ description: 'Null: its page exists once the invoice is made.' }),
  })
  .meta({
    id: 'UpcomingInvoice',
    description:
      "A preview of the invoice a subscription's renewal is to make (`invoice.upcoming`): its lines and amounts as of now; `created` and `next_payment_attempt` are the renewal's moment.",
    examples: [
      {
        ...invoiceExampleWhole,
        id: null,
        status: 'draft',
        amount_paid: 0,
        amount_remaining: invoiceExample.amount_due,
        attempt_count: 0,
        next_payment_attempt: invoiceExample.created,
        payment: null,
        paid_at: null,
        finalized_at: null,
        hosted_invoice_url: null,
      },
    ],
  });

export const testClockSchema = resourceSchema('test_helpers.test_clock', testClocks, {
  id: 'TestClock',
  description: 'A time of its own (test mode): advancing it bills its customers as of each moment on the way.',
  prefix: 'clock_',
  example: { id: 'clock_test_c1V2b3N4', name: 'A year of coffee', frozen_time: 1767225600, status: 'ready', created: 1767225600 },
  json: {},
  shaped: {},
});

export const eventSchema = resourceSchema('event', events, {
  id: 'Event',
  description: 'A state change. Webhooks POST this same object, signed with `Tillpoint-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`.',
  prefix: 'evt_',
  example: { id: 'evt_test_m1N2b3V4', type: 'payment.succeeded', created: 1767225700, data: { object: paymentExample } },
  json: {},
  shaped: {
    data: z.strictObject({
      object: z
        .union([
          checkoutSessionSchema,
          paymentSchema,
          refundSchema,
          customerSchema,
          paymentMethodSchema,
          subscriptionSchema,
          invoiceSchema,
          upcomingInvoiceSchema,
        ])
        .meta({ description: 'The object as the API showed it at the moment of the change.' }),
    }),
  },
});

const productExample = {
  id: 'prod_test_c1',
  name: 'Kenya AA, 250 g',
  description: 'Washed, from Nyeri.',
  active: true,
  default_price: priceExample,
  created: 1767225600,
  updated: 1767225600,
};

export const productSchema = resourceSchema('product', products, {
  id: 'Product',
  description: 'Something the merchant sells, with its default price spelled out.',
  prefix: 'prod_',
  example: productExample,
  json: {},
  shaped: { default_price: priceSchema.nullable() },
});

const couponExample = {
  id: 'coupon_test_k1',
  object: 'coupon',
  livemode: false,
  name: 'Spring sale',
  percent_off: 15,
  amount_off: null,
  currency: null,
  duration: 'once',
  duration_in_months: null,
  max_redemptions: 100,
  redeem_by: null,
  times_redeemed: 3,
  valid: true,
  metadata: {},
  created: 1767225600,
};

export const couponSchema = resourceSchema('coupon', coupons, {
  id: 'Coupon',
  description: "A percentage or an amount off a checkout session, or off a subscription's invoices while its duration lasts.",
  prefix: 'coupon_',
  example: couponExample,
  json: { metadata: z.record(z.string(), z.string()) },
  shaped: {
    times_redeemed: z.number().int().meta({ description: 'Checkout sessions completed with it, and subscriptions it was applied to.' }),
    valid: z.boolean().meta({ description: 'Whether it can still be redeemed.' }),
  },
});

const promotionCodeExample = {
  id: 'promo_test_k1',
  object: 'promotion_code',
  livemode: false,
  code: 'SPRING15',
  coupon: couponExample,
  active: true,
  max_redemptions: null,
  expires_at: null,
  restrictions: { first_time_transaction: false, minimum_amount: 2000, minimum_amount_currency: 'usd' },
  times_redeemed: 3,
  metadata: {},
  created: 1767225600,
};

export const promotionCodeSchema = resourceSchema('promotion_code', promotionCodes, {
  id: 'PromotionCode',
  description: 'A code shoppers type that applies a coupon.',
  prefix: 'promo_',
  example: promotionCodeExample,
  json: { metadata: z.record(z.string(), z.string()) },
  shaped: {
    coupon: couponSchema,
    restrictions: z.strictObject({
      first_time_transaction: z.boolean().meta({ description: 'Only for an email that has not paid this account before.' }),
      minimum_amount: minorUnits('Smallest subtotal it applies to').nullable(),
      minimum_amount_currency: currency.nullable(),
    }),
    times_redeemed: z.number().int(),
  },
});

const taxRateExample = {
  id: 'txr_test_t1',
  object: 'tax_rate',
  livemode: false,
  display_name: 'VAT',
  description: null,
  percentage: 20,
  inclusive: true,
  country: 'GB',
  state: null,
  jurisdiction: null,
  active: true,
  metadata: {},
  created: 1767225600,
};

export const taxRateSchema = resourceSchema('tax_rate', taxRates, {
  id: 'TaxRate',
  description: 'A tax percentage line items name in `tax_rates` (docs/pricing.md).',
  prefix: 'txr_',
  example: taxRateExample,
  json: { metadata: z.record(z.string(), z.string()) },
  shaped: {},
});

const paymentLinkExample = {
  id: 'plink_test_l1',
  active: true,
  url: 'https://pay.example.com/l/coffee',
  currency: 'usd',
  line_items: [{ price: 'price_test_p1', name: 'Kenya AA, 250 g', unit_amount: 1650, quantity: 2, amount: 3300 }],
  amount_total: 3300,
  shipping_address_collection: null,
  shipping_options: [],
  custom_fields: [],
  created: 1767225600,
};

export const paymentLinkSchema = resourceSchema('payment_link', paymentLinks, {
  id: 'PaymentLink',
  description: 'A reusable link that opens a fresh checkout session for fixed items, with the same shopper options.',
  prefix: 'plink_',
  example: paymentLinkExample,
  json: {},
  shaped: {
    url: z.string().meta({
      description: 'Each visit opens a checkout session; a browser that comes back while its session is open goes to that session again.',
      examples: ['https://pay.example.com/l/coffee'],
    }),
    line_items: z.array(
      z.strictObject({
        price: z.string().nullable(),
        name: z.string(),
        unit_amount: minorUnits('Price of one'),
        quantity: z.number().int(),
        amount: minorUnits('unit_amount × quantity'),
        adjustable_quantity: lineItemSchema.shape.adjustable_quantity,
      }),
    ),
    amount_total: minorUnits('What a shopper pays before options (discount, shipping, tax)'),
    shipping_address_collection: z
      .strictObject({ allowed_countries: z.array(z.string()) })
      .nullable()
      .meta({ description: 'The countries the page takes a shipping address in; null when it asks for none.' }),
    shipping_options: z
      .array(
        z.strictObject({
          shipping_rate_data: z.strictObject({
            type: z.literal('fixed_amount'),
            display_name: z.string(),
            fixed_amount: z.strictObject({ amount: minorUnits('Shipping amount'), currency }),
            delivery_estimate: z.strictObject({ minimum: deliveryEstimateBound, maximum: deliveryEstimateBound }).nullable(),
          }),
        }),
      )
      .meta({ description: 'The shipping choices each session offers, as given.' }),
    custom_fields: z.array(customFieldSchema).meta({ description: 'The questions each session asks (answers are on the session and the payment).' }),
  },
});

const webhookEndpointExample = {
  id: 'we_test_h1',
  url: 'https://shop.example/hooks/tillpoint',
  description: 'Orders',
  enabled_events: ['checkout.session.completed', 'refund.succeeded'],
  status: 'enabled',
  created: 1767225600,
};

export const webhookEndpointSchema = resourceSchema('webhook_endpoint', webhookEndpoints, {
  id: 'WebhookEndpoint',
  description: 'Where signed events are sent.',
  prefix: 'we_',
  example: webhookEndpointExample,
  json: { enabledEvents: z.array(z.enum(['*', ...eventTypes])) },
  shaped: {
    secret: z
      .string()
      .optional()
      .meta({
        description: 'The signing secret (`whsec_…`): only in the answer that created or rolled it.',
        examples: ['whsec_0123456789abcdef'],
      }),
  },
});

export const webhookDeliverySchema = z
  .strictObject({
    id: id('whd_', 'whd_test_d1'),
    object: z.literal('webhook_delivery'),
    livemode,
    webhook_endpoint: id('we_', 'we_test_h1'),
    event: id('evt_', 'evt_test_m1N2b3V4'),
    event_type: z.enum(eventTypes),
    status: z.enum(['pending', 'delivered', 'retrying', 'abandoned']),
    attempts: z.number().int(),
    next_attempt_at: unixTime('Next try').nullable(),
    last_response_status: z.number().int().nullable(),
    created: unixTime('Creation time'),
    log: z.array(
      z.strictObject({
        attempt: z.number().int(),
        outcome: z.enum(['succeeded', 'failed']),
        response_status: z.number().int().nullable(),
        response_body: z.string().nullable().meta({ description: 'The first 1 KB of what the receiver answered.' }),
        duration_ms: z.number().int(),
        error: z.string().nullable(),
        started_at: unixTime('Start of the attempt').nullable(),
      }),
    ),
  })
  .meta({ id: 'WebhookDelivery', description: 'One event owed to one endpoint, with its attempt log.' });

export const receiptSchema = z
  .strictObject({
    object: z.literal('receipt'),
    payment: z.string().meta({ description: 'The payment (`pay_…`) whose receipt was sent.' }),
    email: z.string().meta({ description: 'Where it was sent: the email of the payment, its session or its customer.' }),
    locale: z.string().meta({ description: "The receipt's language: the session's locale, English when it is `auto` or has no receipt catalogue." }),
    sent_at: z.number().int().meta({ description: 'Unix seconds.' }),
  })
  .meta({ id: 'Receipt', description: 'A receipt email the mail server took.' });

export const deletedSchema = z
  .strictObject({ id: z.string(), object: z.string(), deleted: z.literal(true) })
  .meta({ id: 'Deleted', description: 'What a DELETE answers.' });

const flagValue = z.union([z.boolean(), z.string(), z.number()]);

export const flagSchema = z
  .strictObject({
    object: z.literal('flag'),
    key: z.string(),
    value: flagValue,
    default: flagValue.nullable(),
    allowed_values: z.array(flagValue).nullable(),
    built_in: z.boolean(),
    description: z.string().nullable(),
    updated: unixTime('Last change').nullable(),
  })
  .meta({ id: 'Flag', description: 'A kill switch or custom flag of the account and mode.' });

export const experimentSchema = z
  .strictObject({
    id: id('exp_', 'exp_test_e1'),
    object: z.literal('experiment'),
    livemode,
    key: z.string(),
    description: z.string().nullable(),
    status: z.enum(['draft', 'running', 'stopped']),
    variants: z.array(z.strictObject({ key: z.string(), weight: z.number().int() })),
    control: z.string(),
    planned_sample_size: z.number().int(),
    baseline_conversion_rate: z.number().nullable(),
    minimum_detectable_effect: z.number().nullable(),
    started: unixTime('Start').nullable(),
    stopped: unixTime('Stop').nullable(),
    created: unixTime('Creation time'),
  })
  .meta({ id: 'Experiment', description: 'An A/B test on a checkout-page surface.' });

const interval = z.strictObject({ lower: z.number(), upper: z.number() });

export const experimentResultsSchema = z
  .strictObject({
    object: z.literal('experiment_results'),
    experiment: z.string(),
    key: z.string(),
    status: z.enum(['draft', 'running', 'stopped']),
    control: z.string(),
    planned_sample_size: z.number().int(),
    confidence_level: z.number(),
    variants: z.array(
      z.strictObject({
        variant: z.string(),
        exposed: z.number().int(),
        conversions: z.number().int(),
        conversion_rate: z.number(),
        conversion_rate_interval: interval,
        difference_to_control: z.strictObject({ difference: z.number(), lower: z.number(), upper: z.number() }).nullable(),
      }),
    ),
    verdict: z.strictObject({
      status: z.enum(['collecting', 'winner', 'no_significant_difference']),
      winner: z.string().nullable(),
      message: z.string(),
    }),
  })
  .meta({ id: 'ExperimentResults', description: 'Exposures, conversions, intervals and the verdict.' });

export const openApiDocumentSchema = z
  .looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) })
  .meta({ id: 'OpenApiDocument', description: 'This document.' });

/**
 * The envelope of every list (design.md §7): newest first, `has_more` says whether another page
 * follows; ask for it with `starting_after=<the last id of this page>`.
 */
export function listOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .strictObject({
      object: z.literal('list'),
      url: z.string().meta({ description: 'The path of this list.' }),
      has_more: z.boolean().meta({ description: 'Whether another page follows this one.' }),
      data: z.array(item),
    })
    .meta({ id, description: 'One page of a list, newest first.' });
}

export const checkoutSessionListSchema = listOf(checkoutSessionSchema, 'CheckoutSessionList');
export const paymentListSchema = listOf(paymentSchema, 'PaymentList');
export const refundListSchema = listOf(refundSchema, 'RefundList');
export const disputeListSchema = listOf(disputeSchema, 'DisputeList');
export const eventListSchema = listOf(eventSchema, 'EventList');
export const productListSchema = listOf(productSchema, 'ProductList');
export const priceListSchema = listOf(priceSchema, 'PriceList');
export const couponListSchema = listOf(couponSchema, 'CouponList');
export const taxRateListSchema = listOf(taxRateSchema, 'TaxRateList');
export const promotionCodeListSchema = listOf(promotionCodeSchema, 'PromotionCodeList');
export const customerListSchema = listOf(customerSchema, 'CustomerList');
export const paymentMethodListSchema = listOf(paymentMethodSchema, 'PaymentMethodList');
export const paymentLinkListSchema = listOf(paymentLinkSchema, 'PaymentLinkList');
export const webhookEndpointListSchema = listOf(webhookEndpointSchema, 'WebhookEndpointList');
export const webhookDeliveryListSchema = listOf(webhookDeliverySchema, 'WebhookDeliveryList');
export const flagListSchema = listOf(flagSchema, 'FlagList');
export const experimentListSchema = listOf(experimentSchema, 'ExperimentList');
export const subscriptionListSchema = listOf(subscriptionSchema, 'SubscriptionList');
export const invoiceListSchema = listOf(invoiceSchema, 'InvoiceList');
export const testClockListSchema = listOf(testClockSchema, 'TestClockList');

/** Codes only the dashboard's own API answers (cookie session, CSRF): never a merchant API answer. */
const dashboardOnlyCodes = new Set([
  'not_signed_in',
  'sign_in_failed',
  'csrf_token_invalid',
  'second_factor_required',
  'sign_up_closed',
  'second_factor_enrolment_required',
]);
const apiErrors = Object.entries(errorCatalogue).filter(([code]) => !dashboardOnlyCodes.has(code));
const errorTypes = [...new Set(apiErrors.map(([, entry]) => entry.type))] as [string, ...string[]];

/** The error envelope of design.md §8, with the codes an answer of this status may carry. */
function errorEnvelope(codes: string[], id: string, description: string) {
  return z
    .strictObject({
      error: z.strictObject({
        type: z.enum(errorTypes),
        code: z.enum(codes as [string, ...string[]]),
        message: z.string().meta({ description: 'For the developer; never contains card data.' }),
        param: z.string().optional().meta({ description: 'The parameter at fault, e.g. `line_items[0][quantity]`.' }),
        decline_code: z.enum(declineCodes).optional(),
        request_id: z.string().meta({ description: 'Also in the `Request-Id` header; quote it when asking for help.' }),
      }),
    })
    .meta({ id, description });
}

export const errorSchema = errorEnvelope(
  apiErrors.map(([code]) => code),
  'Error',
  'An error: the code says what went wrong (design.md §8).',
);

/** Error statuses of the catalogue, each with its own schema naming only the codes it may carry. */
export const errorSchemasByStatus = new Map<number, z.ZodType>(
  [...new Set(apiErrors.map(([, entry]) => entry.status as number))]
    .sort((a, b) => a - b)
    .map((status) => {
      const codes = apiErrors.filter(([, entry]) => entry.status === status).map(([code]) => code);
      return [status, errorEnvelope(codes, `Error${status}`, `Error ${status}: ${codes.map((c) => `\`${c}\``).join(', ')}.`)];
    }),
);

export const checkoutPageScriptSchema = z
  .strictObject({
    id: z.string().meta({ description: 'Stable across builds: the purpose of the script.' }),
    object: z.literal('checkout_page_script'),
    party: z.enum(['first', 'third']),
    type: z.enum(['script', 'stylesheet']),
    origin: z.string(),
    path: z.string(),
    url: z.string(),
    sha384: z.string().nullable().meta({ description: 'Base64 SHA-384 of the bytes served; null for third-party scripts whose bytes change.' }),
    size: z.number().int().nullable(),
    integrity: z.enum(['sri', 'csp_origin']).meta({ description: 'How integrity is assured: an SRI hash, or an exact origin in the CSP.' }),
    loading: z.enum(['page', 'on_demand']),
    loaded_when: z.array(z.string()).meta({ description: 'The page set-ups that load it (all must hold).' }),
    justification: z.string().nullable(),
    integrity_note: z.string().nullable(),
    merchant_note: z.string().nullable(),
  })
  .meta({ id: 'CheckoutPageScript', description: 'One script or stylesheet the checkout page can load (PCI DSS 6.4.3).' });
export const checkoutPageScriptListSchema = listOf(checkoutPageScriptSchema, 'CheckoutPageScriptList');
