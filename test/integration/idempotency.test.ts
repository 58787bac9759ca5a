import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { bearer, countRows, expectError, sampleSession, useIntegration } from '../support/integration';
import { liveKey } from '../support/keys';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDatabases)('Idempotency-Key on merchant POSTs ($name)', (database) => {
  const ctx = useIntegration(database);

  const post = (key: string, url: string, payload: unknown, idempotencyKey?: string) =>
    ctx.h.app.inject({
      method: 'POST',
      url,
      headers: { ...bearer(key), ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) },
      payload: payload as object,
    });

  it('50 parallel identical POSTs with one key make one session; every answer is the first, byte for byte, or in_use', async () => {
    // Live mode allows 100 requests a second, so the rate limit stays out of this test.
    const key = await liveKey(ctx);
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(key, '/v1/checkout/sessions', sampleSession, 'order-1042')));
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(1);
    const created = answers.filter((res) => res.statusCode === 200);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const first = created[0]!;
    for (const res of answers) {
      if (res.statusCode === 200) {
        expect(res.body).toBe(first.body);
        expect(res.headers['content-type']).toBe(first.headers['content-type']);
      } else {
        expectError(res, 409, 'idempotency_key_in_use');
      }
    }
    // Once the first has finished, a retry always gets its answer.
    const retry = await post(key, '/v1/checkout/sessions', sampleSession, 'order-1042');
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(1);
  });

  it('replays an error answer too, with the first request id, and does not run the request again', async () => {
    const bad = { ...sampleSession, currency: 'xyz' };
    const first = await post(ctx.key, '/v1/checkout/sessions', bad, 'k-err');
    const firstError = expectError(first, 400, 'currency_not_supported', { param: 'currency' });
    const again = await post(ctx.key, '/v1/checkout/sessions', bad, 'k-err');
    expect(again.statusCode).toBe(400);
    expect(again.body).toBe(first.body);
    expect(again.headers['request-id']).toBe(firstError.request_id);
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(0);
  });

  it('key order in the JSON does not matter; other parameters with the same key answer 409 idempotency_key_reused', async () => {
    const first = await post(ctx.key, '/v1/checkout/sessions', sampleSession, 'k1');
    expect(first.statusCode).toBe(200);
    const reordered = await post(ctx.key, '/v1/checkout/sessions', { line_items: sampleSession.line_items, currency: 'usd' }, 'k1');
    expect(reordered.body).toBe(first.body);

    const otherBody = await post(ctx.key, '/v1/checkout/sessions', { ...sampleSession, currency: 'eur' }, 'k1');
    expectError(otherBody, 409, 'idempotency_key_reused');
    const otherPath = await post(ctx.key, `/v1/checkout/sessions/${first.json().id}/expire`, sampleSession, 'k1');
    expectError(otherPath, 409, 'idempotency_key_reused');
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(1);
    expect((await ctx.h.app.inject({ method: 'GET', url: `/v1/checkout/sessions/${first.json().id}`, headers: bearer(ctx.key) })).json().status).toBe('open');
  });

  it('keys belong to one account and mode: the same key elsewhere is a different request', async () => {
    const mine = await post(ctx.key, '/v1/checkout/sessions', sampleSession, 'shared-key');
    const live = await post(await liveKey(ctx), '/v1/checkout/sessions', sampleSession, 'shared-key');
    expect(mine.statusCode).toBe(200);
    expect(live.statusCode).toBe(200);
    expect(live.json().id).not.toBe(mine.json().id);
    expect(live.json().livemode).toBe(true);
  });

  it('frees the key after 24 hours, and the purge job deletes the record', async () => {
    const first = await post(ctx.key, '/v1/checkout/sessions', sampleSession, 'daily');
    ctx.h.clock.advance(DAY - 1000);
    expect((await post(ctx.key, '/v1/checkout/sessions', sampleSession, 'daily')).body).toBe(first.body);
    ctx.h.clock.advance(1000);
    const fresh = await post(ctx.key, '/v1/checkout/sessions', { ...sampleSession, currency: 'eur' }, 'daily');
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().id).not.toBe(first.json().id);
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(2);

    await post(ctx.key, '/v1/checkout/sessions', sampleSession, 'other');
    ctx.h.clock.advance(DAY);
    const { purgeExpiredApiRecords } = await import('../../src/domain/api-guards/use-cases/purge-expired-api-records');
    await purgeExpiredApiRecords(ctx.h.tillpoint.deps);
    expect(await countRows(ctx.db, 'idempotency_records')).toBe(0);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['a control character', 'abc\tdef'],
  ])('refuses an Idempotency-Key that is %s with 400 parameter_invalid', async (_label, header) => {
    const res = await post(ctx.key, '/v1/checkout/sessions', sampleSession, header);
    expectError(res, 400, 'parameter_invalid', { param: 'Idempotency-Key' });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(0);
  });

  it('without the header, two identical POSTs make two sessions', async () => {
    await post(ctx.key, '/v1/checkout/sessions', sampleSession);
    await post(ctx.key, '/v1/checkout/sessions', sampleSession);
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(2);
  });
});
