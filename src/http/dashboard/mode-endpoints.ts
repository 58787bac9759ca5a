import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { checkoutSessionStatuses } from '../../domain/payments/state-machine';
import { paymentStatusBadges } from '../../domain/payments/status-badge';
import { paymentMethodTypes } from '../../domain/payments/payment-method-types';
import type { PaymentFilter } from '../../domain/team/ports';
import { createApiKey } from '../../domain/team/use-cases/create-api-key';
import { getCheckoutSessionHistory } from '../../domain/sessions/use-cases/get-checkout-session-history';
import { getOverview } from '../../domain/payments/use-cases/get-overview';
import { ANALYTICS_MAX_DAYS, getAnalytics } from '../../domain/payments/use-cases/get-analytics';
import { getPaymentStory } from '../../domain/payments/use-cases/get-payment-story';
import { listApiKeys } from '../../domain/team/use-cases/list-api-keys';
import { listApiRequests } from '../../domain/api-guards/use-cases/list-api-requests';
import { searchCheckoutSessions } from '../../domain/sessions/use-cases/search-checkout-sessions';
import { revokeApiKey } from '../../domain/team/use-cases/revoke-api-key';
import { renameApiKey } from '../../domain/team/use-cases/rename-api-key';
import { changeApiKeyPermissions } from '../../domain/team/use-cases/change-api-key-permissions';
import { rollApiKey } from '../../domain/team/use-cases/roll-api-key';
import { apiResources } from '../../domain/team/api-key-permissions';
import { searchPayments } from '../../domain/payments/use-cases/search-payments';
import { listQuery } from '../schemas';
import { apiKeyView, apiRequestView } from '../views/api-key';
import { dashboardSessionView } from '../views/checkout-session';
import { timelineEventView } from '../views/event';
import { dashboardPaymentView } from '../views/payment';
import { overviewView } from '../views/overview';
import { analyticsView } from '../views/analytics';
import { paymentStoryView } from '../views/payment-story';
import { paymentsCsv } from './payments-csv';
import { accountParam, modeEndpoint, modeParam, type DashboardEndpoint } from './dashboard-route';
import { dashboardPaymentListSchema, dashboardSessionListSchema, paymentStorySchema, sessionHistorySchema } from './response-schemas';

/** URL prefix, and path parameters, of every endpoint on one mode of an account. */
export const base = '/dashboard/api/accounts/:account_id/:mode';
export const scopeParams = z.strictObject({ ...accountParam, ...modeParam });
export const objectParams = z.strictObject({ ...accountParam, ...modeParam, id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/) });
const DAY_MS = 24 * 60 * 60 * 1000;

/** A calendar day; a day that does not exist (2026-02-30, which `Date` would roll into March) is refused. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 2026-06-01')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'must be a real date');
const minorUnits = z.coerce.number().int('must be an integer in minor units').min(0).max(99_999_999);

/** The payment list's filters, as query parameters. */
const paymentFilters = {
  status: z
    .string()
    .transform((v) => v.split(',').filter(Boolean))
    .pipe(z.array(z.enum(paymentStatusBadges)).max(paymentStatusBadges.length))
    .optional(),
  created_from: day.optional(),
  created_to: day.optional(),
  amount_min: minorUnits.optional(),
  amount_max: minorUnits.optional(),
  email: z.string().min(1).max(254).optional(),
  last4: z
    .string()
    .regex(/^\d{4}$/, 'must be 4 digits')
    .optional(),
  customer: z
    .string()
    .regex(/^cus_[A-Za-z0-9]{1,60}$/, 'must be a customer id (cus_…)')
    .optional(),
  payment_method: z.enum(paymentMethodTypes).optional(),
  q: z
    .string()
    .regex(/^(pay|cs)_[A-Za-z0-9]{1,60}$/, 'must be a payment id (pay_…) or a checkout session id (cs_…)')
    .optional(),
};
type PaymentFilterQuery = z.output<z.ZodObject<typeof paymentFilters>>;

function toPaymentFilter(query: PaymentFilterQuery): Omit<PaymentFilter, 'limit'> {
  return {
    statuses: query.status,
    createdFrom: query.created_from ? new Date(`${query.created_from}T00:00:00Z`) : undefined,
    createdBefore: query.created_to ? new Date(Date.parse(`${query.created_to}T00:00:00Z`) + DAY_MS) : undefined,
    amountMin: query.amount_min,
    amountMax: query.amount_max,
    email: query.email,
    last4: query.last4,
    paymentMethodType: query.payment_method,
    id: query.q,
    customerId: query.customer,
  };
}

