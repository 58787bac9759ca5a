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

/** Whether a checkout session makes a customer of its shopper (Stripe's `customer_creation`). */
export type CustomerCreation = 'always' | 'if_required';
