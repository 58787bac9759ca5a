import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { dashboardCall, signUpOwner } from '../support/dashboard';
import { expectError, merchantCall, payCall, tokenize, useIntegration } from '../support/integration';
import { standInWebRoot } from '../support/stand-in-web-root';

describe.each(testDatabases)('embedded checkout: frame-ancestors and /js/embed.js ($name)', (database) => {
  const ctx = useIntegration(database, { webRoot: standInWebRoot() });

  async function shop(origins?: unknown) {
    const owner = await signUpOwner(ctx.h, 'Framed Shop');
    const settings = `/dashboard/api/accounts/${owner.accountId}/settings`;
    if (origins !== undefined) {
      const saved = await dashboardCall(ctx.h, owner, 'POST', settings, { embed_allowed_origins: origins });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const key = (await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/test/api-keys`, { kind: 'secret' })).json().secret;
    return { owner, settings, key };
  }
  const session = async (key: string, body: Record<string, unknown>) => {
    const res = await merchantCall(ctx.h, key, 'POST', '/v1/checkout/sessions', {
      currency: 'usd',
      line_items: [{ name: 'Tea', unit_amount: 900, quantity: 1 }],
      ...body,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const page = (id: string) => ctx.h.app.inject({ method: 'GET', url: `/c/${id}` });

  it("an embedded session's page may be framed by the account's allowed origins only; every other page by none", async () => {
    const { key, settings, owner } = await shop(['https://shop.example', 'http://localhost:4800/']);
    expect((await dashboardCall(ctx.h, owner, 'GET', settings)).json().embed_allowed_origins).toEqual(['https://shop.example', 'http://localhost:4800']);
    const embedded = await session(key, { ui_mode: 'embedded', return_url: 'https://shop.example/done?s={CHECKOUT_SESSION_ID}' });
    const framed = await page(embedded.id);
    expect(framed.statusCode).toBe(200);
    expect(framed.headers['content-security-policy']).toContain('frame-ancestors https://shop.example http://localhost:4800;');
    expect(framed.headers['x-frame-options']).toBeUndefined();

    const hosted = await page((await session(key, {})).id);
    expect(hosted.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(hosted.headers['x-frame-options']).toBe('DENY');

    // Paid inside the frame, the page is told to go to return_url, the session id in it.
    const paid = await payCall(ctx.h, embedded.id, await tokenize(ctx.h, embedded.id));
    expect(paid.json().redirect_url).toBe(`https://shop.example/done?s=${embedded.id}`);
  });

  it('an account without allowed origins: its embedded page cannot be framed', async () => {
    const { key } = await shop();
    const embedded = await session(key, { ui_mode: 'embedded', return_url: 'https://shop.example/done' });
    const res = await page(embedded.id);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('refuses origins that are not origins, changing nothing; a saved list is audited', async () => {
    const { owner, settings } = await shop(['https://shop.example']);
    const auditLog = async () =>
      (await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/audit-log?limit=100`)).json().data as Array<{
        action: string;
        target: string;
      }>;
    const audited = await auditLog();
    expect(audited.filter((entry) => entry.action === 'account.update' && entry.target === owner.accountId)).toHaveLength(1);
    for (const [bad, param] of [
      [['https://shop.example/checkout'], 'embed_allowed_origins[0]'],
      [['http://shop.example'], 'embed_allowed_origins[0]'],
      [['https://shop.example', "https://a.example 'unsafe-inline'"], 'embed_allowed_origins[1]'],
      [['*'], 'embed_allowed_origins[0]'],
      [['https://user@shop.example'], 'embed_allowed_origins[0]'],
    ] as const) {
      expectError(await dashboardCall(ctx.h, owner, 'POST', settings, { embed_allowed_origins: bad }), 400, 'parameter_invalid', { param });
    }
    expect((await dashboardCall(ctx.h, owner, 'GET', settings)).json().embed_allowed_origins).toEqual(['https://shop.example']);
    expect(await auditLog()).toEqual(audited);
    // Emptied, no page may frame it again.
    expect((await dashboardCall(ctx.h, owner, 'POST', settings, { embed_allowed_origins: [] })).json().embed_allowed_origins).toEqual([]);
    expect((await auditLog()).filter((entry) => entry.action === 'account.update')).toHaveLength(2);
  });

  it('serves /js/embed.js with the published sha384 integrity', async () => {
    const script = await ctx.h.app.inject({ method: 'GET', url: '/js/embed.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toContain('Tillpoint');
    expect(script.body.length).toBeLessThan(2500);
    const published = (await ctx.h.app.inject({ method: 'GET', url: '/js/embed.json' })).json();
    expect(published.integrity).toBe(`sha384-${createHash('sha384').update(script.body).digest('base64')}`);
  });
});
