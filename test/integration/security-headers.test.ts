import { pgliteTemplate } from '../support/pglite-template';
import { standInWebRoot } from '../support/stand-in-web-root';
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { buildHttpServer } from '../../src/http/server';
import { openPglite, type SqlClient } from '../../src/persistence/sql-client';
import { readConfig } from '../../src/runtime/config';
import { openTillpoint, type Tillpoint } from '../../src/runtime/open-tillpoint';

/**
 * The security headers on every kind of page — merchant API, checkout page and its API, dashboard
 * page and its API, docs, assets, errors — and Strict-Transport-Security exactly when PUBLIC_URL is
 * https and HSTS is not turned off.
 */
const HSTS = 'max-age=31536000; includeSubDomains';

describe('security headers on every page', () => {
  const webRoot = standInWebRoot();
  let db: SqlClient;
  let tillpoint: Tillpoint;
  const apps: Record<'https' | 'http', FastifyInstance> = {} as never;
  let key = '';

  beforeAll(async () => {
    db = await openPglite(null, undefined, { startFrom: pgliteTemplate.dump });
    tillpoint = await openTillpoint({ db, publicUrl: 'https://pay.example.com' });
    key = (await createAccount(tillpoint.deps, { name: 'Header Shop' })).testSecretKey;
    for (const [scheme, hsts] of [
      ['https', true],
      ['http', false],
    ] as const) {
      apps[scheme] = await buildHttpServer({ deps: tillpoint.deps, webRoot, hsts, processorSettings: tillpoint.processorSettings });
      await apps[scheme].ready();
    }
  });

  afterAll(async () => {
    for (const app of Object.values(apps)) await app.close();
    await tillpoint.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const pages = (sessionId: string) =>
    [
      { name: 'merchant API', method: 'GET', url: '/v1/checkout/sessions', auth: true },
      { name: 'merchant API error', method: 'GET', url: '/v1/payments', auth: false },
      { name: 'checkout page', method: 'GET', url: `/c/${sessionId}`, html: true, noStore: true },
      { name: 'checkout API', method: 'GET', url: `/api/checkout/sessions/${sessionId}` },
      { name: 'dashboard page', method: 'GET', url: '/dashboard', html: true, noStore: true },
      { name: 'dashboard deep link', method: 'GET', url: '/dashboard/payments', html: true, noStore: true },
      { name: 'dashboard API', method: 'GET', url: '/dashboard/api/session' },
      { name: 'docs', method: 'GET', url: '/docs', html: true },
      { name: 'OpenAPI', method: 'GET', url: '/v1/openapi.json' },
      { name: 'asset', method: 'GET', url: '/assets/app-1234.js' },
      { name: 'health', method: 'GET', url: '/healthz' },
      { name: 'root', method: 'GET', url: '/' },
      { name: 'unknown route', method: 'GET', url: '/nowhere' },
    ] as const;

  it('every page carries nosniff, no-referrer, DENY framing and a request id; HTML pages a CSP, session pages no-store; HSTS on https', async () => {
    const session = await apps.https.inject({
      method: 'POST',
      url: '/v1/checkout/sessions',
      headers: { authorization: `Bearer ${key}` },
      payload: { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 1000, quantity: 1 }] },
    });
    expect(session.statusCode).toBe(200);
    for (const page of pages(session.json().id)) {
      for (const scheme of ['https', 'http'] as const) {
        const res = await apps[scheme].inject({
          method: page.method,
          url: page.url,
          headers: 'auth' in page && page.auth ? { authorization: `Bearer ${key}` } : {},
        });
        const label = `${page.name} (${scheme}) ${res.statusCode}`;
        expect(res.statusCode, label).toBeLessThan(500);
        expect(res.headers['x-content-type-options'], label).toBe('nosniff');
        expect(res.headers['referrer-policy'], label).toBe('no-referrer');
        expect(res.headers['x-frame-options'], label).toBe('DENY');
        expect(res.headers['request-id'], label).toMatch(/^req_/);
        expect(res.headers['strict-transport-security'], label).toBe(scheme === 'https' ? HSTS : undefined);
        if ('html' in page && page.html) {
          expect(res.headers['content-type'], label).toMatch(/^text\/html/);
          expect(res.headers['content-security-policy'], label).toMatch(/frame-ancestors 'none'/);
          expect(res.headers['content-security-policy'], label).toMatch(/default-src/);
        }
        // Pages that carry a shopper's session id or a merchant's data are never cached.
        if ('noStore' in page && page.noStore) expect(res.headers['cache-control'], label).toBe('no-store');
      }
    }
  });

  it('GET / sends the browser to the dashboard instead of a JSON 404', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await apps.https.inject({ method, url: '/' });
      expect(res.statusCode, method).toBe(302);
      expect(res.headers.location, method).toBe('/dashboard');
    }
  });

  it('HSTS is on for an https PUBLIC_URL, off for http, and HSTS=off turns it off', () => {
    expect(readConfig({ PUBLIC_URL: 'https://pay.example.com' }).hsts).toBe(true);
    expect(readConfig({ PUBLIC_URL: 'https://pay.example.com', HSTS: 'off' }).hsts).toBe(false);
    expect(readConfig({ PUBLIC_URL: 'http://localhost:4242' }).hsts).toBe(false);
    expect(readConfig({}).hsts).toBe(false);
    expect(() => readConfig({ HSTS: 'maybe' })).toThrow('HSTS');
  });
});
