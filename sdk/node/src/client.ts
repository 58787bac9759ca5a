import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse } from './errors.js';
import type { paths } from './generated/openapi.js';
import { ListPromise } from './pagination.js';
import { streamEvents, type EventStreamOptions } from './stream.js';
import { retryingFetch } from './transport.js';
import type {
  CheckoutSession,
  CheckoutSessionCreateParams,
  Coupon,
  CouponCreateParams,
  Customer,
  CustomerCreateParams,
  CustomerListParams,
  CustomerUpdateParams,
  PaymentMethod,
  Deleted,
  Event,
  EventListParams,
  ListParams,
  Page,
  Payment,
  PaymentCaptureParams,
  PaymentCreateParams,
  PaymentLink,
  PaymentLinkCreateParams,
  PaymentLinkUpdateParams,
  PaymentListParams,
  PaymentSearchParams,
  Receipt,
  Price,
  PriceCreateParams,
  PriceListParams,
  PriceUpdateParams,
  Product,
  ProductCreateParams,
  ProductUpdateParams,
  PromotionCode,
  PromotionCodeCreateParams,
  PromotionCodeListParams,
  Refund,
  RefundCreateParams,
  RefundListParams,
  Dispute,
  DisputeListParams,
  DisputeEvidenceParams,
  RequestOptions,
  TaxRate,
  TaxRateCreateParams,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreateParams,
  WebhookEndpointUpdateParams,
  Subscription,
  SubscriptionCreateParams,
  SubscriptionUpdateParams,
  SubscriptionListParams,
  Invoice,
  InvoiceListParams,
  InvoicePayParams,
  TestClock,
  TestClockCreateParams,
  BillingPortalSession,
  BillingPortalSessionCreateParams,
  TestClockListParams,
} from './types.js';
import { Webhooks } from './webhooks.js';

export interface TillpointOptions {
  /** Where the Tillpoint server is; `http://localhost:4242` unless said. */
  baseUrl?: string;
  /** Retries after a network failure, a timeout, a 5xx or a 429, each with the same Idempotency-Key. Default 2. */
  maxNetworkRetries?: number;
  /** Time allowed for one attempt, in milliseconds. Default 30,000. */
  timeoutMs?: number;
  /** First backoff between retries, doubled each time. Default 500 ms. */
  initialRetryDelayMs?: number;
  /** A `fetch` of your own (a proxy agent, instrumentation). */
  fetch?: typeof globalThis.fetch;
}

type ApiClient = Client<paths>;
type Result<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/** The answer's data, or the typed error it carries. */
async function unwrap<T>(call: Result<T>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || error !== undefined) {
    throw errorFromResponse(response.status, error, response.headers.get('request-id'));
  }
  return data as T;
}

const post = (options: RequestOptions = {}) => ({
  ...(options.idempotencyKey ? { headers: { 'Idempotency-Key': options.idempotencyKey } } : {}),
  ...(options.signal ? { signal: options.signal } : {}),
});
const get = (options: RequestOptions = {}) => (options.signal ? { signal: options.signal } : {});

