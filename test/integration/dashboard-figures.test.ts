import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { dashboardCall, signInAgain, signUpOwner } from '../support/dashboard';
import { merchantCall, payCall, tokenize, useIntegration } from '../support/integration';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(testDatabases)('payment badges and Overview figures ($name)', (database) => {
  const ctx = useIntegration(database, { rateLimitPerSecond: { test: 10_000 } });

  /** A shop with a dashboard owner and a test secret key; and ways to make the mix of payments the figures are about. */
  async function shop() {
    let owner = await signUpOwner(ctx.h, 'Figures Shop');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    const key = (await dashboardCall(ctx.h, owner, 'POST', `${base}/api-keys`, { kind: 'secret' })).json().secret as string;
    const api = async (method: 'GET' | 'POST', url: string, body?: object) => {
      const res = await merchantCall(ctx.h, key, method, url, body);
      return { status: res.statusCode, body: res.json() };
    };
    const pay = async (amount: number, currency: 'usd' | 'eur', captureMethod: 'automatic' | 'manual' = 'automatic') => {
      const session = await api('POST', '/v1/checkout/sessions', {
        currency,
        capture_method: captureMethod,
        line_items: [{ name: 'Beans', unit_amount: amount, quantity: 1 }],
      });
      expect(session.status).toBe(200);
      await payCall(ctx.h, session.body.id, await tokenize(ctx.h, session.body.id));
      const payments = await api('GET', `/v1/payments?checkout_session=${session.body.id}`);
      ctx.h.clock.advance(1000);
      return payments.body.data[0].id as string;
    };
    const ok = async (call: Promise<{ status: number; body: any }>) => {
      const res = await call;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const refund = (id: string, amount: number) => ok(api('POST', '/v1/refunds', { payment: id, amount }));
    const capture = (id: string, amount: number) => ok(api('POST', `/v1/payments/${id}/capture`, { amount }));
    const voidIt = (id: string) => ok(api('POST', `/v1/payments/${id}/cancel`));
    const dashboard = async (path: string) => {
      const res = await dashboardCall(ctx.h, owner, 'GET', `${base}${path}`);
      expect(res.statusCode, res.body).toBe(200);
      return res;
    };
    const later = async (ms: number) => {
      ctx.h.clock.advance(ms);
      owner = await signInAgain(ctx.h, owner);
    };
    return { api, pay, refund, capture, voidIt, dashboard, later };
  }

  it('Overview: gross captured, refunded and net per currency, captured payments only, each against the previous period', async () => {
    const s = await shop();
    // The previous period: two USD payments (one partly refunded) and one EUR payment.
    await s.pay(1000, 'usd');
    await s.refund(await s.pay(4000, 'usd'), 1000);
    await s.pay(2000, 'eur');
    await s.later(8 * DAY_MS);

    // This period.
    await s.pay(5000, 'usd'); // captured
    await s.refund(await s.pay(3000, 'usd'), 1200); // partly refunded
    await s.refund(await s.pay(2500, 'usd'), 2500); // fully refunded
    const partCaptured = await s.pay(2000, 'usd', 'manual');
    await s.capture(partCaptured, 1500); // 1500 of 2000 captured, the rest released…
    await s.refund(partCaptured, 500); // …and 500 of it refunded
    await s.voidIt(await s.pay(7000, 'usd', 'manual')); // voided: in no volume, finished unapproved
    await s.pay(4500, 'usd', 'manual'); // authorized, not captured
    await s.pay(200100, 'usd'); // declined
    const eurRefunded = await s.pay(10000, 'eur');
    await s.refund(eurRefunded, 4000);
    await s.refund(eurRefunded, 6000); // refunded in full, in two parts
    await s.pay(800, 'eur');
    await s.pay(1200, 'eur', 'manual'); // authorized

    const overview = (await s.dashboard('/overview?days=7')).json();
    // By hand. USD: captured 5000 + 3000 + 2500 + 1500 = 12000; refunded 1200 + 2500 + 500 = 4200.
    // EUR: captured 10000 + 800 = 10800; refunded 10000. Net USD 7800 > EUR 800, so USD comes first.
    expect(overview.currencies).toEqual(['USD', 'EUR']);
    expect(overview.figures).toEqual([
      {
        currency: 'USD',
        current: { succeeded: 4, captured: 12000, refunded: 4200, lost: 0, net: 7800, authorized: 1, authorized_amount: 4500, failed: 1, voided: 1 },
        previous: { succeeded: 2, captured: 5000, refunded: 1000, lost: 0, net: 4000, authorized: 0, authorized_amount: 0, failed: 0, voided: 0 },
      },
      {
        currency: 'EUR',
        current: { succeeded: 2, captured: 10800, refunded: 10000, lost: 0, net: 800, authorized: 1, authorized_amount: 1200, failed: 0, voided: 0 },
        previous: { succeeded: 1, captured: 2000, refunded: 0, lost: 0, net: 2000, authorized: 0, authorized_amount: 0, failed: 0, voided: 0 },
      },
    ]);
    // Approved (4 + 1 + 2 + 1) of those with an outcome (the same, 1 voided and 1 declined).
    expect(overview.success_rate).toBeCloseTo(8 / 10);
    expect(overview.previous_success_rate).toBe(1);
    // Sessions: 10 opened and attempted, paid those with a payment captured or authorized: not the declined one, nor the voided one.
    expect(overview.funnel).toEqual({ opened: 10, attempted: 10, paid: 8 });
    expect(overview.previous_funnel).toEqual({ opened: 3, attempted: 3, paid: 3 });

    // The days add up to the period, and both periods are 7 days long, back to back.
    expect(overview.days).toHaveLength(7 * 2);
    const usdDays = overview.days.filter((d: { currency: string }) => d.currency === 'USD');
    const total = (key: string) => usdDays.reduce((sum: number, d: Record<string, number>) => sum + d[key]!, 0);
    expect([total('succeeded'), total('captured'), total('refunded'), total('net')]).toEqual([4, 12000, 4200, 7800]);
    const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
    expect((dayMs(overview.to) - dayMs(overview.from)) / DAY_MS).toBe(6);
    expect((dayMs(overview.from) - dayMs(overview.previous_to)) / DAY_MS).toBe(1);
    expect((dayMs(overview.previous_to) - dayMs(overview.previous_from)) / DAY_MS).toBe(6);
  });

  it('badges: refunded and partially refunded in the list, on the detail, by the status filter and in the CSV, from one definition', async () => {
    const s = await shop();
    const captured = await s.pay(5000, 'usd');
    const partly = await s.pay(3000, 'usd');
    await s.refund(partly, 1000);
    const full = await s.pay(2500, 'eur');
    await s.refund(full, 1000);
    await s.refund(full, 1500);
    const authorized = await s.pay(4500, 'usd', 'manual');
    const voided = await s.pay(7000, 'usd', 'manual');
    await s.voidIt(voided);
    const declined = await s.pay(200100, 'usd');

    const list = async (query = '') => (await s.dashboard(`/payments${query}`)).json().data as Array<{ id: string; status: string; status_badge: string }>;
    const all = await list();
    const badgeOf = Object.fromEntries(all.map((p) => [p.id, p.status_badge]));
    expect(badgeOf).toEqual({
      [captured]: 'succeeded',
      [partly]: 'partially_refunded',
      [full]: 'refunded',
      [authorized]: 'requires_capture',
      [voided]: 'canceled',
      [declined]: 'failed',
    });
    // The lifecycle status, and the merchant API, keep saying succeeded: a refund is money sent back, not a new state.
    expect(all.find((p) => p.id === full)!.status).toBe('succeeded');
    expect((await s.api('GET', `/v1/payments/${full}`)).body).toMatchObject({ status: 'succeeded', amount_refunded: 2500 });
    expect((await s.dashboard(`/payments/${full}`)).json()).toMatchObject({ status: 'succeeded', status_badge: 'refunded', amount_refunded: 2500 });
    expect((await s.dashboard(`/payments/${partly}`)).json()).toMatchObject({ status_badge: 'partially_refunded', amount_refunded: 1000 });

    // The filter picks exactly the payments that show the badge asked for, alone or combined.
    for (const badge of ['succeeded', 'partially_refunded', 'refunded', 'requires_capture', 'canceled', 'failed']) {
      expect((await list(`?status=${badge}`)).map((p) => p.id).sort(), badge).toEqual(
        all
          .filter((p) => p.status_badge === badge)
          .map((p) => p.id)
          .sort(),
      );
    }
    expect((await list('?status=refunded,partially_refunded')).map((p) => p.id).sort()).toEqual([partly, full].sort());
    expect((await list('?status=succeeded,refunded,failed')).map((p) => p.id).sort()).toEqual([captured, full, declined].sort());
    expect((await list('?status=succeeded,partially_refunded,refunded')).map((p) => p.id).sort()).toEqual([captured, partly, full].sort());

    const csv = (await s.dashboard('/payments/export.csv?status=refunded,partially_refunded')).body.trim().split('\r\n');
    expect(csv[0]).toBe(
      'id,created_utc,status,amount,amount_captured,amount_refunded,currency,customer_email,brand,last4,checkout_session,decline_code,payment_method_type,payer,amount_discount,amount_shipping,amount_tax,shipping_name,shipping_line1,shipping_line2,shipping_city,shipping_state,shipping_postal_code,shipping_country,billing_line1,billing_line2,billing_city,billing_state,billing_postal_code,billing_country,custom_fields',
    );
    expect(
      csv.slice(1).map((line) =>
        line
          .split(',')
          .slice(0, 7)
          .filter((_, i) => i !== 1),
      ),
    ).toEqual([
      [full, 'refunded', '25.00', '25.00', '25.00', 'EUR'],
      [partly, 'partially_refunded', '30.00', '30.00', '10.00', 'USD'],
    ]);
  });
});
