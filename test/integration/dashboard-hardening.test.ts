import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { dashboardEndpoints } from '../../src/http/dashboard/index';
import type { SqlClient } from '../../src/persistence/sql-client';
import { testDatabases } from '../support/databases';
import { dashboardCall, PASSWORD, preAuth, publicPost, setCookie, signUpOwner, uniqueEmail } from '../support/dashboard';
import { samples, urlFor, useDashboardFixtures } from '../support/dashboard-fixtures';
import { errorTypes, expectError, rows } from '../support/integration';
import { dumpBusinessData } from '../support/payments';

/**
 * The dashboard as an attacker and an unlucky user would meet it: every state-changing route
 * without (or with a wrong) CSRF token, sessions that end server-side, the sign-in throttle to the
 * millisecond on an injected clock, and a bounded fuzz of every endpoint.
 */
const endpoints = dashboardEndpoints({ publicUrl: 'http://checkout.test' } as never, {} as never);
const name = (e: (typeof endpoints)[number]) => `${e.contract.method} ${e.contract.url}`;
const writes = endpoints.filter((e) => e.contract.method !== 'GET');

/** Business data, minus what every authenticated request may touch (a session's sliding expiry). */
async function snapshot(db: SqlClient) {
  const dump = await dumpBusinessData(db);
  delete dump.dashboard_sessions;
  delete dump.sign_in_failures;
  return dump;
}

