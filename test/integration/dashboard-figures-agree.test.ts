import { describe, expect, it } from 'vitest';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { dashboardCall, signUpOwner } from '../support/dashboard';
import { merchantCall, payCall, tokenize, useIntegration } from '../support/integration';

/**
 * One definition of each figure (docs/dashboard.md, "Figures"): a voided authorization, a dispute
 * lost, a processor failure and a partial capture read the same on the Overview, in Analytics and
 * on the payment's page.
 */
describe.each(testDatabases)('dashboard figures agree with each other ($name)', (database) => {
  const ctx = useIntegration(database, { rateLimitPerSecond: { test: 10_000 } });

  it('successful payments, paid sessions, success rate, net volume and the payment method, wherever they appear', async () => {
    const owner = await signUpOwner(ctx.h, 'Agreeing Figures');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    const key = (await dashboardCall(ctx.h, owner, 'POST', `${base}/api-keys`, { kind: 'secret' })).json().secret as string;
    const api = async (method: 'GET' | 'POST', url: string, body?: object) => {
      const res = await merchantCall(ctx.h, key, method, url, body);
      expect(res.statusCode, res.body).toBeLessThan(500);
      return res.json();
    };
    const dashboard = async (method: 'GET' | 'POST', path: string) => {
      const res = await dashboardCall(ctx.h, owner, method, `${base}${path}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    /** Opens a session and pays it with `card`; answers the payment's id. */
    const pay = async (amount: number, captureMethod: 'automatic' | 'manual' = 'automatic', card?: Record<string, unknown>) => {
      const session = await api('POST', '/v1/checkout/sessions', {
        currency: 'usd',
        capture_method: captureMethod,
        line_items: [{ name: 'Tea', unit_amount: amount, quantity: 1 }],
      });
      await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id, card));
      ctx.h.clock.advance(1000);
      return (await api('GET', `/v1/payments?checkout_session=${session.id}`)).data[0].id as string;
    };

    await pay(1000);
    await pay(1000);
    const voided = await pay(3000, 'manual');
    await api('POST', `/v1/payments/${voided}/cancel`);
    const partial = await pay(12000, 'manual');
    await api('POST', `/v1/payments/${partial}/capture`, { amount: 10000 });
    await pay(200100); // declined
    const unavailable = await pay(300000); // the processor is unavailable
    const disputed = await pay(2500, 'automatic', { number: '4023 8984 9398 8028', exp_month: 12, exp_year: 2034, cvc: '123' });
    ctx.h.clock.advance(6000);
    await runJobOnce(ctx.h.tillpoint.deps, 'test-processor-disputes');
    const dispute = (await api('GET', `/v1/disputes?payment=${disputed}`)).data[0].id as string;
    await dashboard('POST', `/disputes/${dispute}/accept`);

    const overview = await dashboard('GET', '/overview?days=7');
    const usd = overview.figures[0].current;
    // Captured: 1000 + 1000 + 10000 (of 12000) + 2500; the accepted dispute took 2500 back.
    expect(usd).toMatchObject({ succeeded: 4, captured: 14500, refunded: 0, lost: 2500, net: 12000, authorized: 0, voided: 1, failed: 2 });
    // Paid sessions are the successful payments' sessions: the voided authorization paid nothing.
    expect(overview.funnel).toEqual({ opened: 7, attempted: 7, paid: 4 });
    // Approved over finished, the voided one finished unapproved: 4 of 7, like the funnel's 4 of 7 attempted.
    expect(overview.success_rate).toBeCloseTo(4 / 7);
    // The net volume chart adds up to the net volume.
    expect(overview.days.reduce((sum: number, d: { net: number }) => sum + d.net, 0)).toBe(12000);

    const today = new Date(ctx.h.clock.now()).toISOString().slice(0, 10);
    const analytics = await dashboard('GET', `/analytics?from=${today}&to=${today}`);
    expect(analytics.funnel).toEqual(overview.funnel);
    // The method is known for every attempt, the processor's failure included: no "unknown".
    expect(analytics.payment_methods).toEqual([{ payment_method: 'card', finished: 7, approved: 4, success_rate: 4 / 7 }]);

    const failed = await dashboard('GET', `/payments/${unavailable}`);
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'processor_unavailable', payment_method: { type: 'card', last4: null } });

    const captured = await dashboard('GET', `/payments/${partial}`);
    expect(captured).toMatchObject({ amount: 12000, amount_captured: 10000, amount_refunded: 0, amount_disputed: 0, amount_lost: 0 });
    const lost = await dashboard('GET', `/payments/${disputed}`);
    expect(lost).toMatchObject({ amount_captured: 2500, amount_disputed: 2500, amount_lost: 2500 });
  });
});
