import { describe, expect, it } from 'vitest';
import { toTillpointError } from '../../src/http/errors';
import { dashboardCall, signUpOwner } from '../support/dashboard';
import { testDatabases } from '../support/databases';
import { bearer, countRows, createSession, expectError, merchantCall, payCall, sampleSession, tokenize, useIntegration } from '../support/integration';
import { dumpBusinessData, paidPayment, readPayment } from '../support/payments';

/**
 * Characters PostgreSQL cannot store, and bodies sent to endpoints that take none, are refused with
 * a 400 naming the parameter, and nothing happens (docs/api.md, "What a request may carry").
 */
describe.each(testDatabases)('refused input ($name)', (database) => {
  const ctx = useIntegration(database);
  const raw = (method: 'POST' | 'GET', url: string, payload?: string, type = 'application/json') =>
    ctx.h.app.inject({ method, url, headers: { ...bearer(ctx.key), ...(payload === undefined ? {} : { 'content-type': type }) }, payload });

  it.each([
    ['a line item name', { line_items: [{ name: 'Mug\u0000', unit_amount: 1500, quantity: 1 }] }, 'line_items[0][name]'],
    ['a metadata value', { metadata: { order: '42\u0000' } }, 'metadata[order]'],
    ['a metadata key', { metadata: { 'ord\u0000er': '42' } }, 'metadata[ord\\u0000er]'],
    ['client_reference_id', { client_reference_id: '\u0000' }, 'client_reference_id'],
    ['a lone surrogate in a name', { line_items: [{ name: 'Mug \ud83d', unit_amount: 1500, quantity: 1 }] }, 'line_items[0][name]'],
  ])('refuses a session with NUL or a lone surrogate in %s: 400 naming it, nothing stored', async (_label, overrides, param) => {
    const res = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', { ...sampleSession, ...overrides });
    expectError(res, 400, 'parameter_invalid', { param });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(0);
  });

  it('stores every other character as sent: emoji, accents, right-to-left text', async () => {
    const name = 'Café ☕ 💳 עברית';
    const session = await createSession(ctx, { line_items: [{ name, unit_amount: 1500, quantity: 1 }], metadata: { '🔑': '値' } });
    expect(session.line_items[0].name).toBe(name);
    expect(session.metadata).toEqual({ '🔑': '値' });
  });

  it("refuses NUL in the shopper's email on the pay endpoint; the session can still be paid", async () => {
    const session = await createSession(ctx);
    const nonce = await tokenize(ctx.h, session.id);
    expectError(await payCall(ctx.h, session.id, nonce, 'shopper\u0000@example.com'), 400, 'parameter_invalid', { param: 'email' });
    expect(await countRows(ctx.db, 'payments')).toBe(0);
    expect((await payCall(ctx.h, session.id, nonce)).statusCode).toBe(200);
  });

  it('refuses NUL in path parameters: an object id, a payment link slug, a checkout page', async () => {
    expectError(await raw('GET', '/v1/payments/pay_%00'), 400, 'parameter_invalid', { param: 'id' });
    expectError(await ctx.h.app.inject({ method: 'GET', url: '/l/pay_%00' }), 400, 'parameter_invalid', { param: 'slug' });
    expectError(await ctx.h.app.inject({ method: 'GET', url: '/c/cs_%00' }), 400, 'parameter_invalid', { param: 'id' });
    expectError(await raw('GET', '/v1/payments/%ff'), 400, 'parameter_invalid');
    expectError(await raw('GET', `/v1/payments/${'x'.repeat(1500)}`), 400, 'parameter_invalid');
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(0);
  });

  it("refuses NUL in the dashboard's payment search", async () => {
    const owner = await signUpOwner(ctx.h);
    const search = await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/test/payments?email=pay_%00`);
    expectError(search, 400, 'parameter_invalid', { param: 'email' });
    const csv = await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/test/payments/export.csv?email=a%00`);
    expectError(csv, 400, 'parameter_invalid', { param: 'email' });
  });

  it.each([
    ['an unknown field', '{"zz_invalid":1}', 'application/json', 'parameter_unknown', 'zz_invalid'],
    ['null', 'null', 'application/json', 'parameter_invalid', undefined],
    ['a string', '"expire"', 'application/json', 'parameter_invalid', undefined],
    ['an array', '[]', 'application/json', 'parameter_invalid', undefined],
    ['6,000-deep nesting', `${'['.repeat(6000)}${']'.repeat(6000)}`, 'application/json', 'parameter_invalid', undefined],
    ['text/plain garbage', 'expire it now', 'text/plain', 'parameter_invalid', undefined],
    ['invalid JSON', '{"a":', 'application/json', 'parameter_invalid', undefined],
  ])('refuses expire and cancel with %s as the body: the session stays open, the payment authorized', async (_label, payload, type, code, param) => {
    const session = await createSession(ctx);
    const payment = await paidPayment(ctx, 5000, 'manual');
    const events = await countRows(ctx.db, 'events');
    expectError(await raw('POST', `/v1/checkout/sessions/${session.id}/expire`, payload, type), 400, code, param ? { param } : {});
    expectError(await raw('POST', `/v1/payments/${payment.id}/cancel`, payload, type), 400, code, param ? { param } : {});
    expect((await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`)).json().status).toBe('open');
    expect((await readPayment(ctx, payment.id)).status).toBe('requires_capture');
    expect(await countRows(ctx.db, 'events')).toBe(events);
  });

  it('takes no body, an empty one or {} on an endpoint without a body', async () => {
    for (const [payload, type] of [
      [undefined, undefined],
      ['', 'application/json'],
      ['{}', 'application/json'],
      ['', 'text/plain'],
    ] as const) {
      const session = await createSession(ctx);
      const res = await ctx.h.app.inject({
        method: 'POST',
        url: `/v1/checkout/sessions/${session.id}/expire`,
        headers: { ...bearer(ctx.key), ...(type ? { 'content-type': type } : {}) },
        ...(payload === undefined ? {} : { payload }),
      });
      expect(res.statusCode, `${JSON.stringify(payload)} as ${type}: ${res.body}`).toBe(200);
      expect(res.json().status).toBe('expired');
    }
  });

  it('refuses capture with a null body: nothing is captured', async () => {
    const payment = await paidPayment(ctx, 5000, 'manual');
    expectError(await raw('POST', `/v1/payments/${payment.id}/capture`, 'null'), 400, 'parameter_invalid');
    const after = await readPayment(ctx, payment.id);
    expect(after.status).toBe('requires_capture');
    expect(after.amount_captured).toBe(0);
  });

  it('refuses a query parameter a route does not take, by name', async () => {
    const session = await createSession(ctx);
    expectError(await raw('GET', `/v1/checkout/sessions/${session.id}?expand=payment`), 400, 'parameter_unknown', { param: 'expand' });
  });

  it('refuses a null body on the dashboard settings: no change, no audit line', async () => {
    const owner = await signUpOwner(ctx.h);
    const before = await dumpBusinessData(ctx.db);
    const res = await ctx.h.app.inject({
      method: 'POST',
      url: `/dashboard/api/accounts/${owner.accountId}/settings`,
      headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf, 'content-type': 'application/json' },
      payload: 'null',
    });
    expectError(res, 400, 'parameter_invalid');
    const signOut = await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/sign-out', { everywhere: true });
    expectError(signOut, 400, 'parameter_unknown', { param: 'everywhere' });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);
  });

  it('refuses a CSP report holding an escaped NUL about a real session: nothing stored', async () => {
    const session = await createSession(ctx);
    // `\u0000` as JSON writes it: the report parses to a string holding NUL.
    const payload = `{"csp-report":{"document-uri":"http://checkout.test/c/${session.id}","blocked-uri":"https://evil.example/\\u0000","effective-directive":"script-src"}}`;
    const res = await ctx.h.app.inject({ method: 'POST', url: '/csp-reports', headers: { 'content-type': 'application/csp-report' }, payload });
    expectError(res, 400, 'parameter_invalid');
    expect(await countRows(ctx.db, 'csp_reports')).toBe(0);
    const clean = await ctx.h.app.inject({
      method: 'POST',
      url: '/csp-reports',
      headers: { 'content-type': 'application/csp-report' },
      payload: payload.replace('\\u0000', ''),
    });
    expect(clean.statusCode, clean.body).toBe(204);
    expect(await countRows(ctx.db, 'csp_reports')).toBe(1);
  });

  it("maps the database's own refusal of a NUL to 400, should one ever get past validation", async () => {
    const refusal = await ctx.db.query('SELECT $1::text AS t', ['a\u0000b']).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal, 'the database refuses NUL in text').not.toBeNull();
    const mapped = toTillpointError(refusal);
    expect(mapped.code).toBe('parameter_invalid');
    expect(mapped.status).toBe(400);
    const jsonRefusal = await ctx.db.query(`SELECT ($1::jsonb ->> 'a') AS t`, ['{"a":"\\u0000"}']).then(
      () => null,
      (error: unknown) => error,
    );
    expect(jsonRefusal, 'the database refuses \\u0000 in jsonb text').not.toBeNull();
    expect(toTillpointError(jsonRefusal).code).toBe('parameter_invalid');
  });
});
