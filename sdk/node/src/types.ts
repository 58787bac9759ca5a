import type { components, operations, paths } from './generated/openapi.js';

export type { components, operations, paths };

type Schemas = components['schemas'];

export type CheckoutSession = Schemas['CheckoutSession'];
export type Payment = Schemas['Payment'];
export type Refund = Schemas['Refund'];
export type Dispute = Schemas['Dispute'];
export type Event = Schemas['Event'];
export type EventType = Event['type'];
export type Product = Schemas['Product'];
export type Price = Schemas['Price'];
export type PaymentLink = Schemas['PaymentLink'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type Customer = Schemas['Customer'];
export type PaymentMethod = Schemas['PaymentMethod'];
export type Deleted = Schemas['Deleted'];
export type Receipt = Schemas['Receipt'];
export type Coupon = Schemas['Coupon'];
export type PromotionCode = Schemas['PromotionCode'];
export type TotalDetails = Schemas['TotalDetails'];
export type TaxRate = Schemas['TaxRate'];
export type Subscription = Schemas['Subscription'];
export type Invoice = Schemas['Invoice'];
export type TestClock = Schemas['TestClock'];
export type BillingPortalSession = Schemas['BillingPortalSession'];

type JsonBody<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type CheckoutSessionCreateParams = JsonBody<operations['postV1CheckoutSessions']>;
export type ListParams = Query<operations['getV1CheckoutSessions']>;
export type PaymentListParams = Query<operations['getV1Payments']>;
export type PaymentSearchParams = Query<operations['getV1PaymentsSearch']>;
export type PaymentCreateParams = JsonBody<operations['postV1Payments']>;
export type PaymentCaptureParams = JsonBody<operations['postV1PaymentsIdCapture']>;
export type RefundCreateParams = JsonBody<operations['postV1Refunds']>;
export type RefundListParams = Query<operations['getV1Refunds']>;
export type DisputeListParams = Query<operations['getV1Disputes']>;
/** Text evidence, a file (`data` in base64: JPEG, PNG or PDF, at most 4 MB), or both. */
export type DisputeEvidenceParams = JsonBody<operations['postV1DisputesId']>;
export type EventListParams = Query<operations['getV1Events']>;
export type CustomerCreateParams = JsonBody<operations['postV1Customers']>;
export type CustomerUpdateParams = JsonBody<operations['postV1CustomersId']>;
export type CustomerListParams = Query<operations['getV1Customers']>;
export type ProductCreateParams = JsonBody<operations['postV1Products']>;
export type ProductUpdateParams = JsonBody<operations['postV1ProductsId']>;
export type PriceCreateParams = JsonBody<operations['postV1Prices']>;
export type PriceUpdateParams = JsonBody<operations['postV1PricesId']>;
export type PriceListParams = Query<operations['getV1Prices']>;
export type PaymentLinkCreateParams = JsonBody<operations['postV1PaymentLinks']>;
export type PaymentLinkUpdateParams = JsonBody<operations['postV1PaymentLinksId']>;
export type WebhookEndpointCreateParams = JsonBody<operations['postV1WebhookEndpoints']>;
export type WebhookEndpointUpdateParams = JsonBody<operations['postV1WebhookEndpointsId']>;
export type CouponCreateParams = JsonBody<operations['postV1Coupons']>;
export type PromotionCodeCreateParams = JsonBody<operations['postV1PromotionCodes']>;
export type PromotionCodeListParams = Query<operations['getV1PromotionCodes']>;
export type TaxRateCreateParams = JsonBody<operations['postV1TaxRates']>;
export type SubscriptionCreateParams = JsonBody<operations['postV1Subscriptions']>;
export type SubscriptionUpdateParams = JsonBody<operations['postV1SubscriptionsId']>;
export type SubscriptionListParams = Query<operations['getV1Subscriptions']>;
export type InvoiceListParams = Query<operations['getV1Invoices']>;
export type InvoicePayParams = JsonBody<operations['postV1InvoicesIdPay']>;
export type TestClockCreateParams = JsonBody<operations['postV1TestHelpersTestClocks']>;
export type TestClockListParams = Query<operations['getV1TestHelpersTestClocks']>;
export type BillingPortalSessionCreateParams = JsonBody<operations['postV1BillingPortalSessions']>;

/** One page of a list. */
export interface Page<T> {
  object: 'list';
  url: string;
  has_more: boolean;
  data: T[];
}

/** Per-call options. */
export interface RequestOptions {
  /** Sent as `Idempotency-Key` on a POST; one is made for you when absent. */
  idempotencyKey?: string;
  /** Aborts the call. */
  signal?: AbortSignal;
}
