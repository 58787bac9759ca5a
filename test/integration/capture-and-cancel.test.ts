import { describe, expect, it } from 'vitest';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { expectError, merchantCall, rows, useIntegration } from '../support/integration';
import { DAY_MS, dumpBusinessData, paidPayment, readPayment } from '../support/payments';

describe.each(testDatabases)('manual capture and cancel ($name)', (database) => {
  // Many calls in one instant of the test clock: lift the per-second limit, which is not under test here.
  const ctx = useIntegration(database, { rateLimitPerSecond: { test: 10_000 } });
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);
  const eventsOf = async (id: string) => (await rows(ctx.db, 'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id', [id])).map((e) => e.type);

  it('captures an authorization in full: succeeded, amount_captured, event payment.captured', async () => {
    const payment = await paidPayment(ctx, 5000, 'manual');
    expect(payment).toMatchObject({ status: 'requires_capture', amount_captured: 0 });

    const res = await call('POST', `/v1/payments/${payment.id}/capture`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: payment.id, status: 'succeeded', amount: 5000, amount_captured: 5000 });
    expect(await readPayment(ctx, payment.id)).toMatchObject({ status: 'succeeded', amount_captured: 5000 });
    expect(await eventsOf(payment.id)).toEqual(['payment.requires_capture', 'payment.captured']);
    const [event] = await rows(ctx.db, `SELECT data FROM events WHERE type = 'payment.captured'`);
    expect(event!.data).toMatchObject({ status: 'succeeded', amount_captured: 5000 });
  });

  it('captures part of an authorization, then that part can be refunded at once', async () => {
    const payment = await paidPayment(ctx, 5000, 'manual');
    const captured = await call('POST', `/v1/payments/${payment.id}/capture`, { amount: 3000 });
    expect(captured.statusCode, captured.body).toBe(200);
    expect(captured.json()).toMatchObject({ status: 'succeeded', amount: 5000, amount_captured: 3000 });

    const over = await call('POST', '/v1/refunds', { payment: payment.id, amount: 3001 });
    expectError(over, 409, 'refund_exceeds_available', { param: 'amount' });
    const refund = await call('POST', '/v1/refunds', { payment: payment.id });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json()).toMatchObject({ status: 'succeeded', amount: 3000 });
    expect(await readPayment(ctx, payment.id)).toMatchObject({ amount_captured: 3000, amount_refunded: 3000 });
  });

  it('refuses a capture above the authorized amount or below 1, changing nothing', async () => {
    const payment = await paidPayment(ctx, 5000, 'manual');
    const before = await dumpBusinessData(ctx.db);
    expectError(await call('POST', `/v1/payments/${payment.id}/capture`, { amount: 5001 }), 400, 'amount_too_large', {
      param: 'amount',
    });
    expectError(await call('POST', `/v1/payments/${payment.id}/capture`, { amount: 0 }), 400, 'amount_too_small', {
      param: 'amount',
    });
    expectError(await call('POST', `/v1/payments/${payment.id}/capture`, { amount: 10.5 }), 400, 'parameter_invalid', {
      param: 'amount',
    });
    expectError(await call('POST', `/v1/payments/${payment.id}/capture`, { amout: 10 }), 400, 'parameter_unknown', {
      param: 'amout',
    });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);
  });

  it('a second capture, a capture of an automatic payment and a cancel after capture answer 409 payment_not_capturable', async () => {
    const manual = await paidPayment(ctx, 5000, 'manual');
    expect((await call('POST', `/v1/payments/${manual.id}/capture`, { amount: 1000 })).statusCode).toBe(200);
    const before = await dumpBusinessData(ctx.db);
    expectError(await call('POST', `/v1/payments/${manual.id}/capture`, {}), 409, 'payment_not_capturable');
    expectError(await call('POST', `/v1/payments/${manual.id}/cancel`), 409, 'payment_not_capturable');
    const automatic = await paidPayment(ctx, 5000, 'automatic');
    const afterSecond = await dumpBusinessData(ctx.db);
    expectError(await call('POST', `/v1/payments/${automatic.id}/capture`, {}), 409, 'payment_not_capturable');
    expect(await dumpBusinessData(ctx.db)).toEqual(afterSecond);
    expect(before.payments).toEqual(afterSecond.payments!.filter((p) => !p.includes(automatic.id)));
    expect(await readPayment(ctx, manual.id)).toMatchObject({ status: 'succeeded', amount_captured: 1000 });
  });

  it('two concurrent captures take the money once', async () => {
    const payment = await paidPayment(ctx, 5000, 'manual');
    const answers = await Promise.all([
      call('POST', `/v1/payments/${payment.id}/capture`, { amount: 4000 }),
      call('POST', `/v1/payments/${payment.id}/capture`, { amount: 2000 }),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json();
    const stored = await readPayment(ctx, payment.id);
    expect(stored.amount_captured).toBe(winner.amount_captured);
    expect(await eventsOf(payment.id)).toEqual(['payment.requires_capture', 'payment.captured']);
  });

  it('cancels (voids) an authorization: canceled, event payment.canceled; no capture afterwards', async () => {
    const payment = await paidPayment(ctx, 5000, 'manual');
    const res = await call('POST', `/v1/payments/${payment.id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'canceled', amount_captured: 0 });
    expect(await eventsOf(payment.id)).toEqual(['payment.requires_capture', 'payment.canceled']);
    expectError(await call('POST', `/v1/payments/${payment.id}/capture`, {}), 409, 'payment_not_capturable');
    const [transaction] = await rows(ctx.db, 'SELECT status FROM test_processor_transactions WHERE payment_id = $1', [payment.id]);
    expect(transaction!.status).toBe('voided');
  });

  it("another account's payment is 404 for capture and cancel", async () => {
    const payment = await paidPayment(ctx, 5000, 'manual');
    const other = await ctx.h.newAccountKey('Other Shop');
    expectError(await merchantCall(ctx.h, other, 'POST', `/v1/payments/${payment.id}/capture`, {}), 404, 'resource_missing', {
      param: 'id',
    });
    expectError(await merchantCall(ctx.h, other, 'POST', `/v1/payments/${payment.id}/cancel`), 404, 'resource_missing', {
      param: 'id',
    });
    expect(await readPayment(ctx, payment.id)).toMatchObject({ status: 'requires_capture' });
  });

  it('voids authorizations older than 7 days automatically, and only those', async () => {
    const old = await paidPayment(ctx, 5000, 'manual');
    ctx.h.clock.advance(3 * DAY_MS);
    const recent = await paidPayment(ctx, 6000, 'manual');
    ctx.h.clock.advance(4 * DAY_MS - 60_000);
    expect(await runJobOnce(ctx.h.tillpoint.deps, 'authorization-auto-void')).toBe(0);
    expect(await readPayment(ctx, old.id)).toMatchObject({ status: 'requires_capture' });

    ctx.h.clock.advance(60_000);
    expect(await runJobOnce(ctx.h.tillpoint.deps, 'authorization-auto-void')).toBe(1);
    expect(await readPayment(ctx, old.id)).toMatchObject({ status: 'canceled' });
    expect(await readPayment(ctx, recent.id)).toMatchObject({ status: 'requires_capture' });
    expect(await eventsOf(old.id)).toEqual(['payment.requires_capture', 'payment.canceled']);
    expectError(await call('POST', `/v1/payments/${old.id}/capture`, {}), 409, 'payment_not_capturable');
  });
});
