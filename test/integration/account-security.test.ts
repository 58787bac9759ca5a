import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { PASSWORD, addMember, dashboardCall, preAuth, publicPost, signUpOwner, type DashboardAgent } from '../support/dashboard';
import { expectError, rows, useIntegration, type IntegrationContext } from '../support/integration';
import { startSmtpReceiver } from '../support/smtp-receiver';

const NEW_PASSWORD = 'a different long passphrase';

function signInCall(ctx: IntegrationContext, email: string, password: string, extra: object = {}, ip = '203.0.113.50') {
  return preAuth(ctx.h, ip).then((pre) => publicPost(ctx.h, pre, '/dashboard/api/sign-in', { email, password, ...extra }));
}

function agentOf(res: { headers: Record<string, unknown>; json(): any }, base: DashboardAgent): DashboardAgent {
  const cookie = String(res.headers['set-cookie']).match(/tp_session=[^;]+/)![0];
  return { ...base, cookie, csrf: res.json().csrf_token };
}

async function auditActions(ctx: IntegrationContext, owner: DashboardAgent, accountId = owner.accountId): Promise<string[]> {
  const res = await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${accountId}/audit-log?limit=100`);
  return res.json().data.map((e: { action: string }) => e.action);
}

const tokenOf = (url: string) => url.split('/').at(-1)!;

describe.each(testDatabases)('account security ($name)', (database) => {
  const ctx = useIntegration(database);
  const codeAt = (secret: string, steps = 0) =>
    new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ctx.h.clock.now().getTime() + steps * 30_000 });

  describe('password change', () => {
    it('needs the current password, ends the other sessions, keeps this one, and is audited', async () => {
      const owner = await signUpOwner(ctx.h, 'Password Shop');
      const laptop = agentOf(await signInCall(ctx, owner.email, PASSWORD), owner);
      const wrong = await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/password', { current_password: 'not it at all', new_password: NEW_PASSWORD });
      expectError(wrong, 400, 'parameter_invalid', { param: 'current_password' });
      expect(await rows(ctx.db, `SELECT subject FROM sign_in_failures WHERE subject = $1`, [`email:${owner.email}`])).toHaveLength(1);
      expectError(
        await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/password', { current_password: PASSWORD, new_password: 'short' }),
        400,
        'parameter_invalid',
        { param: 'new_password' },
      );
      const same = await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/password', { current_password: PASSWORD, new_password: PASSWORD });
      expectError(same, 400, 'parameter_invalid', { param: 'new_password' });
      expect(same.json().error.message).toBe('The new password is your current password: choose a different one');
      expectError(
        await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/password', { current_password: PASSWORD, new_password: NEW_PASSWORD, new: NEW_PASSWORD }),
        400,
        'parameter_unknown',
        { param: 'new' },
      );
      const changed = await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/password', { current_password: PASSWORD, new_password: NEW_PASSWORD });
      expect(changed.statusCode, changed.body).toBe(200);
      expect((await dashboardCall(ctx.h, owner, 'GET', '/dashboard/api/me/security')).statusCode).toBe(200);
      expectError(await dashboardCall(ctx.h, laptop, 'GET', '/dashboard/api/me/security'), 401, 'not_signed_in');
      expectError(await signInCall(ctx, owner.email, PASSWORD), 401, 'sign_in_failed');
      expect((await signInCall(ctx, owner.email, NEW_PASSWORD)).statusCode).toBe(200);
      expect(await auditActions(ctx, owner)).toContain('user.password_change');
    });

    it('a wrong current password is throttled like sign-in', async () => {
      const owner = await signUpOwner(ctx.h, 'Guessed Shop');
      for (let i = 0; i < 3; i++) {
        expectError(
          await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/password', { current_password: `guess ${i} guess`, new_password: NEW_PASSWORD }),
          400,
          'parameter_invalid',
          { param: 'current_password' },
        );
      }
      const throttled = await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/password', { current_password: PASSWORD, new_password: NEW_PASSWORD });
      expectError(throttled, 429, 'rate_limited');
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('password reset links', () => {
    it("an owner's link sets a member's password once, ends the member's sessions, and is audited", async () => {
      const owner = await signUpOwner(ctx.h, 'Reset Shop');
      const member = await addMember(ctx.h, owner, 'support');
      const made = await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/members/${member.userId}/password-reset-link`);
      expect(made.statusCode, made.body).toBe(201);
      const { url, email } = made.json();
      expect(email).toBe(member.email);
      expect(url).toMatch(/^http:\/\/checkout\.test\/dashboard\/reset-password\/pwr_[A-Za-z0-9]{32}$/);
      expect(JSON.stringify(await rows(ctx.db, 'SELECT * FROM password_resets'))).not.toContain(tokenOf(url));
      const preview = await ctx.h.app.inject({ method: 'GET', url: `/dashboard/api/password-reset/${tokenOf(url)}` });
      expect(preview.json()).toMatchObject({ email: member.email });

      const pre = await preAuth(ctx.h);
      expectError(await publicPost(ctx.h, pre, `/dashboard/api/password-reset/${tokenOf(url)}`, { password: 'short' }), 400, 'parameter_invalid', {
        param: 'password',
      });
      const reset = await publicPost(ctx.h, pre, `/dashboard/api/password-reset/${tokenOf(url)}`, { password: NEW_PASSWORD });
      expect(reset.statusCode, reset.body).toBe(200);
      expectError(await dashboardCall(ctx.h, member, 'GET', '/dashboard/api/me/security'), 401, 'not_signed_in');
      expect((await signInCall(ctx, member.email, NEW_PASSWORD)).statusCode).toBe(200);
      expectError(
        await publicPost(ctx.h, pre, `/dashboard/api/password-reset/${tokenOf(url)}`, { password: 'yet another passphrase' }),
        404,
        'resource_missing',
        {
          param: 'id',
        },
      );
      expect(await auditActions(ctx, owner)).toEqual(expect.arrayContaining(['user.password_reset_link', 'user.password_reset']));
    });

    it('expires after 24 hours; a newer link withdraws the older', async () => {
      const owner = await signUpOwner(ctx.h, 'Expiry Shop');
      const member = await addMember(ctx.h, owner, 'viewer');
      const make = async () =>
        (await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/members/${member.userId}/password-reset-link`)).json()
          .url as string;
      const first = await make();
      const second = await make();
      const pre = await preAuth(ctx.h);
      expectError(await publicPost(ctx.h, pre, `/dashboard/api/password-reset/${tokenOf(first)}`, { password: NEW_PASSWORD }), 404, 'resource_missing', {
        param: 'id',
      });
      ctx.h.clock.advance(24 * 60 * 60 * 1000 + 1);
      expectError(
        await publicPost(ctx.h, await preAuth(ctx.h), `/dashboard/api/password-reset/${tokenOf(second)}`, { password: NEW_PASSWORD }),
        404,
        'resource_missing',
        {
          param: 'id',
        },
      );
    });

    it('no one makes a link for someone with more rights, or in an account they do not manage', async () => {
      const owner = await signUpOwner(ctx.h, 'Guarded Shop');
      const admin = await addMember(ctx.h, owner, 'admin');
      const viewer = await addMember(ctx.h, owner, 'viewer');
      const link = (by: DashboardAgent, userId: string) =>
        dashboardCall(ctx.h, by, 'POST', `/dashboard/api/accounts/${owner.accountId}/members/${userId}/password-reset-link`);
      expectError(await link(admin, owner.userId), 403, 'insufficient_role');
      expectError(await link(viewer, admin.userId), 403, 'insufficient_role');
      expect((await link(admin, viewer.userId)).statusCode).toBe(201);
      // The viewer also owns an account of their own, which the admin does not manage.
      const own = await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/accounts', { name: 'Owner side business' });
      expect(own.statusCode).toBe(201);
      const invite = await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${own.json().id}/invites`, { role: 'viewer' });
      const accepted = await dashboardCall(ctx.h, viewer, 'POST', `/dashboard/api/invites/${tokenOf(invite.json().url)}/accept`);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expectError(await link(admin, viewer.userId), 403, 'insufficient_role');
      expect((await link(owner, viewer.userId)).statusCode).toBe(201);
      const stranger = await signUpOwner(ctx.h, 'Stranger Shop');
      expectError(await link(owner, stranger.userId), 404, 'resource_missing', { param: 'id' });
      expect(await rows(ctx.db, 'SELECT user_id FROM password_resets WHERE user_id = $1', [owner.userId])).toEqual([]);
    });
  });

  describe('two-step verification', () => {
    async function enrol(agent: DashboardAgent) {
      const offer = await dashboardCall(ctx.h, agent, 'POST', '/dashboard/api/me/second-factor/setup');
      expect(offer.statusCode, offer.body).toBe(200);
      const { secret, uri, qr_svg } = offer.json();
      expect(uri).toContain('otpauth://totp/Tillpoint:');
      expect(qr_svg).toContain('<svg');
      const enabled = await dashboardCall(ctx.h, agent, 'POST', '/dashboard/api/me/second-factor/enable', { code: codeAt(secret) });
      expect(enabled.statusCode, enabled.body).toBe(200);
      return { secret: secret as string, recoveryCodes: enabled.json().recovery_codes as string[] };
    }

    it('enrols with a first code, then sign-in asks for a code, refuses a wrong or replayed one, takes a recovery code once', async () => {
      const owner = await signUpOwner(ctx.h, 'TOTP Shop');
      const offer = (await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/second-factor/setup')).json();
      const wrongCode = String((Number(codeAt(offer.secret)) + 1) % 1_000_000).padStart(6, '0');
      expectError(await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/second-factor/enable', { code: wrongCode }), 400, 'parameter_invalid', {
        param: 'code',
      });
      expect((await signInCall(ctx, owner.email, PASSWORD)).statusCode).toBe(200);
      const { secret, recoveryCodes } = await enrol(owner);
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      const stored = JSON.stringify(await rows(ctx.db, 'SELECT * FROM recovery_codes'));
      for (const code of recoveryCodes) expect(stored).not.toContain(code);

      expectError(await signInCall(ctx, owner.email, PASSWORD), 401, 'second_factor_required');
      expectError(await signInCall(ctx, owner.email, 'wrong password', { code: codeAt(secret, 1) }), 401, 'sign_in_failed');
      expectError(await signInCall(ctx, owner.email, PASSWORD, { code: wrongCode }), 401, 'sign_in_failed', { param: 'code' });
      // The code that turned it on is not taken again; the next step's is.
      expectError(await signInCall(ctx, owner.email, PASSWORD, { code: codeAt(secret) }), 401, 'sign_in_failed', { param: 'code' });
      ctx.h.clock.advance(1500); // three failures in a row: the next attempt waits a second
      expect((await signInCall(ctx, owner.email, PASSWORD, { code: codeAt(secret, 1) })).statusCode).toBe(200);
      expectError(await signInCall(ctx, owner.email, PASSWORD, { code: codeAt(secret, 1) }), 401, 'sign_in_failed', { param: 'code' });

      const recovery = recoveryCodes[0]!.toUpperCase().replace('-', ' ');
      expect((await signInCall(ctx, owner.email, PASSWORD, { recovery_code: recovery })).statusCode).toBe(200);
      expectError(await signInCall(ctx, owner.email, PASSWORD, { recovery_code: recoveryCodes[0] }), 401, 'sign_in_failed', { param: 'recovery_code' });
      expect((await dashboardCall(ctx.h, owner, 'GET', '/dashboard/api/me/security')).json()).toEqual({ second_factor: true, recovery_codes_left: 9 });
      expect(await auditActions(ctx, owner)).toEqual(expect.arrayContaining(['user.second_factor_enable', 'user.recovery_code_use']));
    });

    it('wrong codes lock the email like wrong passwords', async () => {
      const owner = await signUpOwner(ctx.h, 'Locked TOTP Shop');
      const { secret } = await enrol(owner);
      const wrongCode = String((Number(codeAt(secret, 1)) + 1) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 3; i++) expectError(await signInCall(ctx, owner.email, PASSWORD, { code: wrongCode }), 401, 'sign_in_failed', { param: 'code' });
      const throttled = await signInCall(ctx, owner.email, PASSWORD, { code: codeAt(secret, 1) });
      expectError(throttled, 429, 'rate_limited');
    });

    it('turning it off needs the current password', async () => {
      const owner = await signUpOwner(ctx.h, 'Off Shop');
      await enrol(owner);
      expectError(
        await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/second-factor/disable', { password: 'not my password' }),
        400,
        'parameter_invalid',
        {
          param: 'password',
        },
      );
      expect((await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/second-factor/disable', { password: PASSWORD })).statusCode).toBe(200);
      expect((await signInCall(ctx, owner.email, PASSWORD)).statusCode).toBe(200);
      expect(await rows(ctx.db, 'SELECT * FROM recovery_codes')).toEqual([]);
      expect(await auditActions(ctx, owner)).toContain('user.second_factor_disable');
    });

    it('an account that requires it shuts its pages to members without it until they turn it on', async () => {
      const owner = await signUpOwner(ctx.h, 'Strict Shop');
      const member = await addMember(ctx.h, owner, 'developer');
      const requirement = (by: DashboardAgent, required: boolean) =>
        dashboardCall(ctx.h, by, 'POST', `/dashboard/api/accounts/${owner.accountId}/security`, { require_second_factor: required });
      expectError(await requirement(owner, true), 400, 'parameter_invalid', { param: 'require_second_factor' });
      await enrol(owner);
      expect((await requirement(owner, true)).json()).toEqual({ require_second_factor: true });
      const security = await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/security`);
      expect(security.json()).toEqual({ require_second_factor: true, members_with_second_factor: [owner.userId] });

      expectError(
        await dashboardCall(ctx.h, member, 'GET', `/dashboard/api/accounts/${owner.accountId}/test/payments`),
        403,
        'second_factor_enrolment_required',
      );
      expect((await dashboardCall(ctx.h, member, 'GET', '/dashboard/api/me/security')).statusCode).toBe(200);
      await enrol(member);
      expect((await dashboardCall(ctx.h, member, 'GET', `/dashboard/api/accounts/${owner.accountId}/test/payments`)).statusCode).toBe(200);
      expectError(await requirement(member, false), 403, 'insufficient_role');
      expect((await requirement(owner, false)).json()).toEqual({ require_second_factor: false });
      expect(await auditActions(ctx, owner)).toEqual(expect.arrayContaining(['account.second_factor_requirement.on', 'account.second_factor_requirement.off']));
    });
  });

  describe('signed-in sessions', () => {
    it("lists one's own sessions and signs another out at once; never another person's", async () => {
      const owner = await signUpOwner(ctx.h, 'Sessions Shop');
      const laptop = agentOf(
        await preAuth(ctx.h, '198.51.100.9').then((pre) =>
          ctx.h.app.inject({
            method: 'POST',
            url: '/dashboard/api/sign-in',
            payload: { email: owner.email, password: PASSWORD },
            remoteAddress: pre.ip,
            headers: { cookie: pre.cookie, 'x-csrf-token': pre.csrf, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' },
          }),
        ),
        owner,
      );
      const list = (await dashboardCall(ctx.h, owner, 'GET', '/dashboard/api/me/sessions')).json().data;
      expect(list).toHaveLength(2);
      expect(list.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
      const other = list.find((s: { current: boolean }) => !s.current);
      expect(other).toMatchObject({ ip: '198.51.100.9', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' });

      const stranger = await signUpOwner(ctx.h, 'Stranger Shop');
      expectError(await dashboardCall(ctx.h, stranger, 'POST', `/dashboard/api/me/sessions/${other.id}/revoke`), 404, 'resource_missing', { param: 'id' });
      expect((await dashboardCall(ctx.h, laptop, 'GET', '/dashboard/api/me/security')).statusCode).toBe(200);
      expectError(await dashboardCall(ctx.h, owner, 'POST', '/dashboard/api/me/sessions/not-a-session/revoke'), 400, 'parameter_invalid', { param: 'id' });

      expect((await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/me/sessions/${other.id}/revoke`)).statusCode).toBe(200);
      expectError(await dashboardCall(ctx.h, laptop, 'GET', '/dashboard/api/me/security'), 401, 'not_signed_in');
      expect((await dashboardCall(ctx.h, owner, 'GET', '/dashboard/api/me/sessions')).json().data).toHaveLength(1);
      expect(await auditActions(ctx, owner)).toContain('user.session_revoke');
    });
  });
});

