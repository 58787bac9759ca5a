import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { addMember, dashboardCall, signUpOwner, type DashboardAgent } from '../support/dashboard';
import { expectError, merchantCall, payCall, tokenize, useIntegration, type IntegrationContext } from '../support/integration';

describe.each(testDatabases)('dashboard payments, sessions and overview ($name)', (database) => {
  const ctx = useIntegration(database);

  async function shop(): Promise<{ owner: DashboardAgent; key: string; base: string }> {
    const owner = await signUpOwner(ctx.h, 'Payments Shop');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    const key = (await dashboardCall(ctx.h, owner, 'POST', `${base}/api-keys`, { kind: 'secret' })).json().secret;
    return { owner, key, base };
  }

  async function pay(c: IntegrationContext, key: string, amount: number, email: string, card = '4111 1111 1111 1111') {
    const session = (
      await merchantCall(c.h, key, 'POST', '/v1/checkout/sessions', {
        currency: 'usd',
        line_items: [{ name: 'Thing', unit_amount: amount, quantity: 1 }],
      })
    ).json();
    const res = await payCall(c.h, session.id, await tokenize(c.h, session.id, { number: card, exp_month: 12, exp_year: 2034, cvc: '123' }), email);
    c.h.clock.advance(1000);
    return { sessionId: session.id as string, status: res.statusCode };
  }

  it('filters by status, amount, email, last4, date and id, and pages with a cursor', async () => {
    const { owner, key, base } = await shop();
    await pay(ctx, key, 1000, 'ann@buyer.example');
    await pay(ctx, key, 200100, 'bob@buyer.example'); // declined: insufficient funds
    const third = await pay(ctx, key, 5000, 'Cat@Buyer.example', '5555 5555 5555 4444');
    const list = async (query = '') => (await dashboardCall(ctx.h, owner, 'GET', `${base}/payments${query}`)).json();

    expect((await list()).data.map((p: { amount: number }) => p.amount)).toEqual([5000, 200100, 1000]);
    expect((await list('?status=failed')).data.map((p: { decline_code: string }) => p.decline_code)).toEqual(['insufficient_funds']);
    expect((await list('?status=succeeded,failed&amount_min=1500')).data.map((p: { amount: number }) => p.amount)).toEqual([5000, 200100]);
    expect((await list('?amount_max=1000')).data).toHaveLength(1);
    expect((await list('?email=cat@buyer.example')).data[0].customer_email).toBe('Cat@Buyer.example');
    expect((await list('?last4=4444')).data.map((p: { amount: number }) => p.amount)).toEqual([5000]);
    expect((await list(`?q=${third.sessionId}`)).data.map((p: { amount: number }) => p.amount)).toEqual([5000]);
    const today = ctx.h.clock.now().toISOString().slice(0, 10);
    expect((await list(`?created_from=${today}&created_to=${today}`)).data).toHaveLength(3);
    expect((await list('?created_to=2001-01-01')).data).toHaveLength(0);

    const first = await list('?limit=2');
    expect(first.has_more).toBe(true);
    const second = await list(`?limit=2&starting_after=${first.data[1].id}`);
    expect(second).toMatchObject({ has_more: false });
    expect(second.data.map((p: { amount: number }) => p.amount)).toEqual([1000]);

    expectError(await dashboardCall(ctx.h, owner, 'GET', `${base}/payments?status=lost`), 400, 'parameter_invalid', { param: 'status[0]' });
    expectError(await dashboardCall(ctx.h, owner, 'GET', `${base}/payments?colour=red`), 400, 'parameter_unknown', { param: 'colour' });
  });

  it('shows a viewer masked emails, refuses them the email filter, and masks the CSV too', async () => {
    const { owner, key, base } = await shop();
    await pay(ctx, key, 1000, 'jane.doe@buyer.example');
    const viewer = await addMember(ctx.h, owner, 'viewer');
    const seen = (await dashboardCall(ctx.h, viewer, 'GET', `${base}/payments`)).json().data[0];
    expect(seen.customer_email).toBe('j•••@buyer.example');
    const detail = (await dashboardCall(ctx.h, viewer, 'GET', `${base}/payments/${seen.id}`)).json();
    expect(detail.customer_email).toBe('j•••@buyer.example');
    const sessions = (await dashboardCall(ctx.h, viewer, 'GET', `${base}/checkout-sessions`)).json();
    expect(JSON.stringify(sessions)).not.toContain('jane.doe');
    expectError(await dashboardCall(ctx.h, viewer, 'GET', `${base}/payments?email=jane.doe@buyer.example`), 403, 'insufficient_role', { param: 'email' });

    const support = await addMember(ctx.h, owner, 'support');
    const csv = await dashboardCall(ctx.h, support, 'GET', `${base}/payments/export.csv?status=succeeded`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="payments-test-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,created_utc,status,amount,amount_captured,amount_refunded,currency,customer_email,brand,last4,checkout_session,decline_code,payment_method_type,payer,amount_discount,amount_shipping,amount_tax,shipping_name,shipping_line1,shipping_line2,shipping_city,shipping_state,shipping_postal_code,shipping_country,billing_line1,billing_line2,billing_city,billing_state,billing_postal_code,billing_country,custom_fields',
    );
    expect(lines[1]).toMatch(
      /^pay_\w+,[\d-]+T[\d:.]+Z,succeeded,10\.00,10\.00,0\.00,USD,jane\.doe@buyer\.example,visa,1111,cs_\w+,,card,,0\.00,0\.00,0\.00,,,,,,,,,,,,,,$/,
    );
  });

  it('shows a payment with its timeline, payment method and processor response', async () => {
    const { owner, key, base } = await shop();
    const { sessionId } = await pay(ctx, key, 2500, 'tim@buyer.example');
    const [payment] = (await dashboardCall(ctx.h, owner, 'GET', `${base}/payments`)).json().data;
    const detail = (await dashboardCall(ctx.h, owner, 'GET', `${base}/payments/${payment.id}`)).json();
    expect(detail).toMatchObject({
      status: 'succeeded',
      amount: 2500,
      payment_method: { type: 'card', brand: 'visa', last4: '1111' },
      processor: 'test',
      processor_response: { code: '1000' },
    });
    expect(detail.timeline.map((e: { type: string }) => e.type)).toEqual(['payment.succeeded']);
    const session = (await dashboardCall(ctx.h, owner, 'GET', `${base}/checkout-sessions/${sessionId}`)).json();
    expect(session).toMatchObject({ status: 'complete', payment: payment.id });
    expect(session.payments.map((p: { id: string }) => p.id)).toEqual([payment.id]);
    expect(session.timeline.map((e: { type: string }) => e.type)).toEqual(['checkout.session.completed']);
  });

  it('overview: volume and successes per day, success rate and funnel, in the mode asked for only', async () => {
    const { owner, key, base } = await shop();
    await pay(ctx, key, 1000, 'a@buyer.example');
    await pay(ctx, key, 3000, 'b@buyer.example');
    await pay(ctx, key, 200100, 'c@buyer.example');
    await merchantCall(ctx.h, key, 'POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'x', unit_amount: 900, quantity: 1 }] });

    const overview = (await dashboardCall(ctx.h, owner, 'GET', `${base}/overview?days=7`)).json();
    expect(overview.currencies).toEqual(['USD']);
    expect(overview.days).toHaveLength(7);
    const today = overview.days.at(-1);
    expect(today).toMatchObject({ day: ctx.h.clock.now().toISOString().slice(0, 10), currency: 'USD', succeeded: 2, failed: 1, captured: 4000, net: 4000 });
    expect(overview.success_rate).toBeCloseTo(2 / 3);
    expect(overview.funnel).toEqual({ opened: 4, attempted: 3, paid: 2 });
    // The previous period's days, day for day, for the charts' comparison: the 7 days before, empty here.
    expect(overview.previous_days.map((d: { day: string }) => d.day)).toEqual(
      overview.days.map((d: { day: string }) => new Date(Date.parse(`${d.day}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10)),
    );
    expect(
      overview.previous_days.every((d: { net: number; succeeded: number; currency: string }) => d.net === 0 && d.succeeded === 0 && d.currency === 'USD'),
    ).toBe(true);

    const live = (await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/live/overview`)).json();
    expect(live).toMatchObject({ currencies: [], figures: [], days: [], success_rate: null, funnel: { opened: 0, attempted: 0, paid: 0 } });
  });

  it('API keys: created once in clear, listed redacted with last use, revoked for good', async () => {
    const { owner, key, base } = await shop();
    await merchantCall(ctx.h, key, 'GET', '/v1/payments');
    const keys = (await dashboardCall(ctx.h, owner, 'GET', `${base}/api-keys`)).json().data;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kind: 'secret', mode: 'test', redacted: `sk_test_…${key.slice(-4)}`, revoked_at: null });
    expect(keys[0].last_used_at).toEqual(expect.any(Number));
    expect(JSON.stringify(keys)).not.toContain(key);

    const revoke = await dashboardCall(ctx.h, owner, 'POST', `${base}/api-keys/${keys[0].id}/revoke`);
    expect(revoke.statusCode).toBe(200);
    expectError(await merchantCall(ctx.h, key, 'GET', '/v1/payments'), 401, 'api_key_revoked');
    expectError(await dashboardCall(ctx.h, owner, 'POST', `${base}/api-keys/${keys[0].id}/revoke`), 404, 'resource_missing', { param: 'id' });

    const live = await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/live/api-keys`, { kind: 'secret' });
    expect(live.json().secret).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    // The request log is written in batches just after the answer (docs/performance.md): it appears shortly.
    await expect
      .poll(async () =>
        (await dashboardCall(ctx.h, owner, 'GET', `${base}/request-log`)).json().data.map((r: { status: number; path: string }) => [r.status, r.path]),
      )
      .toContainEqual([200, '/v1/payments']);
  });
});
