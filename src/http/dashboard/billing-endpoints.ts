import { z } from 'zod';
import { invoiceStatuses, subscriptionStatuses } from '../../domain/billing/entities';
import { invoiceSnapshot, subscriptionSnapshot } from '../../domain/billing/snapshots';
import {
  getInvoiceHistory,
  getRecurringRevenue,
  getSubscriptionHistory,
  searchInvoices,
  searchSubscriptions,
  type SubscriptionRow,
} from '../../domain/billing/use-cases/billing-history';
import { cancelSubscription, updateSubscription } from '../../domain/billing/use-cases/subscriptions';
import type { Customer } from '../../domain/customers/entities';
import type { Deps } from '../../domain/deps';
import { TillpointError } from '../../domain/shared/errors';
import { maskEmail } from '../../domain/sessions/customer-email';
import type { Membership } from '../../domain/team/entities';
import { listQuery } from '../schemas';
import { timelineEventView } from '../views/event';
import { dashboardPaymentView, seesEmails } from '../views/payment';
import { unixTime } from '../views/resource';
import { modeEndpoint, type DashboardEndpoint } from './dashboard-route';
import { base, objectParams, scopeParams } from './mode-endpoints';
import {
  dashboardInvoiceListSchema,
  dashboardSubscriptionListSchema,
  invoiceDetailSchema,
  recurringRevenueSchema,
  subscriptionDetailSchema,
} from './response-schemas';

