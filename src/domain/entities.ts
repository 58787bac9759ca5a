import type { Mode } from './events';
import type { CheckoutSessionStatus, PaymentStatus, RefundStatus } from './state-machine';
import type { DeclineCode } from './errors';

/** A merchant. One install serves many; no data crosses accounts. */
export interface Account {
  id: string;
  name: string;
  defaultCurrency: string;
  branding: { displayName: string | null; logoUrl: string | null; accentColor: string | null };
  supportEmail: string | null;
  createdAt: Date;
}

export type ApiKeyKind = 'secret' | 'publishable';

/** An API key; only its hash is kept, the secret is shown once. */
export interface ApiKey {
  id: string;
  accountId: string;
  mode: Mode;
  kind: ApiKeyKind;
  /** `sk_test_`, `pk_live_`… */
  prefix: string;
  secretHash: string;
  last4: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface LineItem {
  name: string;
  unitAmount: number;
  quantity: number;
  /** unitAmount × quantity, in minor units. */
  amount: number;
}

export type CaptureMethod = 'automatic' | 'manual';
export type PaymentMethodType = 'card' | 'google_pay';

/** What the shopper is asked to pay, and whether they have (design.md §3, `cs_…`). */
export interface CheckoutSession {
  id: string;
  accountId: string;
  mode: Mode;
  status: CheckoutSessionStatus;
  currency: string;
  lineItems: LineItem[];
  amountSubtotal: number;
  amountTotal: number;
  customerEmail: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  captureMethod: CaptureMethod;
  paymentMethodTypes: PaymentMethodType[];
  locale: string | null;
  metadata: Record<string, string>;
  clientReferenceId: string | null;
  paymentLinkId: string | null;
  expiresAt: Date;
  completedAt: Date | null;
  /** The successful payment, once there is one. */
  paymentId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The card or wallet that paid, as far as it may be kept: never the number or the CVC. */
export interface PaymentMethodDetails {
  type: PaymentMethodType;
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  /** Same card, same fingerprint, within one install; a keyed hash, not reversible. */
  fingerprint: string | null;
}

/** One attempt to pay a session (design.md §3, `pay_…`). */
export interface Payment {
  id: string;
  accountId: string;
  mode: Mode;
  checkoutSessionId: string;
  amount: number;
  currency: string;
  status: PaymentStatus;
  captureMethod: CaptureMethod;
  amountCaptured: number;
  amountRefunded: number;
  customerEmail: string | null;
  paymentMethod: PaymentMethodDetails | null;
  processor: string;
  processorTransactionId: string | null;
  processorResponse: { code: string; text: string } | null;
  failureCode: string | null;
  declineCode: DeclineCode | null;
  threeDSecure: { status: string; liabilityShifted: boolean } | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A reusable link that opens a fresh checkout session for fixed items (`/l/:slug`). */
export interface PaymentLink {
  id: string;
  accountId: string;
  mode: Mode;
  slug: string;
  currency: string;
  lineItems: PaymentLinkItem[];
  active: boolean;
  createdAt: Date;
}

/** An item of a payment link: a price's name and amount copied at creation, or an ad-hoc item. */
export type PaymentLinkItem = Omit<LineItem, 'amount'> & { priceId?: string | null };

export type RefundReason = 'requested_by_customer' | 'duplicate' | 'fraudulent';

/** Money sent back to the shopper from a succeeded payment (design.md §3, `re_…`). */
export interface Refund {
  id: string;
  accountId: string;
  mode: Mode;
  paymentId: string;
  amount: number;
  currency: string;
  reason: RefundReason | null;
  status: RefundStatus;
  /** Who asked: an API key id (`key_…`) or, from the dashboard, a user id. */
  createdBy: string | null;
  /** Why a failed refund failed, e.g. `payment_not_settled`, `processor_unavailable`. */
  failureReason: string | null;
  /** The processor's id for the refund (or for the void that replaced it). */
  processorRefundId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Something a merchant sells (`prod_…`). */
export interface Product {
  id: string;
  accountId: string;
  mode: Mode;
  name: string;
  description: string | null;
  active: boolean;
  defaultPriceId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a product costs in one currency (`price_…`); immutable once made, like Stripe's. */
export interface Price {
  id: string;
  accountId: string;
  mode: Mode;
  productId: string;
  currency: string;
  unitAmount: number;
  active: boolean;
  createdAt: Date;
}

/** A flag's value as OFREP carries it. */
export type FlagValue = boolean | string | number;

/** A feature flag or kill switch of an account and mode (built-in ones exist with their default until set). */
export interface Flag {
  accountId: string;
  mode: Mode;
  key: string;
  value: FlagValue;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ExperimentVariant {
  key: string;
  /** Relative share of sessions, e.g. 50 and 50, or 1, 1 and 2. */
  weight: number;
}

export type ExperimentStatus = 'draft' | 'running' | 'stopped';

/** An A/B test on a checkout-page surface (`exp_…`); its flag key is the surface it varies. */
export interface Experiment {
  id: string;
  accountId: string;
  mode: Mode;
  key: string;
  description: string | null;
  status: ExperimentStatus;
  variants: ExperimentVariant[];
  control: string;
  /** Exposed sessions each variant needs before a winner may be called. */
  plannedSampleSize: number;
  /** Set when the sample size was computed rather than given. */
  baselineConversionRate: number | null;
  minimumDetectableEffect: number | null;
  startedAt: Date | null;
  stoppedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A session that was shown a variant; `convertedAt` is set when that session completes. */
export interface Exposure {
  experimentId: string;
  checkoutSessionId: string;
  variant: string;
  exposedAt: Date;
  convertedAt: Date | null;
}
