import { describe, expect, it } from 'vitest';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { expectError, merchantCall, rows, useIntegration } from '../support/integration';
import { DAY_MS, dumpBusinessData, paidPayment, readPayment } from '../support/payments';

describe.each(testDatabases)('refunds ($name)', (database) => {
  // Many calls in one instant of the test clock: lift the per-second limit, which is not under test here.
  const ctx = useIntegration(database, { rateLimitPerSecond: { test: 10_000 } });
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);

  it('refunds in several parts until nothing remains; each refund is an object with an event', async () => {
    const payment = await paidPayment(ctx, 5000);
    const first = await call('POST', '/v1/refunds', { payment: payment.id, amount: 1500, reason: 'requested_by_customer' });
    expect(first.statusCode, first.body).toBe(200);
    const refund = first.json();
    const [key] = await rows(ctx.db, 'SELECT id FROM api_keys');
    expect(refund).toMatchObject({
      object: 'refund',
      payment: payment.id,
      amount: 1500,
      currency: 'usd',
      reason: 'requested_by_customer',
      status: 'succeeded',
      failure_reason: null,
      created_by: key!.id,
    });
    expect(refund.id).toMatch(/^re_/);
    expect(await readPayment(ctx, payment.id)).toMatchObject({ status: 'succeeded', amount_refunded: 1500 });

    // No amount: everything that remains.
    const rest = await call('POST', '/v1/refunds', { payment: payment.id });
    expect(rest.json()).toMatchObject({ status: 'succeeded', amount: 3500, reason: null });
    expect(await readPayment(ctx, payment.id)).toMatchObject({ amount_captured: 5000, amount_refunded: 5000 });

    const before = await dumpBusinessData(ctx.db);
    expectError(await call('POST', '/v1/refunds', { payment: payment.id, amount: 1 }), 409, 'refund_exceeds_available', {
      param: 'amount',
    });
    expectError(await call('POST', '/v1/refunds', { payment: payment.id }), 409, 'refund_exceeds_available', { param: 'amount' });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);

    const events = await rows(ctx.db, `SELECT type, object_id, data FROM events WHERE type LIKE 'refund.%' ORDER BY created_at, id`);
    expect(events.map((e) => e.type)).toEqual(['refund.succeeded', 'refund.succeeded']);
    expect(events.map((e) => e.object_id).sort()).toEqual([refund.id, rest.json().id].sort());

    const read = await call('GET', `/v1/refunds/${refund.id}`);
    expect(read.json()).toEqual(refund);
  });

  it('refuses a refund of a payment that is not succeeded, of an unknown payment and of bad amounts, changing nothing', async () => {
    const authorized = await paidPayment(ctx, 5000, 'manual');
    const paid = await paidPayment(ctx, 5000);
    const before = await dumpBusinessData(ctx.db);
    expectError(await call('POST', '/v1/refunds', { payment: authorized.id }), 409, 'payment_not_refundable');
    expectError(await call('POST', '/v1/refunds', { payment: 'pay_nosuchpayment' }), 404, 'resource_missing', { param: 'payment' });
    expectError(await call('POST', '/v1/refunds', { payment: paid.id, amount: 5001 }), 409, 'refund_exceeds_available', {
      param: 'amount',
    });
    expectError(await call('POST', '/v1/refunds', { payment: paid.id, amount: 0 }), 400, 'parameter_invalid', { param: 'amount' });
    expectError(await call('POST', '/v1/refunds', { payment: paid.id, reason: 'changed_mind' }), 400, 'parameter_invalid', {
      param: 'reason',
    });
    expectError(await call('POST', '/v1/refunds', { amount: 100 }), 400, 'parameter_missing', { param: 'payment' });
    const other = await ctx.h.newAccountKey('Other Shop');
    expectError(await merchantCall(ctx.h, other, 'POST', '/v1/refunds', { payment: paid.id }), 404, 'resource_missing', {
      param: 'payment',
    });
    expect(await dumpBusinessData(ctx.db)).toEqual({ ...before, accounts: expect.any(Array) });
    expect(await rows(ctx.db, 'SELECT * FROM refunds')).toEqual([]);
  });

  it('refuses refunds after the 180-day window', async () => {
    const payment = await paidPayment(ctx, 5000);
    ctx.h.clock.advance(180 * DAY_MS - 2000);
    expect((await call('POST', '/v1/refunds', { payment: payment.id, amount: 100 })).statusCode).toBe(200);
    ctx.h.clock.advance(2000);
    expectError(await call('POST', '/v1/refunds', { payment: payment.id, amount: 100 }), 409, 'payment_not_refundable');
    expect(await readPayment(ctx, payment.id)).toMatchObject({ amount_refunded: 100 });
  });

  it('50 parallel refunds that together exceed the capture never over-refund', async () => {
    const payment = await paidPayment(ctx, 10_000);
    // 50 × 300 = 15,000 asked for, 10,000 captured: at most 33 can succeed.
    const refund = () => call('POST', '/v1/refunds', { payment: payment.id, amount: 300 });
    const answers = await Promise.all(Array.from({ length: 50 }, refund));
    // On a loaded machine a refund queued behind the others past the lock timeout is answered 503
    // database_unavailable (lock-waits.test.ts holds that bound). One cut after its intent was
    // recorded stays pending until operation reconciliation settles it, as after a crash; then the
    // merchant's client retries each, one at a time.
    const unavailable = answers.filter((a) => a.statusCode === 503);
    for (const answer of unavailable) expectError(answer, 503, 'database_unavailable');
    if (unavailable.length > 0) {
      ctx.h.clock.advance(61_000);
      await runJobOnce(ctx.h.tillpoint.deps, 'operation-reconciliation');
      for (const _ of unavailable) answers.push(await refund());
    }
    const succeeded = answers.filter((a) => a.statusCode === 200);
    for (const refused of answers.filter((a) => a.statusCode !== 200 && a.statusCode !== 503)) {
      expectError(refused, 409, 'refund_exceeds_available', { param: 'amount' });
    }
    expect(succeeded.length).toBeLessThanOrEqual(33);
    const stored = await rows(ctx.db, `SELECT status, amount FROM refunds`);
    const total = stored.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + Number(r.amount), 0);
    // Every refund final, and all that could be refunded was: 33 × 300.
    expect(total).toBe(9900);
    expect(stored.filter((r) => r.status !== 'succeeded' && r.status !== 'failed')).toEqual([]);
    if (unavailable.length === 0) expect(stored.filter((r) => r.status !== 'succeeded')).toEqual([]);
    expect(await readPayment(ctx, payment.id)).toMatchObject({ amount_captured: 10_000, amount_refunded: 9900 });
    const [transaction] = await rows(ctx.db, 'SELECT amount_refunded FROM test_processor_transactions WHERE payment_id = $1', [payment.id]);
    expect(Number(transaction!.amount_refunded)).toBe(9900);
  });

  it('lists refunds newest first, by payment, with cursor pagination', async () => {
    const a = await paidPayment(ctx, 5000);
    const b = await paidPayment(ctx, 5000);
    const made: string[] = [];
    for (const payment of [a, b, a]) {
      const res = await call('POST', '/v1/refunds', { payment: payment.id, amount: 100 });
      made.push(res.json().id);
      ctx.h.clock.advance(1000);
    }
    const all = await call('GET', '/v1/refunds');
    expect(all.json()).toMatchObject({ object: 'list', url: '/v1/refunds', has_more: false });
    expect(all.json().data.map((r: { id: string }) => r.id)).toEqual([...made].reverse());

    const ofA = await call('GET', `/v1/refunds?payment=${a.id}`);
    expect(ofA.json().data.map((r: { id: string }) => r.id)).toEqual([made[2], made[0]]);

    const first = await call('GET', '/v1/refunds?limit=2');
    expect(first.json()).toMatchObject({ has_more: true });
    expect(first.json().data.map((r: { id: string }) => r.id)).toEqual([made[2], made[1]]);
    const second = await call('GET', `/v1/refunds?limit=2&starting_after=${made[1]}`);
    expect(second.json()).toMatchObject({ has_more: false });
    expect(second.json().data.map((r: { id: string }) => r.id)).toEqual([made[0]]);

    const other = await ctx.h.newAccountKey('Other Shop');
    expect((await merchantCall(ctx.h, other, 'GET', '/v1/refunds')).json().data).toEqual([]);
    expectError(await merchantCall(ctx.h, other, 'GET', `/v1/refunds/${made[0]}`), 404, 'resource_missing', { param: 'id' });
  });
});

