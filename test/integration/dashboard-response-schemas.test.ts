import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  customerDetailSchema,
  dashboardCustomerListSchema,
  dashboardExperimentListSchema,
  dashboardFlagListSchema,
  dashboardPaymentListSchema,
  dashboardSessionListSchema,
  dashboardWebhookDeliveryListSchema,
  dashboardWebhookEndpointListSchema,
  disputeInboxSchema,
  guestCustomerListSchema,
  paymentStorySchema,
  sessionHistorySchema,
  sessionStateSchema,
} from '../../src/http/dashboard/response-schemas';
import { experimentResultsSchema, paymentLinkListSchema, paymentLinkSchema, productListSchema, productSchema } from '../../src/http/response-schemas';
import { testDatabases } from '../support/databases';
import { addMember, dashboardCall, signUpOwner, type DashboardAgent } from '../support/dashboard';
import { merchantCall, payCall, tokenize, useIntegration } from '../support/integration';

/**
 * The dashboard's pages take their types from these schemas: what the endpoints really answer, to
 * an owner and to a viewer (emails masked), must parse with them, no field missing and none unknown.
 */
describe.each(testDatabases)("the dashboard's answers match their response schemas ($name)", (database) => {
  const ctx = useIntegration(database);

  it('for payments, a payment story, sessions, customers, guests, disputes, webhook endpoints, deliveries, flags, experiments, products, payment links and the session', async () => {
    const owner = await signUpOwner(ctx.h, 'Schema Shop');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    const key = (await dashboardCall(ctx.h, owner, 'POST', `${base}/api-keys`, { kind: 'secret' })).json().secret;
    const endpoint = (
      await dashboardCall(ctx.h, owner, 'POST', `${base}/webhook-endpoints`, { url: 'https://example.com/hook', enabled_events: ['*'] })
    ).json();
    const customer = (await merchantCall(ctx.h, key, 'POST', '/v1/customers', { email: 'ada@buyer.example', name: 'Ada' })).json();
    const session = (
      await merchantCall(ctx.h, key, 'POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Thing', unit_amount: 1250, quantity: 2 }] })
    ).json();
    const paid = await payCall(
      ctx.h,
      session.id,
      await tokenize(ctx.h, session.id, { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' }),
      'guest@buyer.example',
    );
    expect(paid.statusCode).toBe(200);
    const viewer = await addMember(ctx.h, owner, 'viewer');

    const answer = async <S extends z.ZodType>(agent: DashboardAgent, path: string, schema: S) => {
      const res = await dashboardCall(ctx.h, agent, 'GET', path);
      expect(res.statusCode, res.body).toBe(200);
      return schema.parse(res.json());
    };
    for (const agent of [owner, viewer]) {
      const payments = await answer(agent, `${base}/payments`, dashboardPaymentListSchema);
      expect(payments.data).toHaveLength(1);
      const story = await answer(agent, `${base}/payments/${payments.data[0]!.id}`, paymentStorySchema);
      expect(story.line_items).toEqual([{ name: 'Thing', unit_amount: 1250, quantity: 2, amount: 2500 }]);
      expect(story.timeline.length).toBeGreaterThan(0);
      await answer(agent, `${base}/checkout-sessions`, dashboardSessionListSchema);
      const history = await answer(agent, `${base}/checkout-sessions/${session.id}`, sessionHistorySchema);
      expect(history.payments).toHaveLength(1);
      const customers = await answer(agent, `${base}/customers`, dashboardCustomerListSchema);
      expect(customers.data.map((c) => c.id)).toEqual([customer.id]);
      await answer(agent, `${base}/customers/${customer.id}`, customerDetailSchema);
      expect((await answer(agent, `${base}/guest-customers`, guestCustomerListSchema)).data).toHaveLength(1);
      await answer(agent, `${base}/disputes`, disputeInboxSchema);
      await answer(agent, '/dashboard/api/session', sessionStateSchema);
    }
    expect((await answer(owner, `${base}/webhook-endpoints`, dashboardWebhookEndpointListSchema)).data.map((e) => e.id)).toEqual([endpoint.id]);
    const deliveries = await answer(owner, `${base}/webhook-endpoints/${endpoint.id}/deliveries`, dashboardWebhookDeliveryListSchema);
    expect(deliveries.data.length).toBeGreaterThan(0);

    const flags = await answer(owner, `${base}/flags`, dashboardFlagListSchema);
    expect(flags.data.length).toBeGreaterThan(0);
    const created = await dashboardCall(ctx.h, owner, 'POST', `${base}/experiments`, {
      key: 'checkout_layout',
      variants: [
        { key: 'wallet_first', weight: 1 },
        { key: 'card_first', weight: 1 },
      ],
      planned_sample_size: 1000,
    });
    expect(created.statusCode, created.body).toBe(201);
    const experiments = await answer(owner, `${base}/experiments`, dashboardExperimentListSchema);
    expect(experiments.data).toHaveLength(1);
    await answer(owner, `${base}/experiments/${experiments.data[0]!.id}/results`, experimentResultsSchema);

    // Products and payment links: the merchant API's objects.
    const product = await dashboardCall(ctx.h, owner, 'POST', `${base}/products`, {
      name: 'Beans',
      default_price_data: { currency: 'usd', unit_amount: 1200 },
    });
    expect(product.statusCode, product.body).toBe(201);
    const price = productSchema.parse(product.json()).default_price!.id;
    const link = await dashboardCall(ctx.h, owner, 'POST', `${base}/payment-links`, { line_items: [{ price, quantity: 2 }] });
    expect(link.statusCode, link.body).toBe(201);
    paymentLinkSchema.parse(link.json());
    for (const agent of [owner, viewer]) {
      expect((await answer(agent, `${base}/products`, productListSchema)).data.map((p) => p.name)).toEqual(['Beans']);
      expect((await answer(agent, `${base}/payment-links`, paymentLinkListSchema)).data.map((l) => l.amount_total)).toEqual([2400]);
    }
  });
});
