import { z } from 'zod';
import { paymentStatusBadges } from '../../domain/payments/status-badge';
import { roles } from '../../domain/team/permissions';
import {
  checkoutSessionSchema,
  customerSchema,
  disputeSchema,
  experimentSchema,
  flagSchema,
  invoiceSchema,
  lineItemSchema,
  paymentMethodSchema,
  paymentSchema,
  refundSchema,
  subscriptionSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
} from '../response-schemas';

/**
 * What the dashboard's own endpoints answer, where it is not a merchant API object as such. The
 * dashboard's pages take their types from these (`import type`, so no schema reaches the browser),
 * and a test parses real answers with them.
 */

/** One page of a dashboard list: the merchant API's envelope without `url`. */
export const pageOf = <T extends z.ZodType>(item: T) => z.strictObject({ object: z.literal('list'), has_more: z.boolean(), data: z.array(item) });

/** A payment as the dashboard shows it: emails masked for roles that do not see them, and its badge. */
export const dashboardPaymentSchema = paymentSchema.extend({ status_badge: z.enum(paymentStatusBadges) });
export const dashboardPaymentListSchema = pageOf(dashboardPaymentSchema);

/** An event on a payment's or a session's timeline. */
export const timelineEventSchema = z.strictObject({
  id: z.string(),
  type: z.string(),
  /** The payment's or one of its refunds' id. */
  object: z.string(),
  created: z.number().int(),
});

/** A webhook delivery an event caused, as a payment's story lists it. */
export const storyDeliverySchema = webhookDeliverySchema
  .pick({ id: true, webhook_endpoint: true, status: true, attempts: true, last_response_status: true, next_attempt_at: true, created: true })
  .extend({ endpoint_url: z.string().nullable() });

const storyLineItemSchema = lineItemSchema.pick({ name: true, unit_amount: true, quantity: true, amount: true });

/** The order as the shopper saw it when the payment was made (amounts in minor units). */
export const paymentOrderSchema = z.strictObject({
  /** Null for a charge of a saved payment method (no session, no lines). */
  amount_subtotal: z.number().int().nullable(),
  discount: z.strictObject({ amount: z.number().int(), code: z.string().nullable(), name: z.string().nullable() }).nullable(),
  shipping: z.strictObject({ amount: z.number().int(), name: z.string().nullable() }).nullable(),
  amount_tax: z.number().int(),
  taxes: z.array(z.strictObject({ amount: z.number().int(), display_name: z.string(), percentage: z.number(), inclusive: z.boolean() })),
  amount_total: z.number().int(),
});

/** A payment's whole story: `GET …/payments/:id`. */
export const paymentStorySchema = dashboardPaymentSchema.extend({
  line_items: z.array(storyLineItemSchema),
  /** Of all disputes of the payment; lost is what lost, accepted or expired ones took back. */
  amount_disputed: z.number().int(),
  amount_lost: z.number().int(),
  order: paymentOrderSchema,
  metadata: z.record(z.string(), z.string()),
  client_reference_id: z.string().nullable(),
  refunds: z.array(refundSchema),
  disputes: z.array(disputeSchema.omit({ evidence: true })),
  timeline: z.array(timelineEventSchema.extend({ deliveries: z.array(storyDeliverySchema).nullable() })),
  /** Null when the role may not read the request log. */
  request_log: z
    .array(
      z.strictObject({
        id: z.string(),
        method: z.string(),
        path: z.string(),
        status: z.number().int(),
        error_code: z.string().nullable(),
        key_id: z.string().nullable(),
        request_id: z.string(),
        created: z.number().int(),
      }),
    )
    .nullable(),
});

/** A checkout session as the dashboard shows it (emails masked for roles that do not see them). */
export const dashboardSessionListSchema = pageOf(checkoutSessionSchema);
/** A checkout session with its payment attempts and events. */
export const sessionHistorySchema = checkoutSessionSchema.extend({
  payments: z.array(dashboardPaymentSchema),
  timeline: z.array(timelineEventSchema),
});

export const dashboardCustomerListSchema = pageOf(customerSchema);
/** A customer's page: the customer and its saved payment methods, as the API shows them (a card's brand, last4 and expiry; a bank account's bank, last4 and routing number). */
export const customerDetailSchema = customerSchema.extend({
  payment_methods: z.array(paymentMethodSchema),
});
/** Shoppers who paid with an email and are no customer (emails masked for roles that do not see them). */
export const guestCustomerListSchema = pageOf(
  z.strictObject({ object: z.literal('guest_customer'), email: z.string(), payments: z.number().int(), last_payment: z.number().int() }),
);

export const disputeInboxSchema = z.strictObject({ data: z.array(disputeSchema) });

export const dashboardWebhookEndpointListSchema = pageOf(webhookEndpointSchema);
/** A delivery in an endpoint's log, with the body that was sent (null once its event is gone). */
export const dashboardWebhookDeliveryListSchema = pageOf(webhookDeliverySchema.extend({ request_body: z.string().nullable() }));

/** Who is signed in, their accounts and the CSRF token; signed out, whether anyone may sign up. */
export const sessionStateSchema = z.strictObject({
  user: z.strictObject({ id: z.string(), email: z.string(), name: z.string() }).nullable(),
  accounts: z.array(z.strictObject({ id: z.string(), name: z.string(), role: z.enum(roles), default_currency: z.string() })),
  csrf_token: z.string(),
  sign_up: z.enum(['open', 'invite']).optional(),
  password_reset_email: z.boolean().optional(),
});

export const dashboardFlagListSchema = pageOf(flagSchema);
export const dashboardExperimentListSchema = pageOf(experimentSchema);

/** The customer's email beside a subscription or an invoice: masked for roles that do not see emails; null once the customer is deleted. */
const customerEmail = { customer_email: z.string().nullable() };
/** A subscription as the dashboard lists it. */
export const dashboardSubscriptionSchema = subscriptionSchema.extend(customerEmail);
export const dashboardSubscriptionListSchema = pageOf(dashboardSubscriptionSchema);
/** An invoice as the dashboard lists it. */
export const dashboardInvoiceSchema = invoiceSchema.extend(customerEmail);
export const dashboardInvoiceListSchema = pageOf(dashboardInvoiceSchema);
/** A subscription's page: its newest invoices, and the events of it and of them, newest first. */
export const subscriptionDetailSchema = dashboardSubscriptionSchema.extend({
  invoices: z.array(invoiceSchema),
  timeline: z.array(timelineEventSchema),
});
/** An invoice's page: every payment that tried to pay it, newest first. */
export const invoiceDetailSchema = dashboardInvoiceSchema.extend({ payments: z.array(dashboardPaymentSchema) });
/** The Overview's recurring figures (docs/dashboard.md, "MRR and churn"). */
export const recurringRevenueSchema = z.strictObject({
  /** Per currency, in minor units a month. */
  mrr: z.array(z.strictObject({ currency: z.string(), amount: z.number().int(), subscriptions: z.number().int() })),
  churn: z.strictObject({
    from: z.number().int(),
    to: z.number().int(),
    active_at_start: z.number().int(),
    canceled: z.number().int(),
    rate: z.number().nullable(),
  }),
});
