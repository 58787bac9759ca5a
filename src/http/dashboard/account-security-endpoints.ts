import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { changePassword } from '../../domain/team/use-cases/change-password';
import { claimSetupLink } from '../../domain/team/use-cases/claim-setup-link';
import { createOwnedAccount } from '../../domain/team/use-cases/create-owned-account';
import { createPasswordResetLink } from '../../domain/team/use-cases/create-password-reset-link';
import { disableSecondFactor } from '../../domain/team/use-cases/disable-second-factor';
import { enableSecondFactor } from '../../domain/team/use-cases/enable-second-factor';
import { getAccountSecurity } from '../../domain/team/use-cases/get-account-security';
import { getOwnSecurity } from '../../domain/team/use-cases/get-own-security';
import { getPasswordReset } from '../../domain/team/use-cases/get-password-reset';
import { getSetupLink } from '../../domain/team/use-cases/get-setup-link';
import { listOwnSessions } from '../../domain/team/use-cases/list-own-sessions';
import { requestPasswordResetEmail } from '../../domain/team/use-cases/request-password-reset-email';
import { resetPassword } from '../../domain/team/use-cases/reset-password';
import { revokeOwnSession } from '../../domain/team/use-cases/revoke-own-session';
import { setSecondFactorRequirement } from '../../domain/team/use-cases/set-second-factor-requirement';
import { startSecondFactorSetup } from '../../domain/team/use-cases/start-second-factor-setup';
import { ThrottledError } from '../../domain/team/access-rules';
import { unixTime } from '../views/resource';
import { accountEndpoint, accountParam, publicEndpoint, userEndpoint, type DashboardEndpoint } from './dashboard-route';
import { startSession, userAgentOf } from './session-endpoints';

const tag = 'Dashboard: access and security';
const setupParams = z.strictObject({ token: z.string().regex(/^setup_[A-Za-z0-9]{32}$/, 'must be a setup link token') });
const resetParams = z.strictObject({ token: z.string().regex(/^pwr_[A-Za-z0-9]{32}$/, 'must be a password reset token') });
const password = z.string().max(200);
const base = '/dashboard/api/accounts/:account_id';
const accountParams = z.strictObject(accountParam);

/** Answers a throttled request with `Retry-After`, as sign-in does. */
async function withRetryAfter<T>(reply: { header(name: string, value: string): unknown }, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ThrottledError) reply.header('retry-after', String(error.retryAfterSeconds));
    throw error;
  }
}

/**
 * Claiming an install (setup links), another account for an owner, and a person's own security:
 * password change and reset, second factor, signed-in sessions; an account's second-factor rule.
 */
