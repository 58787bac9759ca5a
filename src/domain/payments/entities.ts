import type { CustomField } from '../sessions/shopper-option-types';
import type { Mode } from '../shared/events';
import type { Address, ShippingDetails } from '../addresses/entities';
import type { PaymentStatus, RefundStatus } from './state-machine';
import type { DeclineCode } from '../shared/errors';
import type { TotalDetails } from '../pricing/totals';

export const captureMethods = ['automatic', 'manual'] as const;
export type CaptureMethod = (typeof captureMethods)[number];
/** Every way a shopper can pay: the values of `payment_method_types` and `payment_method_type`. */
export const paymentMethodTypes = ['card', 'google_pay', 'apple_pay', 'paypal', 'venmo'] as const;
export type PaymentMethodType = (typeof paymentMethodTypes)[number];

/** The card or wallet that paid, as far as it may be kept: never the number or the CVC. */
export interface PaymentMethodDetails {
  type: PaymentMethodType;
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  /** Same card, same fingerprint, within one install; a keyed hash, not reversible. */
  fingerprint: string | null;
  /** PayPal: the payer's email, as PayPal reveals it. */
  payerEmail?: string | null;
  /** Venmo: the account's username. */
  username?: string | null;
}

/** One attempt to pay a session, or a charge of a saved payment method from the server (design.md §3, `pay_…`). */
export interface Payment {
  id: string;
  accountId: string;
  mode: Mode;
  /** The session paid; null for a merchant-initiated charge of a saved method (`POST /v1/payments`). */
  checkoutSessionId: string | null;
  amount: number;
  currency: string;
  status: PaymentStatus;
  captureMethod: CaptureMethod;
  amountCaptured: number;
  amountRefunded: number;
  /** The customer (`cus_…`) paying; null when none, or once the customer was deleted. */
  customerId: string | null;
  customerEmail: string | null;
  paymentMethod: PaymentMethodDetails | null;
  processor: string;
  processorTransactionId: string | null;
  processorResponse: { code: string; text: string } | null;
  failureCode: string | null;
  declineCode: DeclineCode | null;
  threeDSecure: { status: string; liabilityShifted: boolean } | null;
  /** The session's discount, shipping and tax when this attempt was made (docs/pricing.md). */
  totalDetails: TotalDetails | null;
  /** The session's shipping name and address when this attempt was made (ADR 0068). */
  shippingDetails: ShippingDetails | null;
  /** The session's billing address when this attempt was made. */
  billingAddress: Address | null;
  /** The session's custom fields with the shopper's answers, as given with this attempt. */
  customFields: CustomField[];
  createdAt: Date;
  updatedAt: Date;
}

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
