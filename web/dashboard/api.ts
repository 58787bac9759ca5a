import type { z } from 'zod';
import type {
  customerDetailSchema,
  dashboardInvoiceSchema,
  dashboardSubscriptionSchema,
  invoiceDetailSchema,
  recurringRevenueSchema,
  subscriptionDetailSchema,
  dashboardPaymentSchema,
  dashboardExperimentListSchema,
  dashboardFlagListSchema,
  dashboardWebhookDeliveryListSchema,
  guestCustomerListSchema,
  paymentStorySchema,
  sessionHistorySchema,
  sessionStateSchema,
  storyDeliverySchema,
  timelineEventSchema,
} from '../../src/http/dashboard/response-schemas';
import type {
  checkoutSessionSchema,
  customerSchema,
  disputeSchema,
  experimentResultsSchema,
  paymentLinkSchema,
  productSchema,
  refundSchema,
  webhookEndpointSchema,
} from '../../src/http/response-schemas';

/** The dashboard's calls to /dashboard/api: cookie auth, and the CSRF token on every write. */

export class DashboardApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'DashboardApiError';
  }
}

let csrfToken = '';

/** Set from `GET /dashboard/api/session` and from every sign-in or sign-up answer. */
export function setCsrfToken(token: string) {
  csrfToken = token;
}

/**
 * One call. `signal` (a query's) cancels it: a read the page no longer wants is aborted, and its
 * answer, were it to come, is never used.
 */
export async function api<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: object, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/dashboard/api${path}`, {
      method,
      credentials: 'same-origin',
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(method === 'GET' ? {} : { 'x-csrf-token': csrfToken }),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new DashboardApiError(0, 'network', 'The server could not be reached. Check your connection and try again.');
  }
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string; param?: string } } | null)?.error ?? {};
    throw new DashboardApiError(response.status, error.code ?? 'internal_error', error.message ?? 'Something went wrong', error.param);
  }
  return json as T;
}

/*
 * The API objects the pages read, inferred from the server's response schemas (`import type`: no
 * schema, and no server code, reaches the browser). A field added to a schema is here at once.
 */

export type SessionState = z.output<typeof sessionStateSchema>;
export type AccountSummary = SessionState['accounts'][number];
export type Role = AccountSummary['role'];
export type Mode = 'test' | 'live';

/** A payment as the lists show it: `status_badge` is the status, or `partially_refunded` / `refunded` for a succeeded payment. */
export type Product = z.output<typeof productSchema>;
export type PaymentLink = z.output<typeof paymentLinkSchema>;
export type Payment = z.output<typeof dashboardPaymentSchema>;
/** A payment's whole story: `GET …/payments/:id`. */
export type PaymentStory = z.output<typeof paymentStorySchema>;
export type TimelineEvent = z.output<typeof timelineEventSchema>;
/** An event on a payment's timeline, with the deliveries it caused (null: the role may not read webhooks). */
export type StoryEvent = PaymentStory['timeline'][number];
export type StoryDelivery = z.output<typeof storyDeliverySchema>;
/** A question the checkout page asked (Stripe's `custom_fields[]`), with the shopper's answer. */
export type CustomFieldAnswer = NonNullable<PaymentStory['custom_fields']>[number];
/** A postal address in Stripe's shape. */
export type PostalAddress = NonNullable<PaymentStory['shipping_details']>['address'];
export type Refund = z.output<typeof refundSchema>;
export type CheckoutSession = z.output<typeof checkoutSessionSchema>;
/** A checkout session with its payment attempts and events. */
export type SessionHistory = z.output<typeof sessionHistorySchema>;
export type Customer = z.output<typeof customerSchema>;
export type CustomerDetail = z.output<typeof customerDetailSchema>;
export type GuestCustomer = z.output<typeof guestCustomerListSchema>['data'][number];
export type Dispute = z.output<typeof disputeSchema>;
/** A subscription as the Subscriptions list shows it, with its customer's email (masked for roles that do not see emails). */
export type Subscription = z.output<typeof dashboardSubscriptionSchema>;
/** A subscription's page: its newest invoices and its timeline, newest first. */
export type SubscriptionDetail = z.output<typeof subscriptionDetailSchema>;
export type Invoice = z.output<typeof dashboardInvoiceSchema>;
/** An invoice's page: its lines and the payments that tried to pay it. */
export type InvoiceDetail = z.output<typeof invoiceDetailSchema>;
/** The Overview's MRR per currency and churn over the last 30 days. */
export type RecurringRevenue = z.output<typeof recurringRevenueSchema>;
export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;
export type WebhookDelivery = z.output<typeof dashboardWebhookDeliveryListSchema>['data'][number];
export type Flag = z.output<typeof dashboardFlagListSchema>['data'][number];
export type Experiment = z.output<typeof dashboardExperimentListSchema>['data'][number];
export type ExperimentResults = z.output<typeof experimentResultsSchema>;

/** One page of a list. */
export interface List<T> {
  data: T[];
  has_more: boolean;
}
