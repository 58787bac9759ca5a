import type { Account } from '../team/entities';
import type { Customer, SavedPaymentMethod } from '../customers/entities';
import type { Price } from '../sessions/entities';
import type { BillingPortalSession, Invoice, Subscription } from './entities';

/* What the customer portal and the hosted invoice page show (docs/billing.md): read by the use
   cases, rendered by the pages. */

/** A subscription as the portal lists it: with its price and its product's name. */
export interface PortalSubscription {
  subscription: Subscription;
  price: Price;
  productName: string;
}

/** What the portal page shows one customer. */
export interface Portal {
  session: BillingPortalSession;
  account: Account;
  customer: Customer;
  subscriptions: PortalSubscription[];
  invoices: Invoice[];
  /** The customer's saved cards, newest first. */
  methods: SavedPaymentMethod[];
  /** The card their subscriptions are billed to (the newest subscription's), or null. */
  defaultMethodId: string | null;
}

/** What an invoice's hosted page shows (docs/billing.md, "The hosted invoice page"). */
export interface HostedInvoice {
  invoice: Invoice;
  account: Account;
  customer: Customer;
  /** The customer's saved cards, newest first: the page pays with one of them. */
  methods: SavedPaymentMethod[];
  /** The card its subscription is billed to, or null. */
  defaultMethodId: string | null;
  /** Whether the customer can pay it here now: open (or uncollectible) and no charge under way. */
  payable: boolean;
  /** Whether its subscription still bills a card, which paying here may move to the card used. */
  subscriptionBilling: boolean;
}
