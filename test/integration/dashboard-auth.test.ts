import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { PASSWORD, addMember, dashboardCall, preAuth, publicPost, setCookie, signInAgain, signUpOwner, uniqueEmail } from '../support/dashboard';
import { startHarness } from '../support/harness';
import { countRows, expectError, merchantCall, rows, useIntegration } from '../support/integration';

describe.each(testDatabases)('dashboard sign-up, sign-in and sessions ($name)', (database) => {
  const ctx = useIntegration(database);

  it('sign-up creates the account, its owner and a session; the password is stored as argon2id only', async () => {
    const email = uniqueEmail('Founder');
    const owner = await signUpOwner(ctx.h, 'Fresh Beans', email.toUpperCase());
    const [user] = await rows(ctx.db, 'SELECT * FROM users WHERE id = $1', [owner.userId]);
    expect(user!.email).toBe(email.toLowerCase());
    expect(user!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(JSON.stringify(await rows(ctx.db, 'SELECT * FROM users'))).not.toContain(PASSWORD);
    const [membership] = await rows(ctx.db, 'SELECT * FROM memberships WHERE user_id = $1', [owner.userId]);
    expect(membership).toMatchObject({ account_id: owner.accountId, role: 'owner' });
    const me = await dashboardCall(ctx.h, owner, 'GET', '/dashboard/api/session');
    expect(me.json()).toMatchObject({ user: { email: email.toLowerCase() }, accounts: [{ id: owner.accountId, name: 'Fresh Beans', role: 'owner' }] });
    // The cookie holds a token whose hash alone is stored.
    const token = owner.cookie.split('=')[1]!;
    expect(JSON.stringify(await rows(ctx.db, 'SELECT * FROM dashboard_sessions'))).not.toContain(token);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, limited to /dashboard, without Secure over http', async () => {
    const pre = await preAuth(ctx.h);
    const res = await publicPost(ctx.h, pre, '/dashboard/api/sign-up', {
      email: uniqueEmail(),
      password: PASSWORD,
      name: 'Cookie Tester',
      business_name: 'Cookie Shop',
    });
    const cookie = setCookie(res, 'tp_session')!;
    expect(cookie).toMatch(/^tp_session=tps_[A-Za-z0-9]{32}; /);
    expect(cookie.split('; ')).toEqual(expect.arrayContaining(['Path=/dashboard', 'HttpOnly', 'SameSite=Lax']));
    expect(cookie).not.toContain('Secure');
  });

  it('adds Secure to the cookies when PUBLIC_URL is https', async () => {
    const h = await startHarness(ctx.db);
    try {
      const secureApp = await (await import('../../src/http/server')).buildHttpServer({
        deps: { ...h.tillpoint.deps, publicUrl: 'https://pay.shop.example' },
        webRoot: '/nonexistent',
      });
      const session = await secureApp.inject({ method: 'GET', url: '/dashboard/api/session' });
      const csrfCookie = setCookie(session, 'tp_csrf')!;
      expect(csrfCookie.split('; ')).toEqual(expect.arrayContaining(['Path=/dashboard', 'HttpOnly', 'SameSite=Lax', 'Secure']));
      const res = await secureApp.inject({
        method: 'POST',
        url: '/dashboard/api/sign-up',
        headers: { cookie: csrfCookie.split(';')[0]!, 'x-csrf-token': session.json().csrf_token },
        payload: { email: uniqueEmail(), password: PASSWORD, name: 'Secure', business_name: 'Secure Shop' },
      });
      expect(setCookie(res, 'tp_session')!.split('; ')).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Secure']));
      await secureApp.close();
    } finally {
      await h.app.close();
    }
  });

  it('refuses every state-changing request without the CSRF token, and changes nothing', async () => {
    const owner = await signUpOwner(ctx.h);
    const base = `/dashboard/api/accounts/${owner.accountId}`;
    const before = await rows(ctx.db, 'SELECT accent_color FROM accounts WHERE id = $1', [owner.accountId]);
    const noToken = await dashboardCall(ctx.h, owner, 'POST', `${base}/settings`, { accent_color: '#ff0000' }, { csrf: false });
    expectError(noToken, 403, 'csrf_token_invalid');
    const wrongToken = await dashboardCall(ctx.h, { ...owner, csrf: `csrf_${'x'.repeat(32)}` }, 'POST', `${base}/settings`, { accent_color: '#ff0000' });
    expectError(wrongToken, 403, 'csrf_token_invalid');
    expectError(await dashboardCall(ctx.h, owner, 'POST', `${base}/invites`, { role: 'admin' }, { csrf: false }), 403, 'csrf_token_invalid');
    expectError(await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/sign-out', undefined, { csrf: false }), 403, 'csrf_token_invalid');
    expect(await rows(ctx.db, 'SELECT accent_color FROM accounts WHERE id = $1', [owner.accountId])).toEqual(before);
    expect(await countRows(ctx.db, 'invites')).toBe(0);
    // Reads need no token.
    expect((await dashboardCall(ctx.h, owner, 'GET', `${base}/settings`, undefined, { csrf: false })).statusCode).toBe(200);
  });

  it('refuses sign-in and sign-up without the pre-sign-in CSRF token (login CSRF)', async () => {
    const pre = await preAuth(ctx.h);
    const forged = await ctx.h.app.inject({
      method: 'POST',
      url: '/dashboard/api/sign-up',
      payload: { email: uniqueEmail(), password: PASSWORD, name: 'x', business_name: 'x' },
      headers: { cookie: pre.cookie },
    });
    expectError(forged, 403, 'csrf_token_invalid');
    // The cookie holds a secret, not a token: a page that sets the cookie and echoes it gets nowhere.
    const echoed = await ctx.h.app.inject({
      method: 'POST',
      url: '/dashboard/api/sign-up',
      payload: { email: uniqueEmail(), password: PASSWORD, name: 'x', business_name: 'x' },
      headers: { cookie: pre.cookie, 'x-csrf-token': pre.cookie.split('=')[1]! },
    });
    expectError(echoed, 403, 'csrf_token_invalid');
    expect(pre.csrf).not.toBe(pre.cookie.split('=')[1]);
    expect(await countRows(ctx.db, 'users')).toBe(0);
  });

  it("takes only a token made from this session's secret: not a pre-sign-in one, not another session's, not one of an ended session", async () => {
    const owner = await signUpOwner(ctx.h);
    const other = await signUpOwner(ctx.h, 'Other Shop');
    const settings = `/dashboard/api/accounts/${owner.accountId}/settings`;
    const before = await rows(ctx.db, 'SELECT accent_color FROM accounts WHERE id = $1', [owner.accountId]);
    const pre = await preAuth(ctx.h);
    const refused = [
      // A signed-in write with the browser's pre-sign-in cookie and its token.
      await ctx.h.app.inject({
        method: 'POST',
        url: settings,
        payload: { accent_color: '#ff0000' },
        headers: { cookie: `${owner.cookie}; ${pre.cookie}`, 'x-csrf-token': pre.csrf },
      }),
      await dashboardCall(ctx.h, { ...owner, csrf: other.csrf }, 'POST', settings, { accent_color: '#ff0000' }),
      await dashboardCall(ctx.h, { ...owner, csrf: `${owner.csrf}x` }, 'POST', settings, { accent_color: '#ff0000' }),
    ];
    for (const res of refused) expectError(res, 403, 'csrf_token_invalid');
    expect(await rows(ctx.db, 'SELECT accent_color FROM accounts WHERE id = $1', [owner.accountId])).toEqual(before);

    // Each answer carries a fresh token (salted); every one made from the session's secret works.
    const fresh = (await dashboardCall(ctx.h, owner, 'GET', '/dashboard/api/session')).json().csrf_token;
    expect(fresh).not.toBe(owner.csrf);
    expect((await dashboardCall(ctx.h, { ...owner, csrf: fresh }, 'POST', settings, { accent_color: '#00aa00' })).statusCode).toBe(200);
    expect((await dashboardCall(ctx.h, owner, 'POST', settings, { accent_color: '#0000aa' })).statusCode).toBe(200);

    // Signed out and in again: the new session has a new secret, the old tokens are worthless.
    expect((await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/sign-out')).statusCode).toBe(200);
    const again = await publicPost(ctx.h, await preAuth(ctx.h), '/dashboard/api/sign-in', { email: owner.email, password: PASSWORD });
    const cookie = setCookie(again, 'tp_session')!.split(';')[0]!;
    expectError(await dashboardCall(ctx.h, { cookie, csrf: owner.csrf }, 'POST', settings, { accent_color: '#ff0000' }), 403, 'csrf_token_invalid');
    expect(await rows(ctx.db, 'SELECT accent_color FROM accounts WHERE id = $1', [owner.accountId])).toEqual([{ accent_color: '#0000aa' }]);
    expect((await dashboardCall(ctx.h, { cookie, csrf: again.json().csrf_token }, 'POST', settings, { accent_color: '#ff0000' })).statusCode).toBe(200);
  });

  it('signs in with the right password (email case-insensitive) and out again; the old cookie is then worthless', async () => {
    const owner = await signUpOwner(ctx.h);
    const pre = await preAuth(ctx.h);
    const wrong = await publicPost(ctx.h, pre, '/dashboard/api/sign-in', { email: owner.email, password: 'not the password' });
    expectError(wrong, 401, 'sign_in_failed');
    const unknown = await publicPost(ctx.h, pre, '/dashboard/api/sign-in', { email: 'nobody@shop.example', password: PASSWORD });
    expect(expectError(unknown, 401, 'sign_in_failed').message).toBe(expectError(wrong, 401, 'sign_in_failed').message);

    const res = await publicPost(ctx.h, pre, '/dashboard/api/sign-in', { email: owner.email.toUpperCase(), password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    const agent = { cookie: setCookie(res, 'tp_session')!.split(';')[0]!, csrf: res.json().csrf_token };
    expect((await dashboardCall(ctx.h, agent, 'GET', `/dashboard/api/accounts/${owner.accountId}/team`)).statusCode).toBe(200);

    const out = await dashboardCall(ctx.h, agent, 'POST', '/dashboard/api/sign-out');
    expect(out.statusCode).toBe(200);
    expect(setCookie(out, 'tp_session')).toContain('Max-Age=0');
    expectError(await dashboardCall(ctx.h, agent, 'GET', `/dashboard/api/accounts/${owner.accountId}/team`), 401, 'not_signed_in');
    // The other browser's session lives on.
    expect((await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/team`)).statusCode).toBe(200);
  });

  it('ends a session after 12 idle hours', async () => {
    const owner = await signUpOwner(ctx.h);
    ctx.h.clock.advance(11 * 3600_000);
    expect((await dashboardCall(ctx.h, owner, 'GET', '/dashboard/api/session')).json().user).not.toBeNull();
    ctx.h.clock.advance(11 * 3600_000);
    expect((await dashboardCall(ctx.h, owner, 'GET', '/dashboard/api/session')).json().user).not.toBeNull();
    ctx.h.clock.advance(13 * 3600_000);
    expect((await dashboardCall(ctx.h, owner, 'GET', '/dashboard/api/session')).json().user).toBeNull();
    expectError(await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/team`), 401, 'not_signed_in');
  });

  it('the idle expiry follows use, moved at most every 5 minutes', async () => {
    const owner = await signUpOwner(ctx.h);
    const team = `/dashboard/api/accounts/${owner.accountId}/team`;
    const expiry = async () =>
      (await rows(ctx.db, 'SELECT expires_at FROM dashboard_sessions WHERE user_id = (SELECT id FROM users WHERE email = $1)', [owner.email]))[0]!
        .expires_at as Date;
    const before = await expiry();

    ctx.h.clock.advance(4 * 60_000);
    expect((await dashboardCall(ctx.h, owner, 'GET', team)).statusCode).toBe(200);
    expect(await expiry()).toEqual(before);

    ctx.h.clock.advance(2 * 60_000);
    expect((await dashboardCall(ctx.h, owner, 'GET', team)).statusCode).toBe(200);
    expect((await expiry()).getTime()).toBe(before.getTime() + 6 * 60_000);
  });

  it('a session revoked or signed out on one instance is refused at once on every instance, like a cookie of no session', async () => {
    const owner = await signUpOwner(ctx.h);
    const laptop = await signInAgain(ctx.h, owner);
    const other = await startHarness(ctx.db);
    try {
      const team = `/dashboard/api/accounts/${owner.accountId}/team`;
      const instances = [ctx.h, other];
      for (const h of instances) expect((await dashboardCall(h, laptop, 'GET', team)).statusCode).toBe(200);

      const sessions = (await dashboardCall(ctx.h, owner, 'GET', '/dashboard/api/me/sessions')).json().data as Array<{ id: string; current: boolean }>;
      const laptopSession = sessions.find((session) => !session.current)!;
      expect((await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/me/sessions/${laptopSession.id}/revoke`)).statusCode).toBe(200);
      for (const h of instances) expectError(await dashboardCall(h, laptop, 'GET', team), 401, 'not_signed_in');

      expect((await dashboardCall(other, owner, 'POST', '/dashboard/api/sign-out')).statusCode).toBe(200);
      for (const h of instances) expectError(await dashboardCall(h, owner, 'GET', team), 401, 'not_signed_in');

      expectError(await dashboardCall(ctx.h, { ...owner, cookie: 'tp_session=not-a-session' }, 'GET', team), 401, 'not_signed_in');
    } finally {
      await other.app.close();
    }
  });

  it('slows repeated failed sign-ins, then locks the email for 15 minutes even with the right password', async () => {
    const owner = await signUpOwner(ctx.h);
    const attempt = async (password: string, ip = '198.51.100.1') =>
      publicPost(ctx.h, { ...(await preAuth(ctx.h, ip)) }, '/dashboard/api/sign-in', { email: owner.email, password });

    for (let i = 0; i < 3; i++) expectError(await attempt('wrong password'), 401, 'sign_in_failed');
    const slowed = await attempt(PASSWORD);
    expectError(slowed, 429, 'rate_limited');
    expect(slowed.headers['retry-after']).toBe('1');

    for (let i = 3; i < 10; i++) {
      ctx.h.clock.advance(61_000);
      expectError(await attempt('wrong password'), 401, 'sign_in_failed');
    }
    // From another address too: the lock is on the email.
    const locked = await attempt(PASSWORD, '192.0.2.99');
    expectError(locked, 429, 'rate_limited');
    expect(Number(locked.headers['retry-after'])).toBe(900);
    ctx.h.clock.advance(14 * 60_000);
    expectError(await attempt(PASSWORD), 429, 'rate_limited');
    ctx.h.clock.advance(61_000);
    expect((await attempt(PASSWORD)).statusCode).toBe(200);
    // A success clears the count for the email.
    expectError(await attempt('wrong password'), 401, 'sign_in_failed');
    expectError(await attempt('wrong password', '192.0.2.5'), 401, 'sign_in_failed');
  });

  it('locks an address that sprays many emails', async () => {
    const ip = '198.51.100.77';
    for (let i = 0; i < 20; i++) {
      expectError(
        await publicPost(ctx.h, await preAuth(ctx.h, ip), '/dashboard/api/sign-in', { email: `guess${i}@shop.example`, password: 'x' }),
        401,
        'sign_in_failed',
      );
    }
    const res = await publicPost(ctx.h, await preAuth(ctx.h, ip), '/dashboard/api/sign-in', { email: 'another@shop.example', password: 'x' });
    expectError(res, 429, 'rate_limited');
  });
});

describe.each(testDatabases)('dashboard team ($name)', (database) => {
  const ctx = useIntegration(database);

  it('an invite link is single use; the invitee joins with the role and can switch between accounts', async () => {
    const owner = await signUpOwner(ctx.h, 'First Shop');
    const other = await signUpOwner(ctx.h, 'Second Shop');
    const invite = await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/invites`, { role: 'developer' });
    expect(invite.statusCode, invite.body).toBe(201);
    const url: string = invite.json().url;
    expect(url).toMatch(/^http:\/\/checkout\.test\/dashboard\/invite\/inv_[A-Za-z0-9]{32}$/);
    const token = url.split('/').at(-1)!;
    expect(JSON.stringify(await rows(ctx.db, 'SELECT * FROM invites'))).not.toContain(token);

    const preview = await ctx.h.app.inject({ method: 'GET', url: `/dashboard/api/invites/${token}` });
    expect(preview.json()).toMatchObject({ account_name: 'First Shop', role: 'developer' });

    const accept = await dashboardCall(ctx.h, other, 'POST', `/dashboard/api/invites/${token}/accept`);
    expect(accept.json()).toEqual({ account_id: owner.accountId, role: 'developer' });
    const me = (await dashboardCall(ctx.h, other, 'GET', '/dashboard/api/session')).json();
    expect(me.accounts.map((a: { name: string; role: string }) => [a.name, a.role]).sort()).toEqual([
      ['First Shop', 'developer'],
      ['Second Shop', 'owner'],
    ]);
    expectError(await dashboardCall(ctx.h, other, 'POST', `/dashboard/api/invites/${token}/accept`), 404, 'resource_missing', { param: 'id' });
    expectError(await ctx.h.app.inject({ method: 'GET', url: `/dashboard/api/invites/${token}` }), 404, 'resource_missing', { param: 'id' });
  });

  it('an expired or revoked invite no longer works', async () => {
    const owner = await signUpOwner(ctx.h);
    const make = async () => (await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/invites`, { role: 'viewer' })).json();
    const revoked = await make();
    expect((await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/invites/${revoked.id}/revoke`)).statusCode).toBe(200);
    const pre = await preAuth(ctx.h);
    const signUp = (token: string) =>
      publicPost(ctx.h, pre, '/dashboard/api/sign-up', { email: uniqueEmail(), password: PASSWORD, name: 'Late', invite_token: token });
    expectError(await signUp(revoked.url.split('/').at(-1)), 404, 'resource_missing', { param: 'id' });
    const expiring = await make();
    ctx.h.clock.advance(7 * 24 * 3600_000 + 1000);
    expectError(await signUp(expiring.url.split('/').at(-1)), 404, 'resource_missing', { param: 'id' });
    expect(await countRows(ctx.db, 'users')).toBe(1);
  });

  it('an admin manages non-owners but cannot make, demote or remove an owner; the last owner stays', async () => {
    const owner = await signUpOwner(ctx.h);
    const admin = await addMember(ctx.h, owner, 'admin');
    const support = await addMember(ctx.h, owner, 'support');
    const base = `/dashboard/api/accounts/${owner.accountId}`;

    const changed = await dashboardCall(ctx.h, admin, 'POST', `${base}/members/${support.userId}/role`, { role: 'viewer' });
    expect(changed.json()).toEqual({ user_id: support.userId, role: 'viewer' });
    expectError(await dashboardCall(ctx.h, admin, 'POST', `${base}/members/${support.userId}/role`, { role: 'owner' }), 403, 'insufficient_role');
    expectError(await dashboardCall(ctx.h, admin, 'POST', `${base}/invites`, { role: 'owner' }), 403, 'insufficient_role');
    expectError(await dashboardCall(ctx.h, admin, 'DELETE', `${base}/members/${owner.userId}`), 403, 'insufficient_role');
    expectError(await dashboardCall(ctx.h, owner, 'POST', `${base}/members/${owner.userId}/role`, { role: 'admin' }), 400, 'parameter_invalid', {
      param: 'role',
    });

    // The viewer (formerly support) now sees emails masked and cannot manage the team.
    expectError(await dashboardCall(ctx.h, support, 'POST', `${base}/invites`, { role: 'viewer' }), 403, 'insufficient_role');
    const removed = await dashboardCall(ctx.h, admin, 'DELETE', `${base}/members/${support.userId}`);
    expect(removed.statusCode).toBe(200);
    expectError(await dashboardCall(ctx.h, support, 'GET', `${base}/team`), 404, 'resource_missing', { param: 'id' });

    const team = (await dashboardCall(ctx.h, owner, 'GET', `${base}/team`)).json();
    expect(team.members.map((m: { role: string }) => m.role).sort()).toEqual(['admin', 'owner']);
    const audit = (await dashboardCall(ctx.h, owner, 'GET', `${base}/audit-log?limit=100`)).json().data;
    expect(audit.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['member.remove', 'member.role_change.viewer', 'invite.accept', 'invite.create', 'account.create']),
    );
    const removal = audit.find((e: { action: string }) => e.action === 'member.remove');
    expect(removal).toMatchObject({ actor: { type: 'user', id: admin.userId, label: admin.email }, target: support.userId, ip: '127.0.0.1' });
  });
});

describe.each(testDatabases)('audit log and request log of the merchant API ($name)', (database) => {
  const ctx = useIntegration(database);

  it('records session create and expire by the key, in the audit log, with the key and the IP', async () => {
    const created = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', {
      currency: 'usd',
      line_items: [{ name: 'Mug', unit_amount: 900, quantity: 1 }],
    });
    const id = created.json().id;
    await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${id}/expire`);
    const audit = await rows(ctx.db, 'SELECT * FROM audit_log ORDER BY at, action');
    expect(audit.map((r) => [r.action, r.target, r.actor_type, r.mode, r.ip])).toEqual([
      ['checkout_session.create', id, 'api_key', 'test', '127.0.0.1'],
      ['checkout_session.expire', id, 'api_key', 'test', '127.0.0.1'],
    ]);
    expect(audit[0]!.actor_label).toBe(`sk_test_…${ctx.key.slice(-4)}`);
    // A refused write leaves no audit line.
    await merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [] });
    expect(await countRows(ctx.db, 'audit_log')).toBe(2);
  });

  it('records API calls (method, path, status, error code) without bodies or queries, bounded per account and mode', async () => {
    await merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', {
      currency: 'usd',
      line_items: [{ name: 'Secret item name', unit_amount: 900, quantity: 1 }],
      customer_email: 'private@customer.example',
    });
    await merchantCall(ctx.h, ctx.key, 'GET', '/v1/payments?checkout_session=cs_nothing&limit=3');
    await merchantCall(ctx.h, ctx.key, 'GET', '/v1/payments/pay_missing');
    await ctx.h.app.inject({ method: 'GET', url: '/v1/payments', headers: { authorization: 'Bearer sk_test_nonsense' } });
    // Only this account's rows: the request log is written just after each answer, so an earlier
    // test's last calls may land after its tables were emptied.
    const ownLog = async () => (await rows(ctx.db, 'SELECT count(*)::int AS n FROM api_requests WHERE account_id = $1', [ctx.accountId]))[0]!.n;
    await expect.poll(ownLog).toBe(3);
    const logged = await rows(ctx.db, 'SELECT method, path, status, error_code FROM api_requests WHERE account_id = $1 ORDER BY at, path', [ctx.accountId]);
    expect(logged).toEqual(
      expect.arrayContaining([
        { method: 'POST', path: '/v1/checkout/sessions', status: 200, error_code: null },
        { method: 'GET', path: '/v1/payments', status: 200, error_code: null },
        { method: 'GET', path: '/v1/payments/pay_missing', status: 404, error_code: 'resource_missing' },
      ]),
    );
    const everything = JSON.stringify(await rows(ctx.db, 'SELECT * FROM api_requests WHERE account_id = $1', [ctx.accountId]));
    expect(everything).not.toMatch(/Secret item|private@customer|checkout_session=/);

    // Bounded: the store keeps the newest `keep` of the scope (the product keeps API_REQUEST_LOG_SIZE).
    const keep = 5;
    for (let i = 0; i < keep + 3; i++) {
      const record = {
        id: `req_log_${i}`,
        accountId: ctx.accountId,
        mode: 'test' as const,
        keyId: 'key_x',
        method: 'GET',
        path: `/v1/payments/${i}`,
        status: 200,
        errorCode: null,
        requestId: `req_${i}`,
        at: new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
      };
      await ctx.h.tillpoint.deps.store.transaction((tx) => tx.apiRequests.insert(record, keep));
    }
    const kept = await rows(ctx.db, 'SELECT path FROM api_requests WHERE key_id = $1 ORDER BY at', ['key_x']);
    expect(kept.map((r) => r.path)).toEqual(['/v1/payments/3', '/v1/payments/4', '/v1/payments/5', '/v1/payments/6', '/v1/payments/7']);
    expect(await ownLog()).toBe(keep);

    // A batch (as the request log writes them) keeps the newest `keep` too, old and new together.
    const batch = [0, 1, 2].map((i) => ({
      id: `req_log_b${i}`,
      accountId: ctx.accountId,
      mode: 'test' as const,
      keyId: 'key_x',
      method: 'GET',
      path: `/v1/payments/b${i}`,
      status: 200,
      errorCode: null,
      requestId: `req_b${i}`,
      at: new Date(Date.UTC(2030, 0, 1, 0, 1, i)),
    }));
    await ctx.h.tillpoint.deps.store.once((db) => db.apiRequests.insertMany(batch, keep));
    const afterBatch = await rows(ctx.db, 'SELECT path FROM api_requests WHERE key_id = $1 ORDER BY at', ['key_x']);
    expect(afterBatch.map((r) => r.path)).toEqual(['/v1/payments/6', '/v1/payments/7', '/v1/payments/b0', '/v1/payments/b1', '/v1/payments/b2']);
  });
});
