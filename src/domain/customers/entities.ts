import { modes, type Mode } from '../shared/events';
import { defineResource, field, type EntityOf } from '../shared/resource-shape';

/**
 * A returning shopper (`cus_…`): who they are to the merchant, so sessions, payments and saved
 * payment methods can point to them. Deleting one removes it and its saved methods; its past
 * payments stay, with the customer detached. The one definition of its stored fields
 * (resource-shape.ts); its API object is `customerSnapshot`.
 */
export const customers = defineResource('customers', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  email: field.text().nullable(),
  name: field.text().nullable(),
  metadata: field.json<Record<string, string>>(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
  updatedAt: field.timestamp().shownAs('updated').describe('Last change'),
});

/** A returning shopper. */
export type Customer = EntityOf<typeof customers>;

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
