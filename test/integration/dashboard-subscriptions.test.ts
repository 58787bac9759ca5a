import { describe, expect, it } from 'vitest';
import {
  dashboardInvoiceListSchema,
  dashboardSubscriptionListSchema,
  invoiceDetailSchema,
  recurringRevenueSchema,
  subscriptionDetailSchema,
} from '../../src/http/dashboard/response-schemas';
import { testDatabases } from '../support/databases';
import { dashboardCall } from '../support/dashboard';
import { merchantOk, newSubscription, useDashboardFixtures } from '../support/dashboard-fixtures';
import { expectError, rows } from '../support/integration';
import { dumpBusinessData } from '../support/payments';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(testDatabases)("the dashboard's Subscriptions and Invoices pages, and MRR and churn ($name)", (database) => {
  const fx = useDashboardFixtures(database);
  const url = (path: string) => `/dashboard/api/accounts/${fx.accountId}/test${path}`;
  const as = (role: keyof typeof fx.members, method: 'GET' | 'POST', path: string, body?: object) =>
    dashboardCall(fx.h, fx.members[role], method, url(path), body);
  const ok = async (role: keyof typeof fx.members, method: 'GET' | 'POST', path: string, body?: object) => {
    const res = await as(role, method, path, body);
    expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
    return res.json();
  };
  /** Moves a subscription's start (and end, if it ended) back in time, as if it had been made `daysAgo` days ago. */
  const startedDaysAgo = async (id: string, daysAgo: number, endedDaysAgo?: number) => {
    const now = fx.h.clock.now().getTime();
    await fx.db.query('UPDATE subscriptions SET created_at = $2 WHERE id = $1', [id, new Date(now - daysAgo * DAY_MS)]);
    if (endedDaysAgo !== undefined) await fx.db.query('UPDATE subscriptions SET ended_at = $2 WHERE id = $1', [id, new Date(now - endedDaysAgo * DAY_MS)]);
  };

  // First in the file: the account has no other subscription yet, so the figures are these alone.
  it('sums MRR per currency over active subscriptions, normalized to a month, and measures churn over the last 30 days', async () => {
    const empty = await ok('viewer', 'GET', '/recurring-revenue');
    expect(empty).toMatchObject({ mrr: [], churn: { active_at_start: 0, canceled: 0, rate: null } });

    // $20 × 2 a month, $120 a year, $10 a week; €5 every 3 months.
    const monthly = await newSubscription(fx, { unitAmount: 2000, quantity: 2 });
    const yearly = await newSubscription(fx, { unitAmount: 12_000, interval: 'year' });
    const weekly = await newSubscription(fx, { unitAmount: 1000, interval: 'week' });
    const quarterly = await newSubscription(fx, { unitAmount: 500, currency: 'eur', intervalCount: 3 });
    // Neither a trial nor a canceled subscription is revenue.
    await newSubscription(fx, { unitAmount: 99_900, trialDays: 14 });
    const gone = await newSubscription(fx, { unitAmount: 50_000 });
    await ok('owner', 'POST', `/subscriptions/${gone.id}/cancel`);

    const figures = recurringRevenueSchema.parse(await ok('viewer', 'GET', '/recurring-revenue'));
    // 4000 + 12000/12 + 1000 × 52/12 (4333.33) = 9333.33 → 9333; 500/3 = 166.67 → 167.
    expect(figures.mrr).toEqual([
      { currency: 'USD', amount: 9333, subscriptions: 3 },
      { currency: 'EUR', amount: 167, subscriptions: 1 },
    ]);

    // Churn: four started 40 days ago, one of them canceled now; one started and ended in the
    // window, one ended before it: in neither count. 1 ÷ 4.
    for (const s of [monthly, yearly, weekly, quarterly]) await startedDaysAgo(s.id, 40);
    await startedDaysAgo(gone.id, 50, 35);
    const brief = await newSubscription(fx, { unitAmount: 700 });
    await ok('admin', 'POST', `/subscriptions/${brief.id}/cancel`);
    expect((await ok('owner', 'GET', '/recurring-revenue')).churn).toMatchObject({ active_at_start: 4, canceled: 0, rate: 0 });
    await ok('owner', 'POST', `/subscriptions/${weekly.id}/cancel`);
    const after = await ok('owner', 'GET', '/recurring-revenue');
    expect(after.churn).toEqual({
      from: Math.floor(fx.h.clock.now().getTime() / 1000) - 30 * 86_400,
      to: Math.floor(fx.h.clock.now().getTime() / 1000),
      active_at_start: 4,
      canceled: 1,
      rate: 0.25,
    });
    // 4000 + 1000: the weekly one is gone.
    expect(after.mrr).toEqual([
      { currency: 'USD', amount: 5000, subscriptions: 2 },
      { currency: 'EUR', amount: 167, subscriptions: 1 },
    ]);
  });

  it('MRR is net of a forever or repeating discount, not of a once discount', async () => {
    const usd = async () =>
      ((await ok('viewer', 'GET', '/recurring-revenue')).mrr as Array<{ currency: string; amount: number }>).find((m) => m.currency === 'USD')?.amount ?? 0;
    const before = await usd();
    const quarterOff = await merchantOk(fx, 'POST', '/v1/coupons', { percent_off: 25, duration: 'forever' });
    const fiveOff = await merchantOk(fx, 'POST', '/v1/coupons', { amount_off: 500, currency: 'usd', duration: 'repeating', duration_in_months: 3 });
    const once = await merchantOk(fx, 'POST', '/v1/coupons', { percent_off: 50, duration: 'once' });
    const a = await newSubscription(fx, { unitAmount: 2000 });
    const b = await newSubscription(fx, { unitAmount: 3000 });
    const c = await newSubscription(fx, { unitAmount: 1000 });
    await merchantOk(fx, 'POST', `/v1/subscriptions/${a.id}`, { coupon: quarterOff.id });
    await merchantOk(fx, 'POST', `/v1/subscriptions/${b.id}`, { coupon: fiveOff.id });
    await merchantOk(fx, 'POST', `/v1/subscriptions/${c.id}`, { coupon: once.id });
    // 2000 × 75 % + (3000 − 500) + 1000 (a once discount recurs not).
    expect((await usd()) - before).toBe(1500 + 2500 + 1000);
    // Once the repeating discount's months are over, it no longer counts.
    const now = Math.floor(fx.h.clock.now().getTime() / 1000);
    await fx.db.query(`UPDATE subscriptions SET discount = jsonb_set(discount, '{end}', to_jsonb($2::bigint)) WHERE id = $1`, [b.id, now]);
    expect((await usd()) - before).toBe(1500 + 3000 + 1000);
  });

  it('lists subscriptions by status and customer email, masks emails for a viewer, and shows one with its invoices and timeline', async () => {
    const sub = await newSubscription(fx, { unitAmount: 2500, email: 'grace.hopper@buyer.example' });
    const list = dashboardSubscriptionListSchema.parse(await ok('support', 'GET', '/subscriptions?email=GRACE.Hopper@buyer.example'));
    expect(list.data.map((s: { id: string }) => s.id)).toEqual([sub.id]);
    expect(list.data[0]).toMatchObject({ status: 'active', customer: sub.customer, customer_email: 'grace.hopper@buyer.example' });
    expect(list.data[0]!.items.data[0]).toMatchObject({ quantity: 1, price: { unit_amount: 2500, recurring: { interval: 'month', interval_count: 1 } } });
    expect((await ok('owner', 'GET', '/subscriptions?email=nobody@buyer.example')).data).toEqual([]);
    const canceled = (await ok('owner', 'GET', '/subscriptions?status=canceled')).data.map((s: { status: string }) => s.status);
    expect(canceled.length).toBeGreaterThan(0);
    expect(new Set(canceled)).toEqual(new Set(['canceled']));

    const viewerList = await ok('viewer', 'GET', `/subscriptions?customer=${sub.customer}`);
    expect(viewerList.data.map((s: { customer_email: string }) => s.customer_email)).toEqual(['g•••@buyer.example']);
    expectError(await as('viewer', 'GET', '/subscriptions?email=grace.hopper@buyer.example'), 403, 'insufficient_role', { param: 'email' });

    const detail = subscriptionDetailSchema.parse(await ok('viewer', 'GET', `/subscriptions/${sub.id}`));
    expect(detail.invoices).toHaveLength(1);
    expect(detail.invoices[0]).toMatchObject({ status: 'paid', amount_paid: 2500, billing_reason: 'subscription_create' });
    expect(detail.latest_invoice).toBe(detail.invoices[0]!.id);
    const types = detail.timeline.map((e) => e.type);
    expect(types).toContain('customer.subscription.created');
    expect(types).toContain('invoice.paid');
    const times = detail.timeline.map((e) => e.created);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const invoices = dashboardInvoiceListSchema.parse(await ok('viewer', 'GET', `/invoices?status=paid`));
    expect(invoices.data.map((i) => i.id)).toContain(detail.invoices[0]!.id);
    expect(invoices.data.every((i) => i.status === 'paid')).toBe(true);
    const invoice = invoiceDetailSchema.parse(await ok('viewer', 'GET', `/invoices/${detail.invoices[0]!.id}`));
    expect(invoice.customer_email).toBe('g•••@buyer.example');
    expect(invoice.lines.data).toEqual([expect.objectContaining({ amount: 2500, quantity: 1, proration: false })]);
    expect(invoice.payments).toEqual([expect.objectContaining({ status: 'succeeded', amount: 2500, invoice: invoice.id })]);
  });

  it('cancels at period end and resumes, changes the quantity with a proration line, cancels now; each audited against the member', async () => {
    const sub = await newSubscription(fx, { unitAmount: 3000 });
    const ending = await ok('admin', 'POST', `/subscriptions/${sub.id}`, { cancel_at_period_end: true });
    expect(ending).toMatchObject({ status: 'active', cancel_at_period_end: true, canceled_at: expect.any(Number) });
    const resumed = await ok('owner', 'POST', `/subscriptions/${sub.id}`, { cancel_at_period_end: false });
    expect(resumed).toMatchObject({ status: 'active', cancel_at_period_end: false, canceled_at: null });

    const bigger = await ok('owner', 'POST', `/subscriptions/${sub.id}`, { quantity: 3 });
    expect(bigger.items.data[0].quantity).toBe(3);
    const pending = await rows(fx.db, 'SELECT pending_invoice_lines FROM subscriptions WHERE id = $1', [sub.id]);
    const lines = pending[0]!.pending_invoice_lines as Array<{ proration: boolean; amount: number }>;
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.proration)).toBe(true);
    expect(lines.reduce((sum, l) => sum + l.amount, 0)).toBeGreaterThan(0);

    fx.h.clock.advance(1000);
    const ended = await ok('owner', 'POST', `/subscriptions/${sub.id}/cancel`);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: expect.any(Number) });
    expect(ended.timeline[0].type).toBe('customer.subscription.deleted');
    expectError(await as('owner', 'POST', `/subscriptions/${sub.id}/cancel`), 409, 'subscription_canceled');

    const entries = await rows(fx.db, "SELECT action, actor_label FROM audit_log WHERE target = $1 AND actor_type = 'user'", [sub.id]);
    expect(entries.map((e) => `${e.action} by ${e.actor_label}`).sort()).toEqual(
      [
        `subscription.update by ${fx.members.admin.email}`,
        `subscription.update by ${fx.members.owner.email}`,
        `subscription.update by ${fx.members.owner.email}`,
        `subscription.cancel by ${fx.members.owner.email}`,
      ].sort(),
    );
  });

  it('refuses viewers, support and developers a change, and bad input, changing nothing', async () => {
    const sub = await newSubscription(fx, { unitAmount: 1200 });
    const before = await dumpBusinessData(fx.db);
    for (const role of ['viewer', 'support', 'developer'] as const) {
      expectError(await as(role, 'POST', `/subscriptions/${sub.id}/cancel`), 403, 'insufficient_role');
      expectError(await as(role, 'POST', `/subscriptions/${sub.id}`, { cancel_at_period_end: true }), 403, 'insufficient_role');
      expect((await as(role, 'GET', `/subscriptions/${sub.id}`)).statusCode).toBe(200);
    }
    expectError(await as('owner', 'POST', `/subscriptions/${sub.id}`, {}), 400, 'parameter_missing', { param: 'quantity' });
    expectError(await as('owner', 'POST', `/subscriptions/${sub.id}`, { quantity: 0 }), 400, 'parameter_invalid', { param: 'quantity' });
    expectError(await as('owner', 'POST', `/subscriptions/${sub.id}`, { quantity: 2.5 }), 400, 'parameter_invalid', { param: 'quantity' });
    expectError(await as('owner', 'POST', `/subscriptions/${sub.id}`, { price: 'price_x' }), 400, 'parameter_unknown', { param: 'price' });
    expectError(await as('owner', 'POST', '/subscriptions/sub_nope/cancel'), 404, 'resource_missing', { param: 'id' });
    expectError(await as('owner', 'GET', '/subscriptions?status=happy'), 400, 'parameter_invalid', { param: 'status' });
    expectError(await as('owner', 'GET', '/subscriptions?customer=pay_1'), 400, 'parameter_invalid', { param: 'customer' });
    expectError(await as('owner', 'GET', '/invoices?status=late'), 400, 'parameter_invalid', { param: 'status' });
    expectError(await as('owner', 'GET', '/invoices/in_nope'), 404, 'resource_missing', { param: 'id' });
    expect(await dumpBusinessData(fx.db)).toEqual(before);
  });
});