const tag = 'Dashboard: subscriptions';
const objectIdOf = (prefix: string, what: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_]{1,60}$`), `must be ${what} id (${prefix}_…)`)
    .optional();

/** The customer's email as this member may see it; null once the customer is deleted. */
function customerEmail(customer: Customer | null, membership: Membership): string | null {
  const email = customer?.email ?? null;
  return seesEmails(membership) ? email : maskEmail(email);
}

const subscriptionRowView = (row: SubscriptionRow, membership: Membership) => ({
  ...subscriptionSnapshot(row.subscription, row.price),
  customer_email: customerEmail(row.customer, membership),
});

/**
 * The Subscriptions and Invoices pages, and the Overview's MRR and churn (docs/dashboard.md). Reading
 * needs `subscriptions.read` (every role; emails masked, and no search by email, for roles without
 * `customers.read_email`); cancelling, resuming and changing the quantity need `subscriptions.manage`
 * (owner, admin), through the merchant API's use cases, each audited against the member.
 */
export function billingEndpoints(deps: Deps): DashboardEndpoint[] {
  /** A subscription's page after a change: the change's answer, and the rest read again. */
  const detail = async (scope: Parameters<typeof getSubscriptionHistory>[1]['scope'], id: string, membership: Membership) => {
    const history = await getSubscriptionHistory(deps, { scope, id });
    return {
      ...subscriptionRowView(history, membership),
      invoices: history.invoices.map((invoice) => invoiceSnapshot(invoice, deps.publicUrl)),
      timeline: history.events.map(timelineEventView),
    };
  };

  return [
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/subscriptions`,
        response: dashboardSubscriptionListSchema,
        tag,
        summary: 'Subscriptions, newest first: of one status, of one customer, or of the customers with one email address (any case)',
        params: scopeParams,
        query: z.strictObject({
          ...listQuery,
          limit: listQuery.limit.default(25),
          status: z.enum(subscriptionStatuses).optional(),
          customer: objectIdOf('cus', 'a customer'),
          email: z.string().trim().min(1).max(254).optional(),
        }),
        permission: 'subscriptions.read',
      },
      async ({ query, scope, member }) => {
        const page = await searchSubscriptions(deps, {
          scope,
          filter: { status: query.status, customerId: query.customer, email: query.email },
          page: { limit: query.limit, startingAfter: query.starting_after },
          role: member.membership.role,
        });
        return { object: 'list', has_more: page.hasMore, data: page.data.map((row) => subscriptionRowView(row, member.membership)) };
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/subscriptions/:id`,
        response: subscriptionDetailSchema,
        tag,
        summary: 'A subscription with its newest invoices and its timeline: its events and its invoices’, newest first',
        params: objectParams,
        permission: 'subscriptions.read',
      },
      async ({ params, scope, member }) => detail(scope, params.id, member.membership),
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/subscriptions/:id`,
        response: subscriptionDetailSchema,
        tag,
        summary: 'Cancel a subscription at the end of its period, resume it (cancel_at_period_end: false), or change its quantity (prorated)',
        params: objectParams,
        body: z.strictObject({
          cancel_at_period_end: z.boolean().optional(),
          quantity: z.number().int().optional(),
          proration_behavior: z.enum(['create_prorations', 'none']).optional(),
        }),
        permission: 'subscriptions.manage',
      },
      async ({ params, body, scope, member }) => {
        if (body.cancel_at_period_end === undefined && body.quantity === undefined) {
          throw new TillpointError('parameter_missing', 'Send cancel_at_period_end or quantity', { param: 'quantity' });
        }
        const changed = await updateSubscription(deps, {
          scope,
          actor: member.actor,
          id: params.id,
          change: { cancelAtPeriodEnd: body.cancel_at_period_end, quantity: body.quantity, prorationBehavior: body.proration_behavior },
        });
        return detail(scope, changed.subscription.id, member.membership);
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/subscriptions/:id/cancel`,
        response: subscriptionDetailSchema,
        tag,
        summary: 'Cancel a subscription now: it ends at once, its open invoices are voided',
        params: objectParams,
        permission: 'subscriptions.manage',
      },
      async ({ params, scope, member }) => {
        await cancelSubscription(deps, { scope, actor: member.actor, id: params.id });
        return detail(scope, params.id, member.membership);
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/invoices`,
        response: dashboardInvoiceListSchema,
        tag,
        summary: 'Invoices, newest first: of one status, one customer or one subscription',
        params: scopeParams,
        query: z.strictObject({
          ...listQuery,
          limit: listQuery.limit.default(25),
          status: z.enum(invoiceStatuses).optional(),
          customer: objectIdOf('cus', 'a customer'),
          subscription: objectIdOf('sub', 'a subscription'),
        }),
        permission: 'subscriptions.read',
      },
      async ({ query, scope, member }) => {
        const page = await searchInvoices(deps, {
          scope,
          filter: { status: query.status, customerId: query.customer, subscriptionId: query.subscription },
          page: { limit: query.limit, startingAfter: query.starting_after },
        });
        return {
          object: 'list',
          has_more: page.hasMore,
          data: page.data.map(({ invoice, customer }) => ({
            ...invoiceSnapshot(invoice, deps.publicUrl),
            customer_email: customerEmail(customer, member.membership),
          })),
        };
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/invoices/:id`,
        response: invoiceDetailSchema,
        tag,
        summary: 'An invoice with its lines (proration lines too) and every payment that tried to pay it',
        params: objectParams,
        permission: 'subscriptions.read',
      },
      async ({ params, scope, member }) => {
        const history = await getInvoiceHistory(deps, { scope, id: params.id });
        return {
          ...invoiceSnapshot(history.invoice, deps.publicUrl),
          customer_email: customerEmail(history.customer, member.membership),
          payments: history.payments.map((p) => dashboardPaymentView(p, member.membership)),
        };
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/recurring-revenue`,
        response: recurringRevenueSchema,
        tag: 'Dashboard: overview',
        summary: 'Monthly recurring revenue per currency, and churn over the last 30 days',
        params: scopeParams,
        permission: 'overview.read',
      },
      async ({ scope }) => {
        const figures = await getRecurringRevenue(deps, { scope });
        return {
          mrr: figures.mrr,
          churn: {
            from: unixTime(figures.churn.from),
            to: unixTime(figures.churn.to),
            active_at_start: figures.churn.activeAtStart,
            canceled: figures.churn.canceled,
            rate: figures.churn.rate,
          },
        };
      },
    ),
  ];
}
