import type { Mode } from '../shared/events';
import type { CheckoutSessionStatus } from '../payments/state-machine';
import type { CaptureMethod, PaymentMethodType } from '../payments/entities';
import type { CustomerCreation, SavePaymentMethodOption } from '../customers/entities';

export interface LineItem {
  name: string;
  unitAmount: number;
  quantity: number;
  /** unitAmount × quantity, in minor units. */
  amount: number;
}

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
  /** The customer (`cus_…`) the session is for: given by the merchant, or made of its shopper. */
  customerId: string | null;
  /** Whether paying makes a customer of the shopper when the session has none. */
  customerCreation: CustomerCreation;
  /** Whether paying saves the card to the customer: always (`on`), on the shopper's consent, or never (null). */
  paymentMethodSave: SavePaymentMethodOption | null;
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
