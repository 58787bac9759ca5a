import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { addMember, dashboardCall, signUpOwner, type DashboardAgent } from '../support/dashboard';
import { expectError, merchantCall, payCall, tokenize, useIntegration, type IntegrationContext } from '../support/integration';

async function ownerWithPayment(ctx: IntegrationContext, captureMethod: 'automatic' | 'manual' = 'automatic') {
  const owner = await signUpOwner(ctx.h, 'Actions Shop');
  const base = `/dashboard/api/accounts/${owner.accountId}/test`;
  const key = (await dashboardCall(ctx.h, owner, 'POST', `${base}/api-keys`, { kind: 'secret' })).json().secret;
  const session = await merchantCall(ctx.h, key, 'POST', '/v1/checkout/sessions', {
    currency: 'usd',
    capture_method: captureMethod,
    line_items: [{ name: 'Kettle', unit_amount: 4000, quantity: 1 }],
  });
  const id = session.json().id;
  expect((await payCall(ctx.h, id, await tokenize(ctx.h, id))).statusCode).toBe(200);
  const paymentId = (await dashboardCall(ctx.h, owner, 'GET', `${base}/payments`)).json().data[0].id as string;
  return { owner, base, key, paymentId };
}

const auditActions = async (ctx: IntegrationContext, owner: DashboardAgent) =>
  (await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/audit-log`)).json().data.map((e: { action: string }) => e.action);

describe.each(testDatabases)('dashboard actions ($name)', (database) => {
  const ctx = useIntegration(database);

  it('a support member refunds part of a payment: the detail lists the refund and its event, the audit log names them', async () => {
    const { owner, base, paymentId } = await ownerWithPayment(ctx);
    const support = await addMember(ctx.h, owner, 'support');
    const res = await dashboardCall(ctx.h, support, 'POST', `${base}/payments/${paymentId}/refunds`, { amount: 1500, reason: 'requested_by_customer' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ amount: 1500, status: 'succeeded', created_by: support.userId });

    const detail = (await dashboardCall(ctx.h, owner, 'GET', `${base}/payments/${paymentId}`)).json();
    expect(detail.amount_refunded).toBe(1500);
    expect(detail.refunds).toHaveLength(1);
    const refundEvent = detail.timeline.find((e: { type: string }) => e.type === 'refund.succeeded');
    expect(refundEvent.object).toBe(detail.refunds[0].id);
    expect(await auditActions(ctx, owner)).toContain('refund.create');

    // The same rules as the API: no more than what remains.
    expectError(await dashboardCall(ctx.h, support, 'POST', `${base}/payments/${paymentId}/refunds`, { amount: 2501 }), 409, 'refund_exceeds_available', {
      param: 'amount',
    });
    expectError(await dashboardCall(ctx.h, support, 'POST', `${base}/payments/${paymentId}/refunds`, { amount: 1, surprise: 1 }), 400, 'parameter_unknown', {
      param: 'surprise',
    });
  });

  it('captures part of an authorization; a second capture is refused; void is refused after capture', async () => {
    const { owner, base, paymentId } = await ownerWithPayment(ctx, 'manual');
    const captured = await dashboardCall(ctx.h, owner, 'POST', `${base}/payments/${paymentId}/capture`, { amount: 3000 });
    expect(captured.statusCode, captured.body).toBe(200);
    expect(captured.json()).toMatchObject({ status: 'succeeded', amount_captured: 3000 });
    expectError(await dashboardCall(ctx.h, owner, 'POST', `${base}/payments/${paymentId}/capture`, {}), 409, 'payment_not_capturable');
    expectError(await dashboardCall(ctx.h, owner, 'POST', `${base}/payments/${paymentId}/cancel`), 409, 'payment_not_capturable');
    expect(await auditActions(ctx, owner)).toContain('payment.capture');
  });

  it('never answers the processor private key, and check connection gives the use case result', async () => {
    const owner = await signUpOwner(ctx.h, 'Processor Shop');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    const shown = (await dashboardCall(ctx.h, owner, 'GET', `${base}/processor`)).json();
    expect(shown).toMatchObject({ processor: 'test' });
    const check = await dashboardCall(ctx.h, owner, 'POST', `${base}/processor/check`);
    expect(check.json()).toEqual({ processor: 'test', ok: true, problems: [] });
    const live = await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/live/processor/check`);
    expect(live.json()).toMatchObject({ processor: 'none', ok: false });
    // The test processor never serves live mode: refused by the use case, not by the page.
    expectError(
      await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/live/processor`, { processor: 'test' }),
      400,
      'parameter_invalid',
      { param: 'processor' },
    );
  });

  it('shows the exact webhook body sent for each delivery, and deactivating a link stops its URL', async () => {
    const { owner, base, key } = await ownerWithPayment(ctx);
    const endpoint = (
      await dashboardCall(ctx.h, owner, 'POST', `${base}/webhook-endpoints`, { url: 'http://localhost:9/hooks', enabled_events: ['*'] })
    ).json();
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect((await dashboardCall(ctx.h, owner, 'GET', `${base}/webhook-endpoints`)).json().data[0].secret).toBeUndefined();
    const session = await merchantCall(ctx.h, key, 'POST', '/v1/checkout/sessions', {
      currency: 'usd',
      line_items: [{ name: 'Cup', unit_amount: 900, quantity: 1 }],
    });
    await payCall(ctx.h, session.json().id, await tokenize(ctx.h, session.json().id));
    const deliveries = (await dashboardCall(ctx.h, owner, 'GET', `${base}/webhook-endpoints/${endpoint.id}/deliveries`)).json().data;
    const completed = deliveries.find((d: { event_type: string }) => d.event_type === 'checkout.session.completed');
    expect(JSON.parse(completed.request_body)).toMatchObject({ id: completed.event, type: 'checkout.session.completed' });

    const product = (
      await dashboardCall(ctx.h, owner, 'POST', `${base}/products`, { name: 'Beans', default_price_data: { currency: 'usd', unit_amount: 1200 } })
    ).json();
    const link = (
      await dashboardCall(ctx.h, owner, 'POST', `${base}/payment-links`, { line_items: [{ price: product.default_price.id, quantity: 1 }] })
    ).json();
    const slug = new URL(link.url).pathname;
    expect((await ctx.h.app.inject({ method: 'GET', url: slug })).statusCode).toBe(303);
    const off = await dashboardCall(ctx.h, owner, 'POST', `${base}/payment-links/${link.id}`, { active: false });
    expect(off.json().active).toBe(false);
    expect((await ctx.h.app.inject({ method: 'GET', url: slug })).statusCode).toBe(404);
    expect(await auditActions(ctx, owner)).toEqual(
      expect.arrayContaining(['webhook_endpoint.create', 'product.create', 'payment_link.create', 'payment_link.deactivate']),
    );
  });
});
