import type { UsBankAccountDetails } from '../payments/entities';
import { modes } from '../shared/events';
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
  /** BCP 47 tags, the preferred first (Stripe's `preferred_locales`): its emails use the first one Tillpoint has words for. */
  preferredLocales: field
    .json<string[]>()
    .whenMissing([])
    .describe(
      "The customer's languages, the preferred first: its emails (a failed subscription payment) use the first one Tillpoint has words for, else English.",
    ),
  metadata: field.json<Record<string, string>>(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
  updatedAt: field.timestamp().shownAs('updated').describe('Last change'),
  /** Test mode: the test clock (`clock_…`) whose time bills this customer's subscriptions; null on the wall clock. */
  testClockId: field
    .text()
    .nullable()
    .fixedAtCreation()
    .shownAs('test_clock')
    .describe("The test clock whose time bills this customer's subscriptions, or null."),
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
 * A card or a US bank account saved for a customer (`pm_…`): what may be shown of it and the
 * processor's reusable token for it. Never a card's number or CVC, never an account number. The one
 * definition of its stored fields (resource-shape.ts); its API object is `paymentMethodSnapshot`,
 * which shows a card's fields under `card` and a bank account's under `us_bank_account`.
 */
/** What a customer's saved payment method can be: a card, or a US bank account debited by ACH (ADR 0108). */
export const savedPaymentMethodTypes = ['card', 'us_bank_account'] as const;

export const savedPaymentMethods = defineResource('payment_methods', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  customerId: field.text().fixedAtCreation().shownAs('customer').describe('The customer it is saved to.'),
  type: field.oneOf(savedPaymentMethodTypes),
  // What may be shown of the card (the API's `card`).
  brand: field.text().nullable().internal(),
  last4: field.text().nullable().internal(),
  expMonth: field.integer().nullable().internal(),
  expYear: field.integer().nullable().internal(),
  fingerprint: field.text().nullable().internal(),
  /** A saved bank account (migration 0057): what may be shown of it (the API's `us_bank_account`); null for a card. */
  usBankAccount: field.json<UsBankAccountDetails>().nullable().internal(),
  /** The processor that keeps it (`test`, `braintree`) and its token there. */
  processor: field.text().describe('The processor that keeps it.'),
  processorToken: field.text().internal(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('When it was saved'),
});

/** A card or a US bank account saved for a customer. */
export type SavedPaymentMethod = EntityOf<typeof savedPaymentMethods>;

/** Whether paying a session saves the card: the merchant decides (`on`), or the shopper does. */
export const savePaymentMethodOptions = ['on', 'shopper_choice'] as const;
export type SavePaymentMethodOption = (typeof savePaymentMethodOptions)[number];
