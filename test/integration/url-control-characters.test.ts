import { describe, expect, it } from 'vitest';
import { dashboardCall, signUpOwner } from '../support/dashboard';
import { testDatabases } from '../support/databases';
import { countRows, createSession, expectError, merchantCall, rows, sampleSession, useIntegration } from '../support/integration';

/**
 * URL parsers drop CR, LF and TAB without a word, so a URL holding them passed as absolute and was
 * stored, answered back (`redirect_url`) and sent in webhook events as sent. Every URL a request
 * gives is refused instead, naming the field (docs/api.md, "What a request may carry").
 */
describe.each(testDatabases)('control characters in URLs ($name)', (database) => {
  const ctx = useIntegration(database);

  const controls = [
    ['CR LF', 'https://shop.example/thanks\r\nSet-Cookie: a=b'],
    ['a TAB', 'https://shop.example/th\tanks'],
    ['a leading LF', '\nhttps://shop.example/thanks'],
    ['DEL', 'https://shop.example/thanks\u007f'],
    ['a C1 control', 'https://shop.example/thanks\u0085'],
  ] as const;

  it.each(controls)('refuses %s in success_url, cancel_url and return_url: 400 naming the field, no session', async (_label, url) => {
    for (const field of ['success_url', 'cancel_url'] as const) {
      const res = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', { ...sampleSession, [field]: url });
      const error = expectError(res, 400, 'parameter_invalid', { param: field });
      expect(error.message).toMatch(/control characters/);
    }
    const embedded = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', { ...sampleSession, ui_mode: 'embedded', return_url: url });
    expectError(embedded, 400, 'parameter_invalid', { param: 'return_url' });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(0);
  });

  it.each(controls)("refuses %s in a webhook endpoint's url, by the API and the dashboard: no endpoint", async (_label, url) => {
    const api = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/webhook_endpoints', { url, enabled_events: ['payment.succeeded'] });
    expectError(api, 400, 'parameter_invalid', { param: 'url' });
    const owner = await signUpOwner(ctx.h);
    const dashboard = await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/test/webhook-endpoints`, {
      url,
      enabled_events: ['payment.succeeded'],
    });
    expectError(dashboard, 400, 'parameter_invalid', { param: 'url' });
    expect(await countRows(ctx.db, 'webhook_endpoints')).toBe(0);
  });

  it("refuses a control character in an update of a webhook endpoint's url: the url stays", async () => {
    const created = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/webhook_endpoints', {
      url: 'https://shop.example/hooks',
      enabled_events: ['payment.succeeded'],
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id;
    expectError(
      await merchantCall(ctx.h, ctx.key, 'POST', `/v1/webhook_endpoints/${id}`, { url: 'https://shop.example/ho\r\noks' }),
      400,
      'parameter_invalid',
      { param: 'url' },
    );
    expect((await rows(ctx.db, 'SELECT url FROM webhook_endpoints WHERE id = $1', [id]))[0]!.url).toBe('https://shop.example/hooks');
  });

  it("refuses a control character in the dashboard's logo URL and embed origins: the settings stay", async () => {
    const owner = await signUpOwner(ctx.h);
    const settings = `/dashboard/api/accounts/${owner.accountId}/settings`;
    expectError(await dashboardCall(ctx.h, owner, 'POST', settings, { logo_url: 'https://cdn.example/logo.png\r\n' }), 400, 'parameter_invalid', {
      param: 'logo_url',
    });
    expectError(await dashboardCall(ctx.h, owner, 'POST', settings, { embed_allowed_origins: ['https://shop.example\t'] }), 400, 'parameter_invalid', {
      param: 'embed_allowed_origins[0]',
    });
    const account = (await rows(ctx.db, 'SELECT * FROM accounts WHERE id = $1', [owner.accountId]))[0]!;
    expect(JSON.stringify(account)).not.toMatch(/cdn\.example|shop\.example\\t/);
  });

  it('still takes a URL with percent-encoded characters and the session id placeholder', async () => {
    const session = await createSession(ctx, { success_url: 'https://shop.example/thanks%0D%0A?s={CHECKOUT_SESSION_ID}&q=caf%C3%A9' });
    expect(session.success_url).toBe('https://shop.example/thanks%0D%0A?s={CHECKOUT_SESSION_ID}&q=caf%C3%A9');
  });
});
