import { describe, expect, it } from 'vitest';
import { createSetupLink } from '../../src/domain/team/use-cases/create-setup-link';
import { ensureDemo } from '../../src/runtime/demo';
import { testDatabases, truncateAll } from '../support/databases';
import { PASSWORD, addMember, dashboardCall, preAuth, publicPost, signUpOwner, uniqueEmail, type DashboardAgent } from '../support/dashboard';
import { startHarness } from '../support/harness';
import { expectError, merchantCall, payCall, rows, sampleSession, tokenize, useIntegration } from '../support/integration';

const tokenOf = (url: string) => url.split('/').at(-1)!;

describe.each(testDatabases)('claiming an install and closed sign-up ($name)', (database) => {
  // SIGNUP's default: new people join by invitation.
  const ctx = useIntegration(database, { signUp: 'invite' });

  async function claim(url: string, email = uniqueEmail('operator'), ip = '198.51.100.4') {
    const pre = await preAuth(ctx.h, ip);
    return publicPost(ctx.h, pre, `/dashboard/api/setup/${tokenOf(url)}`, { email, password: PASSWORD, name: 'Opal Operator' });
  }

  it("the first start's setup link makes its user the demo account's owner, who sees the demo payment", async () => {
    await truncateAll(ctx.db); // the first start: an empty database
    const demo = await ensureDemo(ctx.h.tillpoint.deps, ctx.db);
    expect(demo.created!.setupUrl).toMatch(/^http:\/\/checkout\.test\/dashboard\/setup\/setup_[A-Za-z0-9]{32}$/);
    // A payment through the demo key, as curl or the SDK would make it.
    const session = await merchantCall(ctx.h, demo.created!.testSecretKey, 'POST', '/v1/checkout/sessions', sampleSession);
    expect((await payCall(ctx.h, session.json().id, await tokenize(ctx.h, session.json().id))).statusCode).toBe(200);

    const preview = await ctx.h.app.inject({ method: 'GET', url: `/dashboard/api/setup/${tokenOf(demo.created!.setupUrl)}` });
    expect(preview.json()).toMatchObject({ account_name: 'Demo Coffee Roasters' });
    const res = await claim(demo.created!.setupUrl);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      account_id: demo.created!.accountId,
      accounts: [{ id: demo.created!.accountId, name: 'Demo Coffee Roasters', role: 'owner' }],
    });
    const cookie = String(res.headers['set-cookie']).match(/tp_session=[^;]+/)![0];
    const owner = { cookie, csrf: res.json().csrf_token };
    const payments = await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${demo.created!.accountId}/test/payments`);
    expect(payments.json().data.map((p: { checkout_session: string }) => p.checkout_session)).toEqual([session.json().id]);
    const audit = await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${demo.created!.accountId}/audit-log`);
    expect(audit.json().data.map((e: { action: string }) => e.action)).toContain('setup_link.claim');
  });

  it('a setup link works once, is stored only as a hash, and stops working when a newer one is made or after 24 hours', async () => {
    const first = await createSetupLink(ctx.h.tillpoint.deps, { accountId: ctx.accountId });
    expect(JSON.stringify(await rows(ctx.db, 'SELECT * FROM setup_links'))).not.toContain(tokenOf(first.url));
    const second = await createSetupLink(ctx.h.tillpoint.deps, { accountId: ctx.accountId });
    expectError(await claim(first.url), 404, 'resource_missing', { param: 'id' });
    expect((await claim(second.url)).statusCode).toBe(201);
    expectError(await claim(second.url), 404, 'resource_missing', { param: 'id' });
    const late = await createSetupLink(ctx.h.tillpoint.deps, { accountId: ctx.accountId });
    ctx.h.clock.advance(24 * 60 * 60 * 1000 + 1000);
    expectError(await claim(late.url), 404, 'resource_missing', { param: 'id' });
    expect(await rows(ctx.db, `SELECT role FROM memberships WHERE account_id = $1`, [ctx.accountId])).toEqual([{ role: 'owner' }]);
  });

  it('refuses bad input to the setup form and changes nothing', async () => {
    const link = await createSetupLink(ctx.h.tillpoint.deps, { accountId: ctx.accountId });
    const pre = await preAuth(ctx.h);
    const url = `/dashboard/api/setup/${tokenOf(link.url)}`;
    expectError(await publicPost(ctx.h, pre, url, { email: 'not-an-email', password: PASSWORD, name: 'x' }), 400, 'parameter_invalid', { param: 'email' });
    expectError(await publicPost(ctx.h, pre, url, { email: uniqueEmail(), password: 'short', name: 'x' }), 400, 'parameter_invalid', { param: 'password' });
    expectError(await publicPost(ctx.h, pre, url, { email: uniqueEmail(), password: PASSWORD, name: 'x', role: 'owner' }), 400, 'parameter_unknown', {
      param: 'role',
    });
    expectError(await ctx.h.app.inject({ method: 'GET', url: '/dashboard/api/setup/nope' }), 400, 'parameter_invalid', { param: 'token' });
    expect(await rows(ctx.db, 'SELECT id FROM users')).toEqual([]);
    expect((await claim(link.url)).statusCode).toBe(201);
  });

  it('an existing user claims with their own password; a wrong one is refused and counted', async () => {
    const first = await claim((await createSetupLink(ctx.h.tillpoint.deps, { accountId: ctx.accountId })).url, 'keeper@shop.example');
    expect(first.statusCode).toBe(201);
    const second = await createSetupLink(ctx.h.tillpoint.deps, { accountId: ctx.accountId });
    const pre = await preAuth(ctx.h);
    const wrong = await publicPost(ctx.h, pre, `/dashboard/api/setup/${tokenOf(second.url)}`, {
      email: 'keeper@shop.example',
      password: 'not the password',
      name: 'K',
    });
    expectError(wrong, 400, 'parameter_invalid', { param: 'password' });
    expect(await rows(ctx.db, `SELECT subject FROM sign_in_failures WHERE subject = 'email:keeper@shop.example'`)).toHaveLength(1);
    const right = await publicPost(ctx.h, pre, `/dashboard/api/setup/${tokenOf(second.url)}`, { email: 'keeper@shop.example', password: PASSWORD, name: 'K' });
    expect(right.statusCode, right.body).toBe(201);
  });

  it('refuses sign-up without an invite: first pointing at the setup link, then at invitations', async () => {
    const pre = await preAuth(ctx.h);
    const body = () => ({ email: uniqueEmail(), password: PASSWORD, name: 'Stranger', business_name: 'Squatter Shop' });
    const unclaimed = expectError(await publicPost(ctx.h, pre, '/dashboard/api/sign-up', body()), 403, 'sign_up_closed');
    expect(unclaimed.message).toContain('tillpoint setup-link');
    expect((await claim((await createSetupLink(ctx.h.tillpoint.deps, { accountId: ctx.accountId })).url)).statusCode).toBe(201);
    const closed = expectError(await publicPost(ctx.h, pre, '/dashboard/api/sign-up', body()), 403, 'sign_up_closed');
    expect(closed.message).toContain('invite');
    expect(await rows(ctx.db, `SELECT name FROM accounts ORDER BY name`)).toEqual([{ name: 'Test Shop' }]);
    const session = await ctx.h.app.inject({ method: 'GET', url: '/dashboard/api/session' });
    expect(session.json()).toMatchObject({ user: null, sign_up: 'invite', password_reset_email: false });
  });

  it('lets people in by invitation while sign-up is closed', async () => {
    const claimed = await claim((await createSetupLink(ctx.h.tillpoint.deps, { accountId: ctx.accountId })).url);
    const owner: DashboardAgent = {
      cookie: String(claimed.headers['set-cookie']).match(/tp_session=[^;]+/)![0],
      csrf: claimed.json().csrf_token,
      userId: claimed.json().user.id,
      email: claimed.json().user.email,
      accountId: ctx.accountId,
    };
    const member = await addMember(ctx.h, owner, 'developer');
    expect(member.accountId).toBe(ctx.accountId);
  });

  it('an owner creates another account from the dashboard; a member who owns none may not', async () => {
    const claimed = await claim((await createSetupLink(ctx.h.tillpoint.deps, { accountId: ctx.accountId })).url);
    const owner = {
      cookie: String(claimed.headers['set-cookie']).match(/tp_session=[^;]+/)![0],
      csrf: claimed.json().csrf_token,
      userId: '',
      email: '',
      accountId: ctx.accountId,
    };
    const created = await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/accounts', { name: 'Second Roastery', default_currency: 'EUR' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Second Roastery', role: 'owner', default_currency: 'EUR' });
    const session = await dashboardCall(ctx.h, owner, 'GET', '/dashboard/api/session');
    expect(
      session
        .json()
        .accounts.map((a: { name: string }) => a.name)
        .sort(),
    ).toEqual(['Second Roastery', 'Test Shop']);
    const audit = await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${created.json().id}/audit-log`);
    expect(audit.json().data.map((e: { action: string }) => e.action)).toEqual(['account.create']);

    expectError(await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/accounts', { name: ' ' }), 400, 'parameter_invalid', { param: 'name' });
    const member = await addMember(ctx.h, owner, 'admin');
    expectError(await dashboardCall(ctx.h, member, 'POST', '/dashboard/api/accounts', { name: 'Mine now' }), 403, 'insufficient_role');
    expect(await rows(ctx.db, `SELECT name FROM accounts ORDER BY name`)).toEqual([{ name: 'Second Roastery' }, { name: 'Test Shop' }]);
  });
});

describe.each(testDatabases)('open sign-up, SIGNUP=open ($name)', (database) => {
  const ctx = useIntegration(database);

  it('anyone may create an account, as before', async () => {
    const owner = await signUpOwner(ctx.h, 'Open Shop');
    expect(owner.accountId).toMatch(/^acct_/);
    const h = await startHarness(ctx.db, { signUp: 'open' });
    try {
      const session = await h.app.inject({ method: 'GET', url: '/dashboard/api/session' });
      expect(session.json().sign_up).toBe('open');
    } finally {
      await h.app.close();
    }
  });
});
