import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import type { Invoice } from '../../domain/billing/entities';
import type { Subscription } from '../../domain/billing/entities';
import type { Price } from '../../domain/sessions/entities';
import { invoiceSnapshot, subscriptionSnapshot, testClockSnapshot } from '../../domain/billing/snapshots';
import { cancelSubscription, createSubscription, getSubscription, listSubscriptions, updateSubscription } from '../../domain/billing/use-cases/subscriptions';
import {
  advanceTestClock,
  createTestClock,
  getInvoice,
  getTestClock,
  listInvoices,
  listTestClocks,
  payInvoice,
  voidInvoice,
} from '../../domain/billing/use-cases/invoices-and-clocks';
import { defineRoute } from '../define-route';
import {
  advanceTestClockBody,
  createSubscriptionBody,
  createTestClockBody,
  listInvoicesQuery,
  listSubscriptionsQuery,
  payInvoiceBody,
  updateSubscriptionBody,
} from '../billing-schemas';
import { pageQuery } from '../lifecycle-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { listBody, pageRequest } from '../pagination';
import { invoiceListSchema, invoiceSchema, subscriptionListSchema, subscriptionSchema, testClockListSchema, testClockSchema } from '../response-schemas';
import { idParams } from '../schemas';

const view = (found: { subscription: Subscription; price: Price }) => subscriptionSnapshot(found.subscription, found.price);