/** Endpoints on one mode of an account: overview, payments, checkout sessions, API keys, request log. */
export function modeEndpoints(deps: Deps): DashboardEndpoint[] {
  return [
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/overview`,
        tag: 'Dashboard: overview',
        summary: 'Gross, refunded and net volume per currency, payment counts, success rate and checkout funnel, each against the previous period',
        params: scopeParams,
        query: z.strictObject({ days: z.coerce.number().int().min(1).max(366).default(30) }),
        permission: 'overview.read',
      },
      async ({ query, scope }) => overviewView(await getOverview(deps, { scope, days: query.days })),
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/analytics`,
        tag: 'Dashboard: overview',
        summary:
          'Checkout funnel, success rate by payment method, decline reasons, 3-D Secure outcomes and experiments’ conversion over the days from `from` to `to` (UTC, inclusive)',
        params: scopeParams,
        query: z
          .strictObject({ from: day, to: day })
          .refine((q) => q.from <= q.to, { message: 'must not be after to', path: ['from'] })
          .refine((q) => Date.parse(q.to) - Date.parse(q.from) < ANALYTICS_MAX_DAYS * DAY_MS, {
            message: `the period must be at most ${ANALYTICS_MAX_DAYS} days`,
            path: ['from'],
          }),
        permission: 'overview.read',
      },
      async ({ query, scope }) =>
        analyticsView(
          await getAnalytics(deps, {
            scope,
            from: new Date(`${query.from}T00:00:00Z`),
            before: new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS),
          }),
        ),
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/payments`,
        response: dashboardPaymentListSchema,
        tag: 'Dashboard: payments',
        summary: 'Payments matching the filters, newest first',
        params: scopeParams,
        query: z.strictObject({ ...listQuery, limit: listQuery.limit.default(25), ...paymentFilters }),
        permission: 'payments.read',
      },
      async ({ query, scope, member }) => {
        const filter = { ...toPaymentFilter(query), limit: query.limit, startingAfter: query.starting_after };
        const page = await searchPayments(deps, { scope, filter, role: member.membership.role });
        return { object: 'list', has_more: page.hasMore, data: page.data.map((p) => dashboardPaymentView(p, member.membership)) };
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/payments/export.csv`,
        tag: 'Dashboard: payments',
        summary: 'Every payment matching the filters, as CSV',
        params: scopeParams,
        query: z.strictObject(paymentFilters),
        permission: 'payments.export',
      },
      async ({ query, scope, member, reply }) => {
        const csv = await paymentsCsv(deps, scope, toPaymentFilter(query), member.membership);
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="payments-${scope.mode}-${new Date().toISOString().slice(0, 10)}.csv"`);
        return csv;
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/payments/:id`,
        response: paymentStorySchema,
        tag: 'Dashboard: payments',
        summary:
          "A payment's whole story: line items, metadata, refunds, disputes, the timeline of events with the webhook deliveries each caused, and the request-log lines that named it",
        params: objectParams,
        permission: 'payments.read',
      },
      async ({ params, scope, member }) =>
        paymentStoryView(await getPaymentStory(deps, { scope, id: params.id, role: member.membership.role }), member.membership),
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/checkout-sessions`,
        response: dashboardSessionListSchema,
        tag: 'Dashboard: checkout sessions',
        summary: 'Checkout sessions, newest first',
        params: scopeParams,
        query: z.strictObject({ ...listQuery, limit: listQuery.limit.default(25), status: z.enum(checkoutSessionStatuses).optional() }),
        permission: 'sessions.read',
      },
      async ({ query, scope, member }) => {
        const page = await searchCheckoutSessions(deps, { scope, filter: { limit: query.limit, startingAfter: query.starting_after, status: query.status } });
        return { object: 'list', has_more: page.hasMore, data: page.data.map((s) => dashboardSessionView(s, member.membership, deps.publicUrl)) };
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/checkout-sessions/:id`,
        response: sessionHistorySchema,
        tag: 'Dashboard: checkout sessions',
        summary: 'A checkout session with its payment attempts and events',
        params: objectParams,
        permission: 'sessions.read',
      },
      async ({ params, scope, member }) => {
        const history = await getCheckoutSessionHistory(deps, { scope, id: params.id });
        return {
          ...dashboardSessionView(history.session, member.membership, deps.publicUrl),
          payments: history.payments.map((p) => dashboardPaymentView(p, member.membership)),
          timeline: history.events.map(timelineEventView),
        };
      },
    ),

    modeEndpoint(
      { method: 'GET', url: `${base}/api-keys`, tag: 'Dashboard: developers', summary: 'API keys of this mode', params: scopeParams, permission: 'keys.read' },
      async ({ scope }) => ({ object: 'list', data: (await listApiKeys(deps, { scope })).map(apiKeyView) }),
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/api-keys`,
        tag: 'Dashboard: developers',
        summary: 'Create an API key; its secret is in this answer only',
        params: scopeParams,
        body: z.strictObject({
          kind: z.enum(['secret', 'restricted', 'publishable']),
          name: z.string().max(100).optional(),
          permissions: z.partialRecord(z.enum(apiResources), z.enum(['none', 'read', 'write'])).optional(),
          expires_at: z.number().int().positive().optional(),
        }),
        permission: 'keys.manage',
        status: 201,
      },
      async ({ body, scope, member }) => {
        const created = await createApiKey(deps, {
          scope,
          actor: member.actor,
          kind: body.kind,
          name: body.name,
          permissions: body.permissions,
          expiresAt: body.expires_at === undefined ? null : new Date(body.expires_at * 1000),
        });
        const key = (await listApiKeys(deps, { scope })).find((k) => k.id === created.id)!;
        return { ...apiKeyView(key), secret: created.secret };
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/api-keys/:id`,
        tag: 'Dashboard: developers',
        summary: 'Rename an API key',
        params: objectParams,
        body: z.strictObject({ name: z.string().max(100) }),
        permission: 'keys.manage',
      },
      async ({ params, body, scope, member }) => {
        await renameApiKey(deps, { scope, actor: member.actor, id: params.id, name: body.name });
        const key = (await listApiKeys(deps, { scope })).find((k) => k.id === params.id)!;
        return apiKeyView(key);
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/api-keys/:id/permissions`,
        tag: 'Dashboard: developers',
        summary: "Replace a restricted key's permissions (a resource left out is none); its secret stays",
        params: objectParams,
        body: z.strictObject({ permissions: z.partialRecord(z.enum(apiResources), z.enum(['none', 'read', 'write'])) }),
        permission: 'keys.manage',
      },
      async ({ params, body, scope, member }) => {
        await changeApiKeyPermissions(deps, { scope, actor: member.actor, id: params.id, permissions: body.permissions });
        const key = (await listApiKeys(deps, { scope })).find((k) => k.id === params.id)!;
        return apiKeyView(key);
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/api-keys/:id/roll`,
        tag: 'Dashboard: developers',
        summary: 'Roll an API key: a new secret (in this answer only); the old one works until expires_in seconds from now',
        params: objectParams,
        body: z.strictObject({ expires_in: z.number().int().nonnegative() }),
        permission: 'keys.manage',
        status: 201,
      },
      async ({ params, body, scope, member }) => {
        const rolled = await rollApiKey(deps, { scope, actor: member.actor, id: params.id, expiresInSeconds: body.expires_in });
        const keys = await listApiKeys(deps, { scope });
        const key = keys.find((k) => k.id === rolled.id)!;
        return { ...apiKeyView(key), secret: rolled.secret, rolled: apiKeyView(keys.find((k) => k.id === params.id)!) };
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/api-keys/:id/revoke`,
        tag: 'Dashboard: developers',
        summary: 'Revoke an API key now',
        params: objectParams,
        permission: 'keys.manage',
      },
      async ({ params, scope, member }) => {
        await revokeApiKey(deps, { scope, actor: member.actor, id: params.id });
        return { id: params.id, revoked: true };
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/request-log`,
        tag: 'Dashboard: developers',
        summary: 'Recent merchant API calls of this mode: method, path, status, error code',
        params: scopeParams,
        query: z.strictObject({ ...listQuery, limit: listQuery.limit.default(50) }),
        permission: 'request_log.read',
      },
      async ({ query, scope }) => {
        const page = await listApiRequests(deps, { scope, page: { limit: query.limit, startingAfter: query.starting_after } });
        return { object: 'list', has_more: page.hasMore, data: page.data.map(apiRequestView) };
      },
    ),
  ];
}
