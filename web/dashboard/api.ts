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

export type Role = 'owner' | 'admin' | 'developer' | 'support' | 'viewer';
export type Mode = 'test' | 'live';

export interface AccountSummary {
  id: string;
  name: string;
  role: Role;
  default_currency: string;
}

export interface SessionState {
  user: { id: string; email: string; name: string } | null;
  accounts: AccountSummary[];
  csrf_token: string;
  /** Signed out only: whether anyone may sign up (SIGNUP), and whether a reset link can be emailed. */
  sign_up?: 'open' | 'invite';
  password_reset_email?: boolean;
}

export interface Payment {
  id: string;
  status: string;
  /** What the dashboard shows: the status, or `partially_refunded` / `refunded` for a succeeded payment. */
  status_badge: string;
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  capture_method: string;
  /** Null for a charge of a saved payment method made from the server. */
  checkout_session: string | null;
  /** The customer (`cus_…`) who paid; null when none, or once the customer was deleted. */
  customer: string | null;
  customer_email: string | null;
  payment_method: {
    type: string;
    brand: string | null;
    last4: string | null;
    exp_month: number | null;
    exp_year: number | null;
    payer_email: string | null;
    username: string | null;
  } | null;
  processor: string;
  processor_transaction_id: string | null;
  processor_response: { code: string; text: string } | null;
  failure_code: string | null;
  decline_code: string | null;
  three_d_secure: { status: string; liability_shifted: boolean } | null;
  created: number;
}

export interface TimelineEvent {
  id: string;
  type: string;
  /** The payment's or one of its refunds' id. */
  object: string;
  created: number;
}

/** A webhook delivery an event caused, as a payment's story lists it. */
export interface StoryDelivery {
  id: string;
  webhook_endpoint: string;
  endpoint_url: string | null;
  status: string;
  attempts: number;
  last_response_status: number | null;
  next_attempt_at: number | null;
  created: number;
}

/** An event on a payment's timeline, with the deliveries it caused (null: the role may not read webhooks). */
export interface StoryEvent extends TimelineEvent {
  deliveries: StoryDelivery[] | null;
}

/** A payment's whole story: `GET …/payments/:id`. */
/** A question the checkout page asked (Stripe's `custom_fields[]`), with the shopper's answer. */
export interface CustomFieldAnswer {
  key: string;
  label: { type: 'custom'; custom: string };
  type: 'text' | 'numeric' | 'dropdown';
  optional: boolean;
  text?: { value: string | null };
  numeric?: { value: string | null };
  dropdown?: { options: Array<{ label: string; value: string }>; value: string | null };
}

/** A postal address in Stripe's shape. */
export interface PostalAddress {
  line1: string;
  line2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string;
}

/** The order as the shopper saw it when the payment was made (amounts in minor units). */
export interface PaymentOrder {
  /** Null for a charge of a saved payment method (no session, no lines). */
  amount_subtotal: number | null;
  discount: { amount: number; code: string | null; name: string | null } | null;
  shipping: { amount: number; name: string | null } | null;
  amount_tax: number;
  taxes: Array<{ amount: number; display_name: string; percentage: number; inclusive: boolean }>;
  amount_total: number;
}

export interface PaymentStory extends Payment {
  line_items: Array<{ name: string; unit_amount: number; quantity: number; amount: number }>;
  order: PaymentOrder;
  shipping_details: { name: string; address: PostalAddress } | null;
  customer_details: { email: string | null; address: PostalAddress | null } | null;
  /** Of all disputes of the payment; lost is what lost, accepted or expired ones took back. */
  amount_disputed: number;
  amount_lost: number;
  /** The shopper's answers to the session's custom fields, as they were when the payment was made. */
  custom_fields?: CustomFieldAnswer[];
  metadata: Record<string, string>;
  client_reference_id: string | null;
  refunds: Refund[];
  disputes: Array<{ id: string; status: string; amount: number; currency: string; reply_by: number | null }>;
  timeline: StoryEvent[];
  /** Null when the role may not read the request log. */
  request_log: Array<{ id: string; method: string; path: string; status: number; error_code: string | null; request_id: string; created: number }> | null;
}

export interface Refund {
  id: string;
  amount: number;
  currency: string;
  reason: string | null;
  status: string;
  failure_reason: string | null;
  created: number;
}

export interface CheckoutSession {
  id: string;
  status: string;
  url: string | null;
  currency: string;
  amount_total: number;
  customer_email: string | null;
  line_items: Array<{ name: string; unit_amount: number; quantity: number; amount: number }>;
  payment: string | null;
  expires_at: number;
  completed_at: number | null;
  created: number;
}

export interface List<T> {
  data: T[];
  has_more: boolean;
}

export interface Customer {
  id: string;
  /** Masked (`j•••@example.com`) for roles that do not see customer emails. */
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
  created: number;
}

/** A customer's page: the customer and its saved payment methods, of which only brand, last4 and expiry. */
export interface CustomerDetail extends Customer {
  payment_methods: Array<{
    id: string;
    type: string;
    brand: string | null;
    last4: string | null;
    exp_month: number | null;
    exp_year: number | null;
    created: number;
  }>;
}