/** `/v1/subscriptions`, `/v1/invoices` and `/v1/test_helpers/test_clocks` (docs/billing.md). */
export async function billingRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const tag = 'Subscriptions';
  const invoiceView = (invoice: Invoice) => invoiceSnapshot(invoice, deps.publicUrl);
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/subscriptions',
      resource: 'subscriptions',
      tag,
      summary: 'Start a subscription for a customer with a saved payment method',
      description:
        'Without a trial its first invoice is charged at once: `active` when paid, else `incomplete` (still answered 200) with the invoice open and retried on the schedule. With `trial_period_days`, `trialing` until the trial ends. `coupon` or `promotion_code` and `default_tax_rates` apply from the first invoice.',
      body: createSubscriptionBody,
      response: subscriptionSchema,
    },
    async ({ body, request }) =>
      view(
        await createSubscription(deps, {
          scope: scopeOf(request),
          actor: keyActorOf(request),
          input: {
            customerId: body.customer,
            priceId: body.items[0]!.price,
            quantity: body.items[0]!.quantity,
            paymentMethodId: body.default_payment_method,
            trialPeriodDays: body.trial_period_days,
            metadata: body.metadata,
            couponId: body.coupon,
            promotionCodeId: body.promotion_code,
            defaultTaxRateIds: body.default_tax_rates,
          },
        }),
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/subscriptions',
      resource: 'subscriptions',
      tag,
      summary: 'List subscriptions, newest first',
      query: listSubscriptionsQuery,
      response: subscriptionListSchema,
    },
    async ({ query, request }) =>
      listBody(
        '/v1/subscriptions',
        await listSubscriptions(deps, { scope: scopeOf(request), filter: { customerId: query.customer, status: query.status }, page: pageRequest(query) }),
        view,
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/subscriptions/:id',
      resource: 'subscriptions',
      tag,
      summary: 'Retrieve a subscription',
      params: idParams,
      response: subscriptionSchema,
    },
    async ({ params, request }) => view(await getSubscription(deps, { scope: scopeOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/subscriptions/:id',
      resource: 'subscriptions',
      tag,
      summary: "Change a subscription's price, quantity, payment method, discount, tax rates, metadata, or whether it ends at the period's end",
      params: idParams,
      body: updateSubscriptionBody,
      response: subscriptionSchema,
    },
    async ({ params, body, request }) =>
      view(
        await updateSubscription(deps, {
          scope: scopeOf(request),
          actor: keyActorOf(request),
          id: params.id,
          change: {
            priceId: body.price,
            quantity: body.quantity,
            prorationBehavior: body.proration_behavior,
            cancelAtPeriodEnd: body.cancel_at_period_end,
            paymentMethodId: body.default_payment_method,
            metadata: body.metadata,
            couponId: body.coupon,
            promotionCodeId: body.promotion_code,
            defaultTaxRateIds: body.default_tax_rates === '' ? [] : body.default_tax_rates,
          },
        }),
      ),
  );

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/v1/subscriptions/:id',
      resource: 'subscriptions',
      tag,
      summary: 'Cancel a subscription now',
      description: 'It ends at once; its open invoices are voided.',
      params: idParams,
      response: subscriptionSchema,
    },
    async ({ params, request }) => view(await cancelSubscription(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/invoices',
      resource: 'invoices',
      tag,
      summary: 'List invoices, newest first',
      query: listInvoicesQuery,
      response: invoiceListSchema,
    },
    async ({ query, request }) =>
      listBody(
        '/v1/invoices',
        await listInvoices(deps, {
          scope: scopeOf(request),
          filter: { customerId: query.customer, subscriptionId: query.subscription, status: query.status },
          page: pageRequest(query),
        }),
        invoiceView,
      ),
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/invoices/:id', resource: 'invoices', tag, summary: 'Retrieve an invoice', params: idParams, response: invoiceSchema },
    async ({ params, request }) => invoiceView(await getInvoice(deps, { scope: scopeOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/invoices/:id/pay',
      resource: 'invoices',
      tag,
      summary: 'Charge an open or uncollectible invoice now',
      description: 'A decline answers `card_declined`; the attempt is counted and the next one planned as scheduled.',
      params: idParams,
      body: payInvoiceBody,
      response: invoiceSchema,
    },
    async ({ params, body, request }) =>
      invoiceView(await payInvoice(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id, paymentMethodId: body.payment_method })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/invoices/:id/void',
      resource: 'invoices',
      tag,
      summary: 'Void an open invoice: nothing more is charged for it',
      params: idParams,
      response: invoiceSchema,
    },
    async ({ params, request }) => invoiceView(await voidInvoice(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id })),
  );

  const clockTag = 'Test clocks';
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/test_helpers/test_clocks',
      resource: 'test_clocks',
      tag: clockTag,
      summary: 'Create a test clock (test mode)',
      body: createTestClockBody,
      response: testClockSchema,
    },
    async ({ body, request }) =>
      testClockSnapshot(
        await createTestClock(deps, { scope: scopeOf(request), actor: keyActorOf(request), frozenTime: new Date(body.frozen_time * 1000), name: body.name }),
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/test_helpers/test_clocks',
      resource: 'test_clocks',
      tag: clockTag,
      summary: 'List test clocks',
      query: pageQuery,
      response: testClockListSchema,
    },
    async ({ query, request }) =>
      listBody('/v1/test_helpers/test_clocks', await listTestClocks(deps, { scope: scopeOf(request), page: pageRequest(query) }), testClockSnapshot),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/test_helpers/test_clocks/:id',
      resource: 'test_clocks',
      tag: clockTag,
      summary: 'Retrieve a test clock',
      params: idParams,
      response: testClockSchema,
    },
    async ({ params, request }) => testClockSnapshot(await getTestClock(deps, { scope: scopeOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/test_helpers/test_clocks/:id/advance',
      resource: 'test_clocks',
      tag: clockTag,
      summary: 'Advance a test clock, running every renewal and retry that falls due on the way',
      description: 'Answers once the clock reads `frozen_time` (`status: ready`).',
      params: idParams,
      body: advanceTestClockBody,
      response: testClockSchema,
    },
    async ({ params, body, request }) =>
      testClockSnapshot(
        await advanceTestClock(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id, frozenTime: new Date(body.frozen_time * 1000) }),
      ),
  );
}
