import type { Mode } from '../shared/events';

/**
 * A returning shopper (`cus_…`): who they are to the merchant, so sessions, payments and saved
 * payment methods can point to them. Deleting one removes it and its saved methods; its past
 * payments stay, with the customer detached.
 */
export interface Customer {
  id: string;
  accountId: string;
  mode: Mode;
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A shopper who paid with an email but is no customer (Stripe's guest customer): read from the
 * payments that took money without a customer, one per email address (any case).
 */
export interface GuestCustomer {
  email: string;
  /** Their succeeded payments without a customer. */
  payments: number;
  lastPaymentAt: Date;
}

/** Whether a checkout session makes a customer of its shopper (Stripe's `customer_creation`). */
export const customerCreations = ['always', 'if_required'] as const;
export type CustomerCreation = (typeof customerCreations)[number];

/**
 * A card saved for a customer (`pm_…`): what may be shown of it and the processor's reusable token
 * for it. Never the number or the CVC.
 */
export interface SavedPaymentMethod {
  id: string;
  accountId: string;
  mode: Mode;
  customerId: string;
  type: 'card';
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  fingerprint: string | null;
  /** The processor that keeps it (`test`, `braintree`) and its token there. */
  processor: string;
  processorToken: string;
  createdAt: Date;
}

/** Whether paying a session saves the card: the merchant decides (`on`), or the shopper does. */
export const savePaymentMethodOptions = ['on', 'shopper_choice'] as const;
export type SavePaymentMethodOption = (typeof savePaymentMethodOptions)[number];