export function accountSecurityEndpoints(deps: Deps): DashboardEndpoint[] {
  return [
    publicEndpoint({ method: 'GET', url: '/dashboard/api/setup/:token', tag, summary: 'What a setup link claims', params: setupParams }, async ({ params }) => {
      const link = await getSetupLink(deps, { token: params.token });
      return { account_name: link.accountName, expires_at: unixTime(link.expiresAt) };
    }),

    publicEndpoint(
      {
        method: 'POST',
        url: '/dashboard/api/setup/:token',
        tag,
        summary: 'Use a setup link: become an owner of its account and sign in',
        params: setupParams,
        body: z.strictObject({ email: z.string().max(254), password, name: z.string().max(100) }),
        status: 201,
      },
      async ({ params, body, request, reply }) =>
        withRetryAfter(reply, async () => {
          const started = await claimSetupLink(deps, {
            token: params.token,
            email: body.email,
            name: body.name,
            password: body.password,
            ip: request.ip,
            userAgent: userAgentOf(request),
          });
          return { ...(await startSession(deps, reply, started)), account_id: started.accountId };
        }),
    ),

    publicEndpoint(
      { method: 'GET', url: '/dashboard/api/password-reset/:token', tag, summary: 'Whom a password reset link is for', params: resetParams },
      async ({ params }) => {
        const reset = await getPasswordReset(deps, { token: params.token });
        return { email: reset.email, expires_at: unixTime(reset.expiresAt) };
      },
    ),

    publicEndpoint(
      {
        method: 'POST',
        url: '/dashboard/api/password-reset/:token',
        tag,
        summary: 'Use a password reset link: set a new password (every session of the user ends)',
        params: resetParams,
        body: z.strictObject({ password }),
      },
      async ({ params, body, request }) => {
        const done = await resetPassword(deps, { token: params.token, password: body.password, ip: request.ip });
        return { email: done.email, reset: true };
      },
    ),

    publicEndpoint(
      {
        method: 'POST',
        url: '/dashboard/api/password-reset',
        tag,
        summary: 'Email a password reset link (when SMTP_URL is set); the same answer whether the email has a user or not',
        body: z.strictObject({ email: z.string().max(254) }),
        status: 202,
      },
      async ({ body, request, reply }) =>
        withRetryAfter(reply, async () => {
          await requestPasswordResetEmail(deps, { email: body.email, ip: request.ip });
          return { requested: true };
        }),
    ),

    userEndpoint(
      {
        method: 'POST',
        url: '/dashboard/api/accounts',
        tag,
        summary: 'Create another account, with the signed-in owner as its owner',
        body: z.strictObject({ name: z.string().max(100), default_currency: z.string().max(3).optional() }),
        status: 201,
      },
      async ({ body, signedIn }) => {
        const account = await createOwnedAccount(deps, { actor: signedIn.actor, name: body.name, defaultCurrency: body.default_currency });
        return { id: account.id, name: account.name, role: 'owner', default_currency: account.defaultCurrency };
      },
    ),

    userEndpoint(
      { method: 'GET', url: '/dashboard/api/me/security', tag, summary: "The signed-in person's second factor and recovery codes left" },
      async ({ signedIn }) => {
        const own = await getOwnSecurity(deps, { userId: signedIn.user.id });
        return { second_factor: own.secondFactor, recovery_codes_left: own.recoveryCodesLeft };
      },
    ),

    userEndpoint(
      {
        method: 'POST',
        url: '/dashboard/api/me/password',
        tag,
        summary: 'Change the password (the current one required); other sessions end',
        body: z.strictObject({ current_password: password, new_password: password }),
      },
      async ({ body, signedIn, reply }) =>
        withRetryAfter(reply, async () => {
          await changePassword(deps, {
            user: signedIn.user,
            sessionId: signedIn.session.id,
            actor: signedIn.actor,
            currentPassword: body.current_password,
            newPassword: body.new_password,
          });
          return { changed: true };
        }),
    ),

    userEndpoint(
      { method: 'POST', url: '/dashboard/api/me/second-factor/setup', tag, summary: 'Offer a new authenticator app secret (QR code and text)' },
      async ({ signedIn }) => {
        const offer = await startSecondFactorSetup(deps, { user: signedIn.user });
        return { secret: offer.secret, uri: offer.uri, qr_svg: offer.qrSvg };
      },
    ),

    userEndpoint(
      {
        method: 'POST',
        url: '/dashboard/api/me/second-factor/enable',
        tag,
        summary: 'Confirm the authenticator app with a code; answers the recovery codes, once',
        body: z.strictObject({ code: z.string().max(10) }),
      },
      async ({ body, signedIn }) => {
        const enabled = await enableSecondFactor(deps, { user: signedIn.user, actor: signedIn.actor, code: body.code });
        return { second_factor: true, recovery_codes: enabled.recoveryCodes };
      },
    ),

    userEndpoint(
      {
        method: 'POST',
        url: '/dashboard/api/me/second-factor/disable',
        tag,
        summary: 'Turn the second factor off (the current password required)',
        body: z.strictObject({ password }),
      },
      async ({ body, signedIn, reply }) =>
        withRetryAfter(reply, async () => {
          await disableSecondFactor(deps, { user: signedIn.user, actor: signedIn.actor, password: body.password });
          return { second_factor: false };
        }),
    ),

    userEndpoint({ method: 'GET', url: '/dashboard/api/me/sessions', tag, summary: "The signed-in person's sessions, newest first" }, async ({ signedIn }) => {
      const sessions = await listOwnSessions(deps, { userId: signedIn.user.id });
      return {
        object: 'list',
        data: sessions.map((s) => ({
          id: s.id,
          created: unixTime(s.createdAt),
          expires_at: unixTime(s.expiresAt),
          ip: s.ip,
          user_agent: s.userAgent ?? null,
          current: s.id === signedIn.session.id,
        })),
      };
    }),

    userEndpoint(
      {
        method: 'POST',
        url: '/dashboard/api/me/sessions/:id/revoke',
        tag,
        summary: 'Sign one of your browsers out',
        params: z.strictObject({ id: z.string().regex(/^dsess_[A-Za-z0-9]{1,40}$/, 'must be a session id') }),
      },
      async ({ params, signedIn }) => {
        await revokeOwnSession(deps, { actor: signedIn.actor, sessionId: params.id });
        return { id: params.id, revoked: true };
      },
    ),

    accountEndpoint(
      {
        method: 'GET',
        url: `${base}/security`,
        tag,
        summary: 'Whether the account requires a second factor, and who has one',
        params: accountParams,
        permission: 'team.read',
      },
      async ({ member }) => {
        const security = await getAccountSecurity(deps, { accountId: member.accountId });
        return { require_second_factor: security.requireSecondFactor, members_with_second_factor: security.membersWithSecondFactor };
      },
    ),

    accountEndpoint(
      {
        method: 'POST',
        url: `${base}/security`,
        tag,
        summary: 'Require (or stop requiring) a second factor of every member',
        params: accountParams,
        body: z.strictObject({ require_second_factor: z.boolean() }),
        permission: 'team.manage',
      },
      async ({ body, member }) => {
        const set = await setSecondFactorRequirement(deps, { by: member.membership, actor: member.actor, required: body.require_second_factor });
        return { require_second_factor: set.required };
      },
    ),

    accountEndpoint(
      {
        method: 'POST',
        url: `${base}/members/:user_id/password-reset-link`,
        tag,
        summary: 'Make a one-time password reset link for a member (shown once, valid 24 hours)',
        params: z.strictObject({ ...accountParam, user_id: z.string().regex(/^user_[A-Za-z0-9]{1,40}$/) }),
        permission: 'team.manage',
        status: 201,
      },
      async ({ params, member }) => {
        const link = await createPasswordResetLink(deps, { by: { membership: member.membership, actor: member.actor }, userId: params.user_id });
        return { url: link.url, email: link.email, expires_at: unixTime(link.expiresAt) };
      },
    ),
  ];
}
