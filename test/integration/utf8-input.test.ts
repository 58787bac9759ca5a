import { describe, expect, it } from 'vitest';
import { signUpOwner } from '../support/dashboard';
import { testDatabases } from '../support/databases';
import { bearer, countRows, createSession, expectError, merchantCall, rows, useIntegration } from '../support/integration';
import { dumpBusinessData } from '../support/payments';

/**
 * Request text is UTF-8 or refused: a body whose bytes are not UTF-8 (`C0 AF`, an encoded surrogate
 * `ED A0 80`, a lone `FF`) was decoded to U+FFFD and stored; now every body parser the server
 * registers — JSON (merchant API, checkout page, dashboard, OFREP), CSP reports, Braintree's form —
 * answers `400 parameter_invalid` and nothing is stored. A query is held to percent-encoded UTF-8.
 */
describe.each(testDatabases)('bodies and queries that are not UTF-8 ($name)', (database) => {
  const ctx = useIntegration(database);
  const bytes = (...parts: Array<string | number[] | Buffer>) =>
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
  const post = (url: string, payload: Buffer, type = 'application/json', headers: Record<string, string> = {}) =>
    ctx.h.app.inject({ method: 'POST', url, headers: { 'content-type': type, ...headers }, payload });

  it.each([
    [
      'C0 AF (an overlong "/") in a line item name',
      bytes('{"currency":"usd","line_items":[{"name":"Te', [0xc0, 0xaf], 'a","unit_amount":1500,"quantity":1}]}'),
    ],
    [
      'ED A0 80 (an encoded surrogate) in metadata',
      bytes('{"currency":"usd","line_items":[{"name":"Tea","unit_amount":1500,"quantity":1}],"metadata":{"a":"', [0xed, 0xa0, 0x80], '"}}'),
    ],
    ['a lone FF outside any string', bytes('{"currency":"usd",', [0xff], '"line_items":[]}')],
    ['a cut-off multi-byte character', bytes('{"currency":"usd","line_items":[{"name":"Caf', [0xc3], '","unit_amount":1500,"quantity":1}]}')],
    ['a byte order mark', bytes([0xef, 0xbb, 0xbf], '{"currency":"usd","line_items":[{"name":"Tea","unit_amount":1500,"quantity":1}]}')],
  ])('refuses a session whose body has %s: 400 parameter_invalid, nothing stored', async (_label, payload) => {
    const res = await post('/v1/checkout/sessions', payload, 'application/json', bearer(ctx.key));
    expectError(res, 400, 'parameter_invalid');
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(0);
  });

  it('stores UTF-8 as sent, multi-byte characters included', async () => {
    const payload = bytes('{"currency":"usd","line_items":[{"name":"Caf\u00e9 \u2615 \ud83d\udcb3","unit_amount":1500,"quantity":1}]}');
    const res = await post('/v1/checkout/sessions', payload, 'application/json; charset=utf-8', bearer(ctx.key));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().line_items[0].name).toBe('Caf\u00e9 \u2615 \ud83d\udcb3');
  });

  it("refuses invalid UTF-8 in the checkout page's calls and the dashboard's: nothing changes", async () => {
    const session = await createSession(ctx);
    const before = await dumpBusinessData(ctx.db);
    expectError(
      await post(`/api/checkout/sessions/${session.id}/pay`, bytes('{"payment_method_type":"card","nonce":"x","email":"a', [0xc0, 0xaf], '@example.com"}')),
      400,
      'parameter_invalid',
    );
    const owner = await signUpOwner(ctx.h);
    const settings = await post(`/dashboard/api/accounts/${owner.accountId}/settings`, bytes('{"name":"Shop ', [0xed, 0xa0, 0x80], '"}'), 'application/json', {
      cookie: owner.cookie,
      'x-csrf-token': owner.csrf,
    });
    expectError(settings, 400, 'parameter_invalid');
    expect((await rows(ctx.db, 'SELECT name FROM accounts WHERE id = $1', [owner.accountId]))[0]!.name).not.toMatch(/\ufffd/);
    expect(await countRows(ctx.db, 'payments')).toBe(0);
    const after = await dumpBusinessData(ctx.db);
    expect(JSON.stringify(after)).not.toMatch(/\ufffd/);
    expect(before.checkout_sessions).toEqual(after.checkout_sessions);
  });

  it('refuses invalid UTF-8 and a byte order mark in an OFREP evaluation', async () => {
    const session = await createSession(ctx);
    for (const path of ['', '/card_enabled']) {
      const url = `/ofrep/v1/evaluate/flags${path}`;
      expectError(await post(url, bytes('{"context":{"targetingKey":"', session.id, '","n":"', [0xc0, 0xaf], '"}}')), 400, 'parameter_invalid');
      expectError(await post(url, bytes([0xef, 0xbb, 0xbf], `{"context":{"targetingKey":"${session.id}"}}`)), 400, 'parameter_invalid');
    }
  });

  it('refuses a CSP report that is not UTF-8: nothing stored', async () => {
    const session = await createSession(ctx);
    const report = (blocked: Buffer) =>
      post(
        '/csp-reports',
        bytes(
          `{"csp-report":{"document-uri":"http://checkout.test/c/${session.id}","blocked-uri":"https://evil.example/`,
          blocked,
          '","effective-directive":"script-src"}}',
        ),
        'application/csp-report',
      );
    expectError(await report(bytes([0xed, 0xa0, 0x80])), 400, 'parameter_invalid');
    expect(await countRows(ctx.db, 'csp_reports')).toBe(0);
    expect((await report(bytes('x'))).statusCode).toBe(204);
  });

  it('refuses a Braintree notification form that is not UTF-8, raw or percent-encoded', async () => {
    const url = `/webhooks/braintree/${ctx.accountId}?mode=test`;
    const form = 'application/x-www-form-urlencoded';
    expectError(await post(url, bytes('bt_signature=a&bt_payload=', [0xc0, 0xaf]), form), 400, 'parameter_invalid');
    expectError(await post(url, bytes('bt_signature=a&bt_payload=%C0%AF'), form), 400, 'parameter_invalid', { param: 'bt_payload' });
  });

  it.each([
    ['%ff', 'limit'],
    ['%C0%AF', 'starting_after'],
    ['%ED%A0%80', 'checkout_session'],
    ['50%', 'checkout_session'],
  ])('refuses a query value %s that is not percent-encoded UTF-8, naming it', async (value, key) => {
    expectError(await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments?${key}=${value}`), 400, 'parameter_invalid', { param: key });
    const owner = await signUpOwner(ctx.h);
    const search = await ctx.h.app.inject({
      method: 'GET',
      url: `/dashboard/api/accounts/${owner.accountId}/test/payments?email=${value}`,
      headers: { cookie: owner.cookie },
    });
    expectError(search, 400, 'parameter_invalid', { param: 'email' });
  });
});
