import { describe, expect, it } from 'vitest';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { testDatabases } from '../support/databases';
import { countRows, createSession, createSessionOf, expectError, merchantCall, payCall, rows, tokenize, useIntegration } from '../support/integration';

describe.each(testDatabases)('merchant API authentication ($name)', (database) => {
  const ctx = useIntegration(database);
  const ctxKey = () => ctx.key;

  it('refuses a call without Authorization with 401 api_key_missing', async () => {
    const res = await ctx.h.app.inject({ method: 'GET', url: '/v1/checkout/sessions/cs_whatever' });
    expectError(res, 401, 'api_key_missing');
    const post = await ctx.h.app.inject({ method: 'POST', url: '/v1/checkout/sessions', payload: {} });
    expectError(post, 401, 'api_key_missing');
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(0);
  });

  it.each([
    ['a bare word', 'Bearer nope'],
    ['a non-Bearer scheme', `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['a well-formed but unknown secret key', `Bearer sk_test_${'A'.repeat(32)}`],
    ['an unknown live key', `Bearer sk_live_${'b1'.repeat(16)}`],
    ['a key with trailing garbage', 'Bearer sk_test_abc def'],
  ])('refuses %s with 401 api_key_invalid', async (_label, authorization) => {
    const res = await ctx.h.app.inject({
      method: 'GET',
      url: '/v1/checkout/sessions/cs_whatever',
      headers: { authorization },
    });
    expectError(res, 401, 'api_key_invalid');
  });

  it('takes the key as the user name of HTTP Basic auth, as curl -u sk_test_…: sends it', async () => {
    const created = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', {
      currency: 'usd',
      line_items: [{ name: 'Tea', unit_amount: 1200, quantity: 1 }],
    });
    expect(created.statusCode, created.body).toBe(200);
    for (const credentials of [`${ctx.key}:`, `${ctx.key}:ignored-password`]) {
      const res = await ctx.h.app.inject({
        method: 'GET',
        url: `/v1/checkout/sessions/${created.json().id}`,
        headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().id).toBe(created.json().id);
    }
    const post = await ctx.h.app.inject({
      method: 'POST',
      url: '/v1/checkout/sessions',
      headers: { authorization: `basic ${Buffer.from(`${ctx.key}:`).toString('base64')}` },
      payload: { currency: 'usd', line_items: [{ name: 'Tea', unit_amount: 1200, quantity: 1 }] },
    });
    expect(post.statusCode, post.body).toBe(200);
  });

  it.each([
    ['the key as the password', () => `Basic ${Buffer.from(`:${ctxKey()}`).toString('base64')}`],
    ['Basic without a colon', () => `Basic ${Buffer.from(ctxKey()).toString('base64')}`],
    ['Basic that is not base64', () => 'Basic %%%'],
  ])('refuses %s with 401 api_key_invalid', async (_label, authorization) => {
    const res = await ctx.h.app.inject({ method: 'GET', url: '/v1/checkout/sessions/cs_x', headers: { authorization: authorization() } });
    expectError(res, 401, 'api_key_invalid');
  });

  it('names Bearer when the scheme is neither Bearer nor Basic', async () => {
    const res = await ctx.h.app.inject({ method: 'GET', url: '/v1/checkout/sessions/cs_x', headers: { authorization: `Token ${ctx.key}` } });
    const error = expectError(res, 401, 'api_key_invalid');
    expect(error.message).toContain('Authorization: Bearer sk_');
  });

  it('refuses a real key with one character changed', async () => {
    const last = ctx.key.at(-1) === 'a' ? 'b' : 'a';
    const res = await merchantCall(ctx.h, ctx.key.slice(0, -1) + last, 'GET', '/v1/checkout/sessions/cs_x');
    expectError(res, 401, 'api_key_invalid');
  });

  it("answers another account's session exactly as a missing one: 404 resource_missing", async () => {
    const mine = await createSession(ctx);
    const other = await createAccount(ctx.h.tillpoint.deps, { name: 'Other Shop' });

    const foreign = await merchantCall(ctx.h, other.testSecretKey, 'GET', `/v1/checkout/sessions/${mine.id}`);
    const foreignError = expectError(foreign, 404, 'resource_missing', { param: 'id' });
    const missingId = `cs_${'Z'.repeat(24)}`;
    const missing = await merchantCall(ctx.h, other.testSecretKey, 'GET', `/v1/checkout/sessions/${missingId}`);
    const missingError = expectError(missing, 404, 'resource_missing', { param: 'id' });
    // Same answer, apart from the id named in the message and the request id.
    expect(foreignError.message.replace(mine.id, '<id>')).toBe(missingError.message.replace(missingId, '<id>'));

    // Expiring it from the other account is refused the same way and changes nothing.
    const expire = await merchantCall(ctx.h, other.testSecretKey, 'POST', `/v1/checkout/sessions/${mine.id}/expire`);
    expectError(expire, 404, 'resource_missing', { param: 'id' });
    const own = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${mine.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().status).toBe('open');
    expect(await countRows(ctx.db, 'events')).toBe(0);
  });

  it("answers another account's payment as a missing one", async () => {
    const session = await createSessionOf(ctx, 1000);
    const paid = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
    expect(paid.statusCode, paid.body).toBe(200);
    const [payment] = await rows(ctx.db, 'SELECT id FROM payments');
    const other = await createAccount(ctx.h.tillpoint.deps, { name: 'Other Shop' });

    expect((await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/${payment!.id}`)).statusCode).toBe(200);
    const foreign = await merchantCall(ctx.h, other.testSecretKey, 'GET', `/v1/payments/${payment!.id}`);
    expectError(foreign, 404, 'resource_missing', { param: 'id' });
    const missing = await merchantCall(ctx.h, other.testSecretKey, 'GET', `/v1/payments/pay_${'Q'.repeat(24)}`);
    expectError(missing, 404, 'resource_missing', { param: 'id' });
  });

  it('stores keys hashed: no column of api_keys holds the secret', async () => {
    const created = await createAccount(ctx.h.tillpoint.deps, { name: 'Hashed Shop' });
    expect(created.testSecretKey).toMatch(/^sk_test_[0-9A-Za-z]{24,}$/);
    const keyRows = await rows(ctx.db, 'SELECT * FROM api_keys WHERE account_id = $1', [created.account.id]);
    expect(keyRows).toHaveLength(1);
    for (const value of Object.values(keyRows[0]!)) {
      expect(String(value)).not.toBe(created.testSecretKey);
      expect(String(value)).not.toContain(created.testSecretKey.slice('sk_test_'.length));
    }
    // …and the key still works, so the hash is what authenticates it.
    const res = await merchantCall(ctx.h, created.testSecretKey, 'GET', '/v1/checkout/sessions/cs_nothing');
    expectError(res, 404, 'resource_missing', { param: 'id' });
  });
});

describe.each(testDatabases)('health and unknown routes ($name)', (database) => {
  const ctx = useIntegration(database);

  it('GET /healthz answers 200', async () => {
    const res = await ctx.h.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('an unknown route answers the 404 resource_missing envelope', async () => {
    const res = await ctx.h.app.inject({ method: 'GET', url: '/no/such/route?x=1' });
    const error = expectError(res, 404, 'resource_missing');
    expect(error.message).toContain('/no/such/route');
    const post = await ctx.h.app.inject({ method: 'POST', url: '/v2/checkout/sessions', payload: { a: 1 } });
    expectError(post, 404, 'resource_missing');
  });
});
