import type { Address } from '../../src/domain/addresses/entities';
import type { PaymentMethodType } from '../../src/domain/payments/entities';

/** A 3-D Secure verification in test mode: the nonce to pay with, and whether a test challenge waits. */
export interface TestThreeDSecureAnswer {
  nonce: string;
  status: string;
  liability_shifted: boolean;
  liability_shift_possible: boolean;
  challenge: boolean;
}

/** The public view of a checkout session, as `GET /api/checkout/sessions/:id` answers. */
export interface PublicSession {
  id: string;
  status: 'open' | 'complete' | 'expired';
  livemode: boolean;
  merchant: { name: string; logo_url: string | null; accent_color: string | null };
  currency: string;
  locale: string | null;
  line_items: Array<{
    name: string;
    unit_amount: number;
    quantity: number;
    amount: number;
    /** The shopper may change the quantity, from `minimum` to `maximum` (shop/QuantityStepper.tsx). */
    adjustable_quantity?: { enabled: boolean; minimum: number; maximum: number };
  }>;
  /** Up to 3 questions asked before paying (shop/CustomFields.tsx), answered with the payment. */
  custom_fields?: PublicCustomField[];
  amount_total: number;
  customer_email: string | null;
  /** `shopper_choice`: ask for consent to save the card; `on`: say it will be saved. */
  save_payment_method: 'on' | 'shopper_choice' | null;
  /** `setup`: the page saves the card without charging ("Save card" instead of Pay). */
  mode: 'payment' | 'setup' | 'subscription';
  /**
   * Subscription mode: what renews (`amount`, the price × quantity) every `interval_count` `interval`s,
   * after `trial_period_days` free (nothing charged today then); null in the other modes.
   */
  subscription?: SubscriptionTerms | null;
  /** The customer's saved cards, offered for one tap. */
  saved_payment_methods: SavedCard[];
  /** A saved card asks for its CVC again before paying. */
  saved_card_cvc_required: boolean;
  payment_method_types: PaymentMethodType[];
  expires_at: number | null;
  cancel_url: string | null;
  redirect_url: string | null;
  /**
   * The payment under way or made: `type` is its method (`card`, `paypal`, `venmo`…), shown on the
   * receipt ("Paid with PayPal"); `method_name` names a local payment method (`iDEAL`).
   */
  payment: { status: string; amount: number; type?: string | null; method_name?: string | null; brand: string | null; last4: string | null } | null;
  processor: { name: string } & Record<string, unknown>;
  // Shop options (docs/pricing.md, ADR 0068): figures as the server priced them.
  amount_subtotal?: number;
  total_details?: {
    amount_discount: number;
    amount_shipping: number;
    amount_tax: number;
    /** Each tax by rate; an inclusive one is part of the prices, not added to them. */
    breakdown: { taxes: Array<{ amount: number; rate: { display_name: string; percentage: number; inclusive: boolean } }> };
  };
  allow_promotion_codes?: boolean;
  discount?: { code: string | null; name: string | null; percent_off: number | null; amount_off: number | null } | null;
  shipping_options?: Array<{
    id: string;
    display_name: string;
    amount: number;
    delivery_estimate: {
      minimum: { unit: 'hour' | 'day' | 'business_day' | 'week' | 'month'; value: number } | null;
      maximum: { unit: 'hour' | 'day' | 'business_day' | 'week' | 'month'; value: number } | null;
    } | null;
  }>;
  shipping_rate?: string | null;
  billing_address_collection?: 'auto' | 'required';
  shipping_address_collection?: { allowed_countries: string[] } | null;
  shipping_details?: { name: string; address: PublicAddress } | null;
  billing_address?: PublicAddress | null;
}

/** A subscription session's renewal, as the page says it ("Then $20.00 every month"). */
export interface SubscriptionTerms {
  interval: 'day' | 'week' | 'month' | 'year';
  interval_count: number;
  trial_period_days: number | null;
  amount: number;
}

/** A custom field as the page sees it (Stripe's shape); `value` is the answer once given. */
export type PublicCustomField = {
  key: string;
  label: { type: 'custom'; custom: string };
  optional: boolean;
} & (
  | { type: 'text'; text: CustomFieldLengths }
  | { type: 'numeric'; numeric: CustomFieldLengths }
  | { type: 'dropdown'; dropdown: { options: Array<{ label: string; value: string }>; value: string | null } }
);

export interface CustomFieldLengths {
  minimum_length: number | null;
  maximum_length: number | null;
  value: string | null;
}

/** Stripe's address shape, as the domain defines it. */
export type PublicAddress = Address;

/** A card saved for the session's customer, as the page may show it. */
export interface SavedCard {
  id: string;
  brand: string | null;
  last4: string | null;
  exp_month: number | null;
  exp_year: number | null;
}

/** An answer in the error envelope of design.md §8, or a network failure (`code: 'network'`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly declineCode?: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The error envelope of design.md §8, as far as the page reads it. */
type ErrorBody = { error?: { code?: string; message?: string; decline_code?: string; param?: string } };

/** A call to the checkout page's API: the answer, or an `ApiError`. */
export async function request<T>(path: string, init?: { body: unknown }): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init ? 'POST' : 'GET',
      headers: init ? { 'content-type': 'application/json' } : {},
      body: init ? JSON.stringify(init.body) : undefined,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network', 'network error');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (body as ErrorBody | null)?.error ?? {};
    throw new ApiError(response.status, error.code ?? 'internal_error', error.message ?? '', error.decline_code, error.param);
  }
  return body as T;
}

export const base = (sessionId: string) => `/api/checkout/sessions/${encodeURIComponent(sessionId)}`;

export const checkoutApi = {
  getSession: (sessionId: string) => request<PublicSession>(base(sessionId)),
  tokenizeCard: (sessionId: string, card: { number: string; exp_month: number; exp_year: number; cvc: string; postal_code: string }) =>
    request<{ nonce: string; brand: string | null; last4: string | null }>(`${base(sessionId)}/card-tokens`, { body: card }),
  tokenizeCvc: (sessionId: string, body: { payment_method: string; cvc: string }) => request<{ nonce: string }>(`${base(sessionId)}/cvc-tokens`, { body }),
  tokenizeGooglePay: (sessionId: string, payment: { token: string; card_network: string; card_details: string }) =>
    request<{ nonce: string; brand: string | null; last4: string | null }>(`${base(sessionId)}/google-pay-tokens`, { body: payment }),
  pay: (
    sessionId: string,
    payment: {
      payment_method_type: PaymentMethodType;
      nonce?: string;
      payment_method?: string;
      save_payment_method?: boolean;
      email: string;
      device_data?: string | null;
      custom_fields?: Record<string, string | null>;
    },
  ) => request<{ status: string; redirect_url: string }>(`${base(sessionId)}/payments`, { body: payment }),
};