describe.each(testDatabases)('refunds before settlement ($name)', (database) => {
  // As with TEST_PROCESSOR_SETTLEMENT_DELAY_SECONDS=3600: captures settle an hour after submission.
  const ctx = useIntegration(database, { testSettlementDelaySeconds: 3600, rateLimitPerSecond: { test: 10_000 } });
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);

  it('a partial refund of an unsettled payment is refused with 409 payment_not_settled; no money moves', async () => {
    const payment = await paidPayment(ctx, 5000);
    const res = await call('POST', '/v1/refunds', { payment: payment.id, amount: 1000 });
    expectError(res, 409, 'payment_not_settled');
    expect(await readPayment(ctx, payment.id)).toMatchObject({ status: 'succeeded', amount_refunded: 0 });
    // The reservation is kept as a failed refund, so the attempt shows in the list and the event log.
    const [refund] = await rows(ctx.db, 'SELECT * FROM refunds');
    expect(refund).toMatchObject({ status: 'failed', failure_reason: 'payment_not_settled' });
    expect((await rows(ctx.db, `SELECT type FROM events WHERE object_id = $1`, [refund!.id])).map((e) => e.type)).toEqual(['refund.failed']);
    const [transaction] = await rows(ctx.db, 'SELECT * FROM test_processor_transactions WHERE payment_id = $1', [payment.id]);
    expect(transaction).toMatchObject({ status: 'submitted_for_settlement' });
    expect(Number(transaction!.amount_refunded)).toBe(0);

    // Once settled, the same partial refund goes through.
    ctx.h.clock.advance(3600_000);
    const later = await call('POST', '/v1/refunds', { payment: payment.id, amount: 1000 });
    expect(later.statusCode, later.body).toBe(200);
    expect(await readPayment(ctx, payment.id)).toMatchObject({ amount_refunded: 1000 });
  });

  it('a full refund of an unsettled payment voids it: the refund succeeds and amount_refunded = amount_captured', async () => {
    const payment = await paidPayment(ctx, 5000);
    const res = await call('POST', '/v1/refunds', { payment: payment.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'succeeded', amount: 5000 });
    expect(await readPayment(ctx, payment.id)).toMatchObject({ status: 'succeeded', amount_captured: 5000, amount_refunded: 5000 });
    const [transaction] = await rows(ctx.db, 'SELECT * FROM test_processor_transactions WHERE payment_id = $1', [payment.id]);
    expect(transaction!.status).toBe('voided');
    // Nothing remains, and the voided transaction takes no further refund.
    ctx.h.clock.advance(3600_000);
    expectError(await call('POST', '/v1/refunds', { payment: payment.id, amount: 1 }), 409, 'refund_exceeds_available', {
      param: 'amount',
    });
  });

  it('a partial capture that has not settled can be fully refunded by a void too', async () => {
    const payment = await paidPayment(ctx, 5000, 'manual');
    expect((await call('POST', `/v1/payments/${payment.id}/capture`, { amount: 2000 })).statusCode).toBe(200);
    expectError(await call('POST', '/v1/refunds', { payment: payment.id, amount: 1999 }), 409, 'payment_not_settled');
    const full = await call('POST', '/v1/refunds', { payment: payment.id, amount: 2000 });
    expect(full.json()).toMatchObject({ status: 'succeeded', amount: 2000 });
    expect(await readPayment(ctx, payment.id)).toMatchObject({ amount_captured: 2000, amount_refunded: 2000 });
  });
});