describe.each(testDatabases)('password reset by email ($name)', (database) => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(async () => smtp?.close());
  // Read when the suite's server starts, after the receiver above is listening.
  const ctx = useIntegration(database, {
    get smtp() {
      return { url: smtp.url, from: 'Tillpoint <no-reply@checkout.test>' };
    },
  });

  it('emails a one-hour link to a user; answers the same for an unknown email and sends nothing', async () => {
    const owner = await signUpOwner(ctx.h, 'Mail Shop');
    const session = await ctx.h.app.inject({ method: 'GET', url: '/dashboard/api/session' });
    expect(session.json().password_reset_email).toBe(true);
    const arriving = smtp.next();
    const asked = await publicPost(ctx.h, await preAuth(ctx.h), '/dashboard/api/password-reset', { email: owner.email.toUpperCase() });
    expect(asked.statusCode, asked.body).toBe(202);
    const mail = await arriving;
    expect(mail.to).toEqual([owner.email]);
    expect(mail.from).toBe('no-reply@checkout.test');
    expect(mail.raw).toContain('Subject: Reset your Tillpoint password');
    const url = /http:\/\/checkout\.test\/dashboard\/reset-password\/(pwr_[A-Za-z0-9]{32})/.exec(mail.raw.replace(/=\r?\n/g, ''))![1]!;

    const before = smtp.received.length;
    const unknown = await publicPost(ctx.h, await preAuth(ctx.h), '/dashboard/api/password-reset', { email: 'nobody@shop.example' });
    expect(unknown.statusCode).toBe(202);
    expect(unknown.body).toBe(asked.body);

    ctx.h.clock.advance(59 * 60 * 1000);
    const reset = await publicPost(ctx.h, await preAuth(ctx.h), `/dashboard/api/password-reset/${url}`, { password: NEW_PASSWORD });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await signInCall(ctx, owner.email, NEW_PASSWORD)).statusCode).toBe(200);
    await ctx.h.tillpoint.deps.background.idle();
    expect(smtp.received.length).toBe(before);
  });

  it('a link sent by email lasts one hour, and requests are throttled per email', async () => {
    const owner = await signUpOwner(ctx.h, 'Throttled Mail Shop');
    const arriving = smtp.next();
    await publicPost(ctx.h, await preAuth(ctx.h), '/dashboard/api/password-reset', { email: owner.email });
    const token = /reset-password\/(pwr_[A-Za-z0-9]{32})/.exec((await arriving).raw.replace(/=\r?\n/g, ''))![1]!;
    ctx.h.clock.advance(60 * 60 * 1000 + 1000);
    expectError(await publicPost(ctx.h, await preAuth(ctx.h), `/dashboard/api/password-reset/${token}`, { password: NEW_PASSWORD }), 404, 'resource_missing', {
      param: 'id',
    });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof publicPost>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await publicPost(ctx.h, await preAuth(ctx.h, `192.0.2.${i}`), '/dashboard/api/password-reset', { email: owner.email });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 3)).toEqual([202, 202, 202]);
    expectError(last!, 429, 'rate_limited');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe.each(testDatabases)('password reset by email without SMTP_URL ($name)', (database) => {
  const ctx = useIntegration(database);
  it('is not offered, and the endpoint says how else to reset', async () => {
    const session = await ctx.h.app.inject({ method: 'GET', url: '/dashboard/api/session' });
    expect(session.json().password_reset_email).toBe(false);
    const res = await publicPost(ctx.h, await preAuth(ctx.h), '/dashboard/api/password-reset', { email: 'someone@shop.example' });
    expect(expectError(res, 404, 'resource_missing').message).toContain('tillpoint password-reset-link');
  });
});