describe.each(testDatabases)('dashboard hardening ($name)', (database) => {
  const fx = useDashboardFixtures(database);

  /** The request a browser would send for `endpoint`: a valid sample where there is one. */
  async function requestFor(endpoint: (typeof endpoints)[number]) {
    const sample = samples[name(endpoint)];
    const { params = {}, body } = sample ? await sample(fx) : {};
    const filled = { account_id: fx.accountId, mode: 'test', token: 'inv_missing', id: 'dsess_missing', ...params };
    return {
      url: urlFor(endpoint.contract.url, filled),
      body: body ?? (endpoint.contract.url.endsWith('sign-in') ? { email: fx.owner.email, password: PASSWORD } : undefined),
    };
  }

  it(`refuses each of the ${writes.length} state-changing routes, signed in, without the CSRF token or with a wrong one: 403, nothing changed`, async () => {
    const prepared = [];
    for (const endpoint of writes) prepared.push({ endpoint, ...(await requestFor(endpoint)) });
    const before = await snapshot(fx.db);
    const wrongTokens = [undefined, `csrf_${'x'.repeat(32)}`, fx.outsider.csrf, ''];
    for (const { endpoint, url, body } of prepared) {
      for (const token of wrongTokens) {
        const res = await fx.h.app.inject({
          method: endpoint.contract.method,
          url,
          headers: { cookie: fx.owner.cookie, ...(token === undefined ? {} : { 'x-csrf-token': token }) },
          ...(body ? { payload: body } : {}),
        });
        expect(res.statusCode, `${name(endpoint)} with token ${String(token)}: ${res.body}`).toBe(403);
        expectError(res, 403, 'csrf_token_invalid');
      }
    }
    expect(await snapshot(fx.db)).toEqual(before);
    // The same owner, with the token, is not refused: the 403s were the token's doing.
    const settings = await dashboardCall(fx.h, fx.owner, 'POST', `/dashboard/api/accounts/${fx.accountId}/settings`, { accent_color: '#123456' });
    expect(settings.statusCode, settings.body).toBe(200);
  });

  it('sign-out ends the session on the server: the cookie, replayed from anywhere, is refused and its row is gone', async () => {
    const pre = await preAuth(fx.h);
    const signedIn = await publicPost(fx.h, pre, '/dashboard/api/sign-in', { email: fx.owner.email, password: PASSWORD });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const agent = { cookie: setCookie(signedIn, 'tp_session')!.split(';')[0]!, csrf: signedIn.json().csrf_token };
    const count = async () => Number((await rows(fx.db, 'SELECT count(*)::int AS n FROM dashboard_sessions WHERE user_id = $1', [fx.owner.userId]))[0]!.n);
    const sessions = await count();
    expect((await dashboardCall(fx.h, agent, 'POST', '/dashboard/api/sign-out')).statusCode).toBe(200);
    expect(await count()).toBe(sessions - 1);
    // A copy of the cookie kept by an attacker is worth nothing, for reads and writes alike.
    expectError(await dashboardCall(fx.h, agent, 'GET', `/dashboard/api/accounts/${fx.accountId}/team`), 401, 'not_signed_in');
    expectError(
      await dashboardCall(fx.h, agent, 'POST', `/dashboard/api/accounts/${fx.accountId}/settings`, { accent_color: '#000000' }),
      401,
      'not_signed_in',
    );
    expect((await dashboardCall(fx.h, agent, 'GET', '/dashboard/api/session')).json().user).toBeNull();
  });

  it('an idle-expired session is not revived by a later request, and no session outlives 7 days of constant use', async () => {
    const idle = await signUpOwner(fx.h, 'Idle Shop');
    fx.h.clock.advance(12 * 3600_000 + 1);
    expectError(await dashboardCall(fx.h, idle, 'GET', `/dashboard/api/accounts/${idle.accountId}/team`), 401, 'not_signed_in');
    fx.h.clock.advance(1000);
    expectError(await dashboardCall(fx.h, idle, 'GET', `/dashboard/api/accounts/${idle.accountId}/team`), 401, 'not_signed_in');

    const busy = await signUpOwner(fx.h, 'Busy Shop');
    const team = () => dashboardCall(fx.h, busy, 'GET', `/dashboard/api/accounts/${busy.accountId}/team`);
    // Used every 6 hours for a week: alive until the 7-day limit, then gone.
    for (let hours = 6; hours < 7 * 24; hours += 6) {
      fx.h.clock.advance(6 * 3600_000);
      expect((await team()).statusCode, `after ${hours} h`).toBe(200);
    }
    fx.h.clock.advance(6 * 3600_000);
    expectError(await team(), 401, 'not_signed_in');
  });

  it('sign-in throttle timings to the millisecond: 1 s, 2 s, 4 s after the 3rd, 4th, 5th failure; refused attempts do not count', async () => {
    const email = uniqueEmail('throttle');
    await publicPost(fx.h, await preAuth(fx.h), '/dashboard/api/sign-up', { email, password: PASSWORD, name: 'T', business_name: 'Throttle Shop' });
    const attempt = async (password: string) => publicPost(fx.h, await preAuth(fx.h, '198.51.100.200'), '/dashboard/api/sign-in', { email, password });
    for (let i = 0; i < 3; i++) expectError(await attempt('wrong'), 401, 'sign_in_failed');
    for (const waitMs of [1000, 2000, 4000]) {
      fx.h.clock.advance(waitMs - 1);
      const early = await attempt(PASSWORD);
      expectError(early, 429, 'rate_limited');
      expect(early.headers['retry-after']).toBe('1');
      fx.h.clock.advance(1);
      expectError(await attempt('wrong'), 401, 'sign_in_failed');
    }
    // Six failures now: 8 s to wait. After it, the right password works and clears the count.
    fx.h.clock.advance(8000);
    expect((await attempt(PASSWORD)).statusCode).toBe(200);
    expectError(await attempt('wrong'), 401, 'sign_in_failed');
    expect((await attempt(PASSWORD)).statusCode).toBe(200);
  });

  it('fuzz: random path values, queries and bodies on every dashboard endpoint never answer 5xx, keep the error shape, and a refusal changes nothing', async () => {
    // A fresh session for the owner (the tests above moved the clock by days), whose sign-out is fuzzed last.
    const pre = await preAuth(fx.h);
    const signedIn = await publicPost(fx.h, pre, '/dashboard/api/sign-in', { email: fx.owner.email, password: PASSWORD });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    Object.assign(fx.owner, { cookie: setCookie(signedIn, 'tp_session')!.split(';')[0]!, csrf: signedIn.json().csrf_token });
    const ordered = [...endpoints.filter((e) => !e.contract.url.endsWith('/sign-out')), ...endpoints.filter((e) => e.contract.url.endsWith('/sign-out'))];
    const ids = [fx.paymentId, fx.sessionId, fx.webhookEndpointId, fx.experimentId, fx.deliveryId, fx.outsider.accountId, fx.accountId];
    const pathValue = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom(...ids, 'test', 'live', '..', '%00', 'acct_', 'x'.repeat(1200)));
    const jsonValue = fc.jsonValue({ maxDepth: 3 });
    for (const endpoint of ordered) {
      const sample = samples[name(endpoint)];
      const base = sample ? await sample(fx) : {};
      const paramNames = [...endpoint.contract.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
      const body = fc.oneof(
        fc.constant(undefined),
        jsonValue,
        fc.dictionary(fc.constantFrom(...Object.keys(base.body ?? { x: 1 }), 'extra'), jsonValue, { maxKeys: 4 }),
        // The valid sample with one field broken.
        fc.record({ key: fc.constantFrom(...Object.keys(base.body ?? { x: 1 })), value: jsonValue }).map(({ key, value }) => ({ ...base.body, [key]: value })),
      );
      const query = fc.dictionary(fc.constantFrom('limit', 'starting_after', 'status', 'q', 'created[gte]'), fc.string({ maxLength: 20 }), { maxKeys: 3 });
      await fc.assert(
        fc.asyncProperty(fc.tuple(...paramNames.map(() => fc.option(pathValue, { nil: undefined }))), query, body, async (values, search, payload) => {
          const params: Record<string, string> = { account_id: fx.accountId, mode: 'test', token: 'inv_x', id: 'dsess_x', ...base.params };
          paramNames.forEach((param, i) => {
            if (values[i] !== undefined) params[param] = encodeURIComponent(values[i]!);
          });
          const qs = new URLSearchParams(search).toString();
          const url = urlFor(endpoint.contract.url, params) + (qs ? `?${qs}` : '');
          const before = endpoint.contract.method === 'GET' ? null : await snapshot(fx.db);
          const res: LightMyRequestResponse = await fx.h.app.inject({
            method: endpoint.contract.method,
            url,
            headers: { cookie: fx.owner.cookie, 'x-csrf-token': fx.owner.csrf, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
            ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
          });
          expect(res.statusCode, `${endpoint.contract.method} ${url} ${JSON.stringify(payload)}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            const code = res.json().error?.code;
            expect(errorTypes[code], `${url}: ${res.body}`).toBeDefined();
            expectError(res, res.statusCode, code, { ...(res.json().error.param ? { param: res.json().error.param } : {}) });
            if (before) expect(await snapshot(fx.db), `${endpoint.contract.method} ${url} changed data though refused`).toEqual(before);
          }
        }),
        { numRuns: 4, seed: 1515 },
      );
    }
  }, 120_000);
});
