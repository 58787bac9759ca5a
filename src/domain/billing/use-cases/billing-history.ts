import type { Deps, UnitOfWork } from '../../deps';
import type { Customer } from '../../customers/entities';
import type { Payment } from '../../payments/entities';
import type { Price } from '../../sessions/entities';
import { resourceMissing, TillpointError } from '../../shared/errors';
import type { DomainEvent } from '../../shared/events';
import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Scope } from '../../shared/scope';
import { can, type Role } from '../../team/permissions';
import type { Invoice, InvoiceStatus, Subscription, SubscriptionStatus } from '../entities';
import { monthlyAmount } from '../rules';

/** How many of a subscription's invoices its page shows, newest first (and whose events its timeline holds). */
export const SUBSCRIPTION_INVOICES_SHOWN = 24;
/** How many customers one email may match when subscriptions are searched by it. */
const EMAIL_MATCHES = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The window churn is measured over, ending now. */
export const CHURN_WINDOW_DAYS = 30;

export interface SubscriptionRow {
  subscription: Subscription;
  price: Price;
  /** Null once the customer is deleted. */
  customer: Customer | null;
}

async function customersOf(reader: UnitOfWork, scope: Scope, ids: string[]): Promise<Map<string, Customer | null>> {
  const unique = [...new Set(ids)];
  const found = await Promise.all(unique.map((id) => reader.customers.get(scope, id)));
  return new Map(unique.map((id, i) => [id, found[i] ?? null]));
}

/**
 * The dashboard's Subscriptions list: one page, newest first, each with its price and customer;
 * filtered by status, by customer, or by the customers with one email address (any case). `role`
 * is the asking member's: only a role that sees customer emails may search by one.
 */
export async function searchSubscriptions(
  deps: Deps,
  options: { scope: Scope; filter: { status?: SubscriptionStatus; customerId?: string; email?: string }; page: PageRequest; role: Role },
): Promise<Page<SubscriptionRow>> {
  const { scope, filter } = options;
  if (filter.email && !can(options.role, 'customers.read_email')) {
    throw new TillpointError('insufficient_role', `The ${options.role} role may not search by customer email`, { param: 'email' });
  }
  return readPage(options.page, (page) =>
    deps.store.readReplica(async (reader) => {
      let customerIds: string[] | undefined;
      if (filter.email) {
        customerIds = (await reader.customers.list(scope, { email: filter.email.trim(), limit: EMAIL_MATCHES })).map((c) => c.id);
        if (customerIds.length === 0) return [];
      }
      const found = await reader.subscriptions.list(scope, { status: filter.status, customerId: filter.customerId, customerIds, ...page });
      const customers = await customersOf(
        reader,
        scope,
        found.map((s) => s.customerId),
      );
      const prices = await reader.prices.getMany(scope, [...new Set(found.map((subscription) => subscription.priceId))]);
      return found.map((subscription) => ({
        subscription,
        price: prices.get(subscription.priceId)!,
        customer: customers.get(subscription.customerId) ?? null,
      }));
    }),
  );
}

/** A subscription's page: its price, customer, newest invoices, and the events of it and of those invoices, newest first. */
export async function getSubscriptionHistory(
  deps: Deps,
  options: { scope: Scope; id: string },
): Promise<SubscriptionRow & { invoices: Invoice[]; events: DomainEvent[] }> {
  const { scope } = options;
  return deps.store.read(async (reader) => {
    const subscription = await reader.subscriptions.get(scope, options.id);
    if (!subscription) throw resourceMissing('subscription', options.id);
    const [price, customer, invoices] = await Promise.all([
      reader.prices.get(scope, subscription.priceId),
      reader.customers.get(scope, subscription.customerId),
      reader.invoices.list(scope, { subscriptionId: subscription.id, limit: SUBSCRIPTION_INVOICES_SHOWN }),
    ]);
    const events = (await Promise.all([subscription.id, ...invoices.map((i) => i.id)].map((id) => reader.events.listForObject(id)))).flat();
    events.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    return { subscription, price: price!, customer, invoices, events };
  });
}

/** The dashboard's Invoices list: one page, newest first, each with its customer. */
export async function searchInvoices(
  deps: Deps,
  options: { scope: Scope; filter: { status?: InvoiceStatus; customerId?: string; subscriptionId?: string }; page: PageRequest },
): Promise<Page<{ invoice: Invoice; customer: Customer | null }>> {
  return readPage(options.page, (page) =>
    deps.store.readReplica(async (reader) => {
      const found = await reader.invoices.list(options.scope, { ...options.filter, ...page });
      const customers = await customersOf(
        reader,
        options.scope,
        found.map((i) => i.customerId),
      );
      return found.map((invoice) => ({ invoice, customer: customers.get(invoice.customerId) ?? null }));
    }),
  );
}

/** An invoice's page: the invoice, its customer, and every payment that tried to pay it (its attempts), newest first. */
export async function getInvoiceHistory(
  deps: Deps,
  options: { scope: Scope; id: string },
): Promise<{ invoice: Invoice; customer: Customer | null; payments: Payment[] }> {
  const { scope } = options;
  return deps.store.read(async (reader) => {
    const invoice = await reader.invoices.get(scope, options.id);
    if (!invoice) throw resourceMissing('invoice', options.id);
    const [customer, payments] = await Promise.all([
      reader.customers.get(scope, invoice.customerId),
      reader.payments.list(scope, { invoiceId: invoice.id, limit: 100 }),
    ]);
    return { invoice, customer, payments };
  });
}

export interface RecurringRevenue {
  /** Per currency, in minor units (rounded once, after summing): see `monthlyAmount`. */
  mrr: Array<{ currency: string; amount: number; subscriptions: number }>;
  churn: {
    from: Date;
    to: Date;
    /** Subscriptions active at `from`. */
    activeAtStart: number;
    /** Of those, how many ended by `to`. */
    canceled: number;
    /** canceled ÷ activeAtStart; null when none were active. */
    rate: number | null;
  };
}

/**
 * The Overview's recurring figures (docs/dashboard.md, "MRR and churn"): monthly recurring revenue
 * of the `active` and `past_due` subscriptions per currency, and churn over the last 30 days.
 * MRR is net of the discounts that recur (repeating, while they last, and forever).
 */
export async function getRecurringRevenue(deps: Deps, options: { scope: Scope }): Promise<RecurringRevenue> {
  const to = deps.clock.now();
  const from = new Date(to.getTime() - CHURN_WINDOW_DAYS * DAY_MS);
  const [totals, churn] = await deps.store.readReplica((reader) =>
    Promise.all([reader.subscriptions.recurringTotals(options.scope, to), reader.subscriptions.churnCounts(options.scope, from, to)]),
  );
  const byCurrency = new Map<string, { amount: number; subscriptions: number }>();
  for (const total of totals) {
    const sum = byCurrency.get(total.currency) ?? { amount: 0, subscriptions: 0 };
    sum.amount += monthlyAmount(total.amount, total.interval, total.intervalCount);
    sum.subscriptions += total.subscriptions;
    byCurrency.set(total.currency, sum);
  }
  const mrr = [...byCurrency.entries()]
    .map(([currency, sum]) => ({ currency, amount: Math.round(sum.amount), subscriptions: sum.subscriptions }))
    .sort((a, b) => b.amount - a.amount || a.currency.localeCompare(b.currency));
  return {
    mrr,
    churn: { from, to, ...churn, rate: churn.activeAtStart === 0 ? null : churn.canceled / churn.activeAtStart },
  };
}