class CheckoutSessions {
  constructor(private readonly api: ApiClient) {}
  /** Opens a checkout session: send the shopper to its `url`. */
  create(params: CheckoutSessionCreateParams, options?: RequestOptions): Promise<CheckoutSession> {
    return unwrap(this.api.POST('/v1/checkout/sessions', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<CheckoutSession> {
    return unwrap(this.api.GET('/v1/checkout/sessions/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** Newest first; await for one page, or `for await` over every session. */
  list(params: ListParams = {}, options?: RequestOptions): ListPromise<CheckoutSession> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/checkout/sessions', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
  /** Stops an open session from being paid. */
  expire(id: string, options?: RequestOptions): Promise<CheckoutSession> {
    return unwrap(this.api.POST('/v1/checkout/sessions/{id}/expire', { params: { path: { id } }, ...post(options) }));
  }
}

class Payments {
  constructor(private readonly api: ApiClient) {}
  /**
   * Charges a customer's saved payment method with no shopper present (merchant-initiated); send an
   * `idempotencyKey` so a retry cannot charge twice.
   * @example tp.payments.create({ customer: 'cus_…', payment_method: 'pm_…', amount: 1500, currency: 'usd' }, { idempotencyKey: 'order-17' })
   */
  create(params: PaymentCreateParams, options?: RequestOptions): Promise<Payment> {
    return unwrap(this.api.POST('/v1/payments', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<Payment> {
    return unwrap(this.api.GET('/v1/payments/{id}', { params: { path: { id } }, ...get(options) }));
  }
  list(params: PaymentListParams = {}, options?: RequestOptions): ListPromise<Payment> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/payments', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
  /**
   * Payments matching a query such as `status:'succeeded' AND amount>1000 AND email~'@example.com'`,
   * newest first; await for one page, or `for await` over every match.
   */
  search(params: PaymentSearchParams, options?: RequestOptions): ListPromise<Payment> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/payments/search', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
  /** Captures an authorized (`requires_capture`) payment, all of it unless `amount` says less. */
  capture(id: string, params: PaymentCaptureParams = {}, options?: RequestOptions): Promise<Payment> {
    return unwrap(this.api.POST('/v1/payments/{id}/capture', { params: { path: { id } }, body: params, ...post(options) }));
  }
  /** Voids an authorized payment. */
  cancel(id: string, options?: RequestOptions): Promise<Payment> {
    return unwrap(this.api.POST('/v1/payments/{id}/cancel', { params: { path: { id } }, ...post(options) }));
  }
  /** Emails the receipt of a succeeded payment to the shopper's email, now (docs/receipts.md). */
  sendReceipt(id: string, options?: RequestOptions): Promise<Receipt> {
    return unwrap(this.api.POST('/v1/payments/{id}/send_receipt', { params: { path: { id } }, ...post(options) }));
  }
}

class Refunds {
  constructor(private readonly api: ApiClient) {}
  create(params: RefundCreateParams, options?: RequestOptions): Promise<Refund> {
    return unwrap(this.api.POST('/v1/refunds', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<Refund> {
    return unwrap(this.api.GET('/v1/refunds/{id}', { params: { path: { id } }, ...get(options) }));
  }
  list(params: RefundListParams = {}, options?: RequestOptions): ListPromise<Refund> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/refunds', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
}

/** Chargebacks: read them, answer with evidence and submit it, or accept the loss, before `reply_by`. */
class Disputes {
  constructor(private readonly api: ApiClient) {}
  retrieve(id: string, options?: RequestOptions): Promise<Dispute> {
    return unwrap(this.api.GET('/v1/disputes/{id}', { params: { path: { id } }, ...get(options) }));
  }
  list(params: DisputeListParams = {}, options?: RequestOptions): ListPromise<Dispute> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/disputes', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
  /**
   * Adds evidence: text, a file, or both.
   * @example
   * await tp.disputes.addEvidence(id, { text: 'Delivered on 2 January, signed for by the cardholder' });
   * await tp.disputes.addEvidence(id, { file: { name: 'receipt.pdf', type: 'application/pdf', data: pdf.toString('base64') } });
   */
  addEvidence(id: string, params: DisputeEvidenceParams, options?: RequestOptions): Promise<Dispute> {
    return unwrap(this.api.POST('/v1/disputes/{id}', { params: { path: { id } }, body: params, ...post(options) }));
  }
  /** Submits the evidence given so far; the dispute goes `under_review`. */
  submit(id: string, options?: RequestOptions): Promise<Dispute> {
    return unwrap(this.api.POST('/v1/disputes/{id}/submit', { params: { path: { id } }, ...post(options) }));
  }
  /** Accepts the dispute: the money is given up. */
  accept(id: string, options?: RequestOptions): Promise<Dispute> {
    return unwrap(this.api.POST('/v1/disputes/{id}/accept', { params: { path: { id } }, ...post(options) }));
  }
}

class Events {
  constructor(
    private readonly api: ApiClient,
    private readonly streamOptions: { baseUrl: string; secretKey: string; fetch: typeof globalThis.fetch },
  ) {}
  retrieve(id: string, options?: RequestOptions): Promise<Event> {
    return unwrap(this.api.GET('/v1/events/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** Filter with `type` and `'created[gte]'` / `'created[lte]'` (Unix seconds, inclusive). */
  list(params: EventListParams = {}, options?: RequestOptions): ListPromise<Event> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/events', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
  /** The account's events from now on, as they happen (`for await`); resumes by itself after a dropped connection. */
  stream(options: EventStreamOptions = {}): AsyncGenerator<Event> {
    return streamEvents({ ...this.streamOptions, ...options });
  }
}

class WebhookEndpoints {
  constructor(private readonly api: ApiClient) {}
  /** The answer holds the signing `secret`, shown only here. */
  create(params: WebhookEndpointCreateParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return unwrap(this.api.POST('/v1/webhook_endpoints', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return unwrap(this.api.GET('/v1/webhook_endpoints/{id}', { params: { path: { id } }, ...get(options) }));
  }
  update(id: string, params: WebhookEndpointUpdateParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return unwrap(this.api.POST('/v1/webhook_endpoints/{id}', { params: { path: { id } }, body: params, ...post(options) }));
  }
  del(id: string, options?: RequestOptions): Promise<Deleted> {
    return unwrap(this.api.DELETE('/v1/webhook_endpoints/{id}', { params: { path: { id } }, ...get(options) }));
  }
  list(params: ListParams = {}, options?: RequestOptions): ListPromise<WebhookEndpoint> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/webhook_endpoints', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
  /** A new signing secret at once; the answer holds it. */
  rollSecret(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return unwrap(this.api.POST('/v1/webhook_endpoints/{id}/roll_secret', { params: { path: { id } }, ...post(options) }));
  }
  listDeliveries(id: string, params: ListParams = {}, options?: RequestOptions): ListPromise<WebhookDelivery> {
    return new ListPromise(
      (startingAfter) =>
        unwrap(
          this.api.GET('/v1/webhook_endpoints/{id}/deliveries', {
            params: { path: { id }, query: { ...params, starting_after: startingAfter } },
            ...get(options),
          }),
        ),
      params.starting_after,
    );
  }
  resendDelivery(id: string, deliveryId: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return unwrap(
      this.api.POST('/v1/webhook_endpoints/{id}/deliveries/{delivery_id}/resend', {
        params: { path: { id, delivery_id: deliveryId } },
        ...post(options),
      }),
    );
  }
}

class Products {
  constructor(private readonly api: ApiClient) {}
  create(params: ProductCreateParams, options?: RequestOptions): Promise<Product> {
    return unwrap(this.api.POST('/v1/products', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<Product> {
    return unwrap(this.api.GET('/v1/products/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** Only the fields given change: `name`, `description`, `active` (`false` archives it), `default_price`. */
  update(id: string, params: ProductUpdateParams, options?: RequestOptions): Promise<Product> {
    return unwrap(this.api.POST('/v1/products/{id}', { params: { path: { id } }, body: params, ...post(options) }));
  }
  list(params: ListParams = {}, options?: RequestOptions): ListPromise<Product> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/products', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
}

class Prices {
  constructor(private readonly api: ApiClient) {}
  /** A one-time price, or one that renews with `recurring: { interval, interval_count }`. */
  create(params: PriceCreateParams, options?: RequestOptions): Promise<Price> {
    return unwrap(this.api.POST('/v1/prices', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<Price> {
    return unwrap(this.api.GET('/v1/prices/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** Only `active`, `nickname` and `metadata` change: a price's amount never does. */
  update(id: string, params: PriceUpdateParams, options?: RequestOptions): Promise<Price> {
    return unwrap(this.api.POST('/v1/prices/{id}', { params: { path: { id } }, body: params, ...post(options) }));
  }
  /** `product`, `active` (`'true'` or `'false'`) and `type` (`one_time` or `recurring`) narrow the list. */
  list(params: PriceListParams = {}, options?: RequestOptions): ListPromise<Price> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/prices', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
}

class Subscriptions {
  constructor(private readonly api: ApiClient) {}
  /** Starts a subscription for a customer with a saved payment method; its first invoice is charged at once unless it has a trial. */
  create(params: SubscriptionCreateParams, options?: RequestOptions): Promise<Subscription> {
    return unwrap(this.api.POST('/v1/subscriptions', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<Subscription> {
    return unwrap(this.api.GET('/v1/subscriptions/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** Its price or quantity (prorated unless `proration_behavior: 'none'`), `cancel_at_period_end`, payment method, metadata. */
  update(id: string, params: SubscriptionUpdateParams, options?: RequestOptions): Promise<Subscription> {
    return unwrap(this.api.POST('/v1/subscriptions/{id}', { params: { path: { id } }, body: params, ...post(options) }));
  }
  /** Cancels it now: it ends at once and its open invoices are voided. */
  cancel(id: string, options?: RequestOptions): Promise<Subscription> {
    return unwrap(this.api.DELETE('/v1/subscriptions/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** `customer` and `status` narrow the list. */
  list(params: SubscriptionListParams = {}, options?: RequestOptions): ListPromise<Subscription> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/subscriptions', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
}

class Invoices {
  constructor(private readonly api: ApiClient) {}
  retrieve(id: string, options?: RequestOptions): Promise<Invoice> {
    return unwrap(this.api.GET('/v1/invoices/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** Charges an open or uncollectible invoice now, to its subscription's payment method or `payment_method`. */
  pay(id: string, params: InvoicePayParams = {}, options?: RequestOptions): Promise<Invoice> {
    return unwrap(this.api.POST('/v1/invoices/{id}/pay', { params: { path: { id } }, body: params, ...post(options) }));
  }
  voidInvoice(id: string, options?: RequestOptions): Promise<Invoice> {
    return unwrap(this.api.POST('/v1/invoices/{id}/void', { params: { path: { id } }, ...post(options) }));
  }
  /** `customer`, `subscription` and `status` narrow the list. */
  list(params: InvoiceListParams = {}, options?: RequestOptions): ListPromise<Invoice> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/invoices', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
}

class TestClocks {
  constructor(private readonly api: ApiClient) {}
  /** A test clock at `frozen_time` (Unix seconds), test mode only: make customers with `test_clock` on it. */
  create(params: TestClockCreateParams, options?: RequestOptions): Promise<TestClock> {
    return unwrap(this.api.POST('/v1/test_helpers/test_clocks', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<TestClock> {
    return unwrap(this.api.GET('/v1/test_helpers/test_clocks/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** Moves the clock to `frozen_time`, running every renewal and retry due on the way; answers it `ready`. */
  advance(id: string, params: { frozen_time: number }, options?: RequestOptions): Promise<TestClock> {
    return unwrap(this.api.POST('/v1/test_helpers/test_clocks/{id}/advance', { params: { path: { id } }, body: params, ...post(options) }));
  }
  list(params: TestClockListParams = {}, options?: RequestOptions): ListPromise<TestClock> {
    return new ListPromise(
      (startingAfter) =>
        unwrap(this.api.GET('/v1/test_helpers/test_clocks', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
}

class BillingPortalSessions {
  constructor(private readonly api: ApiClient) {}
  /** A customer portal page for `customer`: send them to its `url` (it opens for an hour). */
  create(params: BillingPortalSessionCreateParams, options?: RequestOptions): Promise<BillingPortalSession> {
    return unwrap(this.api.POST('/v1/billing_portal/sessions', { body: params, ...post(options) }));
  }
}

class Customers {
  constructor(private readonly api: ApiClient) {}
  create(params: CustomerCreateParams = {}, options?: RequestOptions): Promise<Customer> {
    return unwrap(this.api.POST('/v1/customers', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<Customer> {
    return unwrap(this.api.GET('/v1/customers/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** Only the fields given change; `null` clears one, an empty metadata value removes its key. */
  update(id: string, params: CustomerUpdateParams, options?: RequestOptions): Promise<Customer> {
    return unwrap(this.api.POST('/v1/customers/{id}', { params: { path: { id } }, body: params, ...post(options) }));
  }
  /** Deletes the customer and its saved payment methods; its past payments stay, detached. */
  del(id: string, options?: RequestOptions): Promise<Deleted> {
    return unwrap(this.api.DELETE('/v1/customers/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** `email` keeps the customers with that address. */
  list(params: CustomerListParams = {}, options?: RequestOptions): ListPromise<Customer> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/customers', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
}

class PaymentMethods {
  constructor(private readonly api: ApiClient) {}
  /** A customer's saved payment methods, newest first (one page holds them all). */
  list(customerId: string, options?: RequestOptions): Promise<Page<PaymentMethod>> {
    return unwrap(this.api.GET('/v1/customers/{id}/payment_methods', { params: { path: { id: customerId } }, ...get(options) }));
  }
  /** Deletes a saved payment method, at the processor too. */
  del(id: string, options?: RequestOptions): Promise<Deleted> {
    return unwrap(this.api.DELETE('/v1/payment_methods/{id}', { params: { path: { id } }, ...get(options) }));
  }
}

class PaymentLinks {
  constructor(private readonly api: ApiClient) {}
  create(params: PaymentLinkCreateParams, options?: RequestOptions): Promise<PaymentLink> {
    return unwrap(this.api.POST('/v1/payment_links', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<PaymentLink> {
    return unwrap(this.api.GET('/v1/payment_links/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** `active: false` turns the link off. */
  update(id: string, params: PaymentLinkUpdateParams, options?: RequestOptions): Promise<PaymentLink> {
    return unwrap(this.api.POST('/v1/payment_links/{id}', { params: { path: { id } }, body: params, ...post(options) }));
  }
  list(params: ListParams = {}, options?: RequestOptions): ListPromise<PaymentLink> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/payment_links', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
}

class Coupons {
  constructor(private readonly api: ApiClient) {}
  /** `percent_off`, or `amount_off` with its `currency`; redeemed once per checkout session. */
  create(params: CouponCreateParams, options?: RequestOptions): Promise<Coupon> {
    return unwrap(this.api.POST('/v1/coupons', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<Coupon> {
    return unwrap(this.api.GET('/v1/coupons/{id}', { params: { path: { id } }, ...get(options) }));
  }
  list(params: ListParams = {}, options?: RequestOptions): ListPromise<Coupon> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/coupons', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
}

class PromotionCodes {
  constructor(private readonly api: ApiClient) {}
  /** A code shoppers type for a coupon; `code` is generated when not given. */
  create(params: PromotionCodeCreateParams, options?: RequestOptions): Promise<PromotionCode> {
    return unwrap(this.api.POST('/v1/promotion_codes', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<PromotionCode> {
    return unwrap(this.api.GET('/v1/promotion_codes/{id}', { params: { path: { id } }, ...get(options) }));
  }
  /** `code` finds a code by its text, whatever the case. */
  list(params: PromotionCodeListParams = {}, options?: RequestOptions): ListPromise<PromotionCode> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/promotion_codes', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
}

class TaxRates {
  constructor(private readonly api: ApiClient) {}
  /** A percentage, inclusive or exclusive, that line items name in `tax_rates`. */
  create(params: TaxRateCreateParams, options?: RequestOptions): Promise<TaxRate> {
    return unwrap(this.api.POST('/v1/tax_rates', { body: params, ...post(options) }));
  }
  retrieve(id: string, options?: RequestOptions): Promise<TaxRate> {
    return unwrap(this.api.GET('/v1/tax_rates/{id}', { params: { path: { id } }, ...get(options) }));
  }
  list(params: ListParams = {}, options?: RequestOptions): ListPromise<TaxRate> {
    return new ListPromise(
      (startingAfter) => unwrap(this.api.GET('/v1/tax_rates', { params: { query: { ...params, starting_after: startingAfter } }, ...get(options) })),
      params.starting_after,
    );
  }
}

/**
 * The Tillpoint API client.
 * @example
 * const tp = new Tillpoint(process.env.TILLPOINT_API_KEY!, { baseUrl: 'https://pay.example.com' });
 * const session = await tp.checkout.sessions.create({ currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 1650, quantity: 1 }] });
 */
export class Tillpoint {
  readonly checkout: { sessions: CheckoutSessions };
  readonly payments: Payments;
  readonly refunds: Refunds;
  readonly disputes: Disputes;
  readonly events: Events;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly products: Products;
  readonly prices: Prices;
  readonly paymentLinks: PaymentLinks;
  readonly coupons: Coupons;
  readonly promotionCodes: PromotionCodes;
  readonly taxRates: TaxRates;
  readonly customers: Customers;
  readonly paymentMethods: PaymentMethods;
  readonly subscriptions: Subscriptions;
  readonly invoices: Invoices;
  /** Test mode helpers: `testClocks` rehearse a subscription's renewals in seconds. */
  readonly testHelpers: { testClocks: TestClocks };
  /** The customer portal: `billingPortal.sessions.create({customer, return_url})`. */
  readonly billingPortal: { sessions: BillingPortalSessions };
  readonly webhooks = new Webhooks();

  constructor(secretKey: string, options: TillpointOptions = {}) {
    if (!secretKey || typeof secretKey !== 'string') throw new TypeError('new Tillpoint(secretKey): give a secret key (sk_test_… or sk_live_…)');
    const baseUrl = (options.baseUrl ?? 'http://localhost:4242').replace(/\/+$/, '');
    const fetch = options.fetch ?? globalThis.fetch;
    const api = createClient<paths>({
      baseUrl,
      headers: { authorization: `Bearer ${secretKey}` },
      fetch: retryingFetch({
        fetch,
        maxNetworkRetries: options.maxNetworkRetries ?? 2,
        timeoutMs: options.timeoutMs ?? 30_000,
        initialRetryDelayMs: options.initialRetryDelayMs ?? 500,
        maxRetryDelayMs: 8_000,
      }),
    });
    this.checkout = { sessions: new CheckoutSessions(api) };
    this.payments = new Payments(api);
    this.refunds = new Refunds(api);
    this.disputes = new Disputes(api);
    this.events = new Events(api, { baseUrl, secretKey, fetch });
    this.webhookEndpoints = new WebhookEndpoints(api);
    this.products = new Products(api);
    this.prices = new Prices(api);
    this.paymentLinks = new PaymentLinks(api);
    this.coupons = new Coupons(api);
    this.promotionCodes = new PromotionCodes(api);
    this.taxRates = new TaxRates(api);
    this.customers = new Customers(api);
    this.paymentMethods = new PaymentMethods(api);
    this.subscriptions = new Subscriptions(api);
    this.invoices = new Invoices(api);
    this.testHelpers = { testClocks: new TestClocks(api) };
    this.billingPortal = { sessions: new BillingPortalSessions(api) };
  }
}
