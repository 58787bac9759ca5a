import type { Mode } from '../shared/events';
import type { CheckoutSessionStatus } from '../payments/state-machine';
import type { CaptureMethod, PaymentMethodType } from '../payments/entities';
import type { AppliedDiscount, AppliedTaxRate, ShippingRate } from '../pricing/entities';
import type { TotalDetails } from '../pricing/totals';
import type { CustomerCreation, SavePaymentMethodOption } from '../customers/entities';
import type { Address, ShippingDetails } from '../addresses/entities';
import type { DynamicTaxRate } from '../pricing/entities';
import type { AdjustableQuantity, CustomField } from './shopper-option-types';

export interface LineItem {
  name: string;
  unitAmount: number;
  quantity: number;
  /** unitAmount × quantity, in minor units. */
  amount: number;
  /** The tax rates of the line, as they were when the session was made (docs/pricing.md). */
  taxRates?: AppliedTaxRate[];
  /** `dynamic_tax_rates`: the one whose jurisdiction matches the shopper's address applies (docs/pricing.md). */
  dynamicTaxRates?: DynamicTaxRate[];
  /** The shopper may change the quantity within these bounds (Stripe's `adjustable_quantity`). */
  adjustableQuantity?: AdjustableQuantity;
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
  /** A saved card paid on the page asks for its CVC again (the processor may require it too). */
  requireCvcRecollection: boolean;
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
  // Shop options (docs/pricing.md): what the total is made of, and the discounts in it.
  /** Discount, shipping and tax in `amountTotal` (computed by pricing/totals.ts only). */
  totalDetails: TotalDetails;
  /** The page offers a promotion code field. */
  allowPromotionCodes: boolean;
  /** At most one: the coupon (or promotion code) applied, its terms as applied. */
  discounts: AppliedDiscount[];
  /** Up to 5 shipping choices, priced in the session's currency; the shopper picks one. */
  shippingOptions: ShippingRate[];
  /** The chosen shipping option's id: the first one until the shopper picks another. */
  shippingRateId: string | null;
  /** `payment` (the default) takes one payment; `setup` saves a card without charging (the API's `mode`). */
  purpose: CheckoutSessionPurpose;
  /** A completed setup session: the payment method (`pm_…`) it saved. */
  setupPaymentMethodId: string | null;
  // Addresses (migration 0034, ADR 0068).
  /** `required`: the page asks for a billing address; `auto`: it does not. */
  billingAddressCollection: 'auto' | 'required';
  /** The countries the page ships to; null when the session asks for no shipping address. */
  shippingAddressCollection: { allowedCountries: string[] } | null;
  /** The shopper's shipping name and address, checked against its country's format. */
  shippingDetails: ShippingDetails | null;
  /** The shopper's billing address (Stripe's `customer_details.address`). */
  billingAddress: Address | null;
  /** Up to 3 questions the page asks, with the shopper's answers once paid (docs/api.md). */
  customFields: CustomField[];
  /** `hosted`: the shopper is sent to `url`; `embedded`: the merchant's page mounts it with `clientSecret`. */
  uiMode: 'hosted' | 'embedded';
  /** Embedded mode: where the top page goes after payment (`{CHECKOUT_SESSION_ID}` replaced). */
  returnUrl: string | null;
  /** Embedded mode: what `Tillpoint.embed` is given to mount this session. */
  clientSecret: string | null;
}

/** What a checkout session is for: the API's `mode` (our `mode` is test or live). */
export type CheckoutSessionPurpose = 'payment' | 'setup';

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
  // The shopper options every session the link opens carries (checked as a session's are).
  /** The page offers a promotion code field. */
  allowPromotionCodes: boolean;
  /** `required`: the page asks for a billing address. */
  billingAddressCollection: 'auto' | 'required';
  /** The countries the page ships to; null when it asks for no shipping address. */
  shippingAddressCollection: { allowedCountries: string[] } | null;
  /** Shipping choices in the link's currency; each opened session gives them fresh ids. */
  shippingOptions: Array<Omit<ShippingRate, 'id'>>;
  /** Up to 3 questions the page asks (no answers: each session gets its own). */
  customFields: CustomField[];
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
