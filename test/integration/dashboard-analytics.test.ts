import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { dashboardCall, signInAgain, signUpOwner } from '../support/dashboard';
import { dumpBusinessData } from '../support/payments';
import { merchantCall, recordPayButtonExposure, runPayButtonExperiment, tokenize, useIntegration } from '../support/integration';

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (date: Date) => date.toISOString().slice(0, 10);

describe.each(testDatabases)('dashboard Analytics ($name)', (database) => {
  const ctx = useIntegration(database, { rateLimitPerSecond: { test: 10_000 } });

  it('counts the funnel, each method’s success rate, decline reasons, 3-D Secure outcomes and experiments over the chosen days only', async () => {
    let owner = await signUpOwner(ctx.h, 'Analytics Shop');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    const key = (await dashboardCall(ctx.h, owner, 'POST', `${base}/api-keys`, { kind: 'secret' })).json().secret as string;
    const analytics = (query: string) => dashboardCall(ctx.h, owner, 'GET', `${base}/analytics?${query}`);
    const open = async (amount: number) => {
      const res = await merchantCall(ctx.h, key, 'POST', '/v1/checkout/sessions', {
        currency: 'usd',
        payment_method_types: ['card', 'apple_pay'],
        line_items: [{ name: 'Beans', unit_amount: amount, quantity: 1 }],
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as string;
    };
    const pay = async (sessionId: string, paymentMethodType: 'card' | 'apple_pay', nonce?: string) => {
      const res = await ctx.h.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${sessionId}/payments`,
        payload: { payment_method_type: paymentMethodType, nonce: nonce ?? (await tokenize(ctx.h, sessionId)), email: 'shopper@example.com' },
      });
      ctx.h.clock.advance(1000);
      return res;
    };

    // Two days ago, outside the period asked for: one paid session.
    await pay(await open(1000), 'card');
    ctx.h.clock.advance(2 * DAY_MS);
    owner = await signInAgain(ctx.h, owner);
    const today = day(ctx.h.clock.now());

    await runPayButtonExperiment(ctx.h, key);
    // Today: 10 sessions opened, 9 attempted, 6 paid.
    const exposed: string[] = [];
    for (const amount of [1000, 1100, 1200]) {
      const id = await open(amount);
      exposed.push(id);
      await recordPayButtonExposure(ctx.h, id);
      expect((await pay(id, 'card')).statusCode).toBe(200);
    }
    expect((await pay(await open(1300), 'apple_pay', 'fake-apple-pay-visa-nonce')).statusCode).toBe(200);
    const declinedTwice = await open(200100); // 2001 Insufficient Funds
    expect((await pay(declinedTwice, 'card')).statusCode).toBe(402);
    expect((await pay(await open(200400), 'card')).statusCode).toBe(402); // 2004 Expired Card
    const declinedExposed = await open(200100);
    await recordPayButtonExposure(ctx.h, declinedExposed);
    expect((await pay(declinedExposed, 'card')).statusCode).toBe(402);
    expect((await pay(await open(1400), 'card', 'fake-three-d-secure-visa-failed-authentication-nonce')).statusCode).toBe(200); // not shifted, still approved
    expect((await pay(await open(1500), 'card', 'fake-three-d-secure-visa-full-authentication-nonce')).statusCode).toBe(200);
    await open(1600); // opened, never attempted

    const res = await analytics(`from=${today}&to=${today}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ from: today, to: today, funnel: { opened: 10, attempted: 9, paid: 6 } });
    expect(body.payment_methods).toEqual([
      { payment_method: 'card', finished: 8, approved: 5, success_rate: 0.625 },
      { payment_method: 'apple_pay', finished: 1, approved: 1, success_rate: 1 },
    ]);
    expect(body.decline_reasons[0]).toEqual({ code: 'insufficient_funds', count: 2 });
    expect(body.decline_reasons.map((d: { code: string }) => d.code)).toContain('expired_card');
    expect(body.decline_reasons.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBe(3);
    expect(body.three_d_secure).toEqual(
      expect.arrayContaining([
        { status: 'not_requested', count: 7 },
        { status: 'authenticate_successful', count: 1 },
        { status: 'authenticate_failed', count: 1 },
      ]),
    );
    // The experiment: 3 exposed sessions converted in "pay" or "pay_now", 1 did not.
    expect(body.experiments).toHaveLength(1);
    const variants = body.experiments[0].variants as Array<{
      variant: string;
      exposed: number;
      conversions: number;
      conversion_rate_interval: { lower: number; upper: number };
    }>;
    expect(variants.map((v) => v.variant)).toEqual(['pay', 'pay_now']);
    expect(variants.reduce((sum, v) => sum + v.exposed, 0)).toBe(4);
    expect(variants.reduce((sum, v) => sum + v.conversions, 0)).toBe(3);
    for (const v of variants) expect(v.conversion_rate_interval.lower).toBeLessThanOrEqual(v.conversion_rate_interval.upper);

    // The three days up to today take in the earlier payment too.
    const wider = (await analytics(`from=${day(new Date(ctx.h.clock.now().getTime() - 2 * DAY_MS))}&to=${today}`)).json();
    expect(wider.funnel).toEqual({ opened: 11, attempted: 10, paid: 7 });
    // Yesterday alone: nothing.
    const yesterday = day(new Date(ctx.h.clock.now().getTime() - DAY_MS));
    const empty = (await analytics(`from=${yesterday}&to=${yesterday}`)).json();
    expect(empty).toMatchObject({
      funnel: { opened: 0, attempted: 0, paid: 0 },
      payment_methods: [],
      decline_reasons: [],
      three_d_secure: [],
      experiments: [],
    });
  });

  it('refuses a bad period with 400 parameter_invalid and changes nothing', async () => {
    const owner = await signUpOwner(ctx.h, 'Analytics Refusals');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    const before = await dumpBusinessData(ctx.db);
    for (const [query, code] of [
      ['from=2026-06-02&to=2026-06-01', 'parameter_invalid'], // from after to
      ['from=2025-01-01&to=2026-06-01', 'parameter_invalid'], // over 366 days
      ['from=2026-02-30&to=2026-03-01', 'parameter_invalid'], // no such day
      ['from=yesterday&to=2026-06-01', 'parameter_invalid'],
      ['from=2026-06-01&to=2026-06-01&extra=1', 'parameter_unknown'],
      ['to=2026-06-01', 'parameter_missing'],
    ]) {
      const res = await dashboardCall(ctx.h, owner, 'GET', `${base}/analytics?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe(code);
    }
    expect(await dumpBusinessData(ctx.db)).toEqual(before);
  });
});
