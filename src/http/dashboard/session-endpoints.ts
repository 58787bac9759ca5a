import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { dashboardSessionLifetime, type StartedSession } from '../../domain/team/dashboard-session';
import type { Deps } from '../../domain/deps';
import type { User } from '../../domain/team/entities';
import { acceptInvite } from '../../domain/team/use-cases/accept-invite';
import { authenticateDashboardSession } from '../../domain/team/use-cases/authenticate-dashboard-session';
import { getInvite } from '../../domain/team/use-cases/get-invite';
import { listUserAccounts } from '../../domain/team/use-cases/list-user-accounts';
import { SignInThrottledError, signIn } from '../../domain/team/use-cases/sign-in';
import { signOut } from '../../domain/team/use-cases/sign-out';
import { signUp } from '../../domain/team/use-cases/sign-up';
import { unixTime } from '../views/resource';
import { accountsView } from '../views/team';
import { PRE_AUTH_CSRF_COOKIE, SESSION_COOKIE, publicEndpoint, useCsrfSecret, userEndpoint, type DashboardEndpoint } from './dashboard-route';
import { sessionStateSchema } from './response-schemas';

const tag = 'Dashboard: session';
const inviteParams = z.strictObject({ token: z.string().regex(/^inv_[A-Za-z0-9]{32}$/, 'must be an invite token') });
const password = z.string().max(200);

/** Who is signed in, their accounts, and the CSRF token the page sends with every write. */
export async function signedInView(deps: Deps, user: User, csrfToken: string) {
  const accounts = await listUserAccounts(deps, { userId: user.id });
  return { user: { id: user.id, email: user.email, name: user.name }, accounts: accountsView(accounts), csrf_token: csrfToken };
}

/**
 * Sets the new session's cookie (and drops the pre-sign-in CSRF cookie); answers who is signed in,
 * with a CSRF token made from the new session's secret.
 */
export async function startSession(deps: Deps, reply: FastifyReply, started: StartedSession & { user: User }) {
  reply.setCookie(SESSION_COOKIE, started.token, { maxAge: dashboardSessionLifetime.absoluteMs / 1000 });
  reply.clearCookie(PRE_AUTH_CSRF_COOKIE);
  useCsrfSecret(reply.request, started);
  return signedInView(deps, started.user, reply.generateCsrf());
}

/** The browser's User-Agent, kept so a person can tell their sessions apart. */
export const userAgentOf = (request: FastifyRequest) => {
  const agent = request.headers['user-agent'];
  return typeof agent === 'string' ? agent.slice(0, 300) : null;
};

/** Session and user endpoints: who is signed in, sign-up, sign-in, sign-out, invites. */
export function sessionEndpoints(deps: Deps): DashboardEndpoint[] {
  return [
    publicEndpoint(
      { method: 'GET', url: '/dashboard/api/session', response: sessionStateSchema, tag, summary: 'Who is signed in, their accounts and CSRF token' },
      async ({ request, reply }) => {
        const signedIn = await authenticateDashboardSession(deps, { token: request.cookies[SESSION_COOKIE] }).catch(() => null);
        useCsrfSecret(request, signedIn);
        if (signedIn) return signedInView(deps, signedIn.user, reply.generateCsrf());
        // Signed out: a secret for the tp_csrf cookie when the browser has none yet.
        const csrf = reply.generateCsrf();
        const secret = request.session!.csrfSecret!;
        if (secret !== request.cookies[PRE_AUTH_CSRF_COOKIE]) reply.setCookie(PRE_AUTH_CSRF_COOKIE, secret);
        // What the signed-out pages offer: a sign-up link only when anyone may sign up, a reset form
        // only when email can be sent.
        return { user: null, accounts: [], csrf_token: csrf, sign_up: deps.access.signUp, password_reset_email: deps.access.mailer !== null };
      },
    ),

    publicEndpoint(
      {
        method: 'POST',
        url: '/dashboard/api/sign-up',
        tag,
        summary: 'Create a user and sign in: with a new account (as owner) or by an invite',
        body: z.strictObject({
          email: z.string().max(254),
          password,
          name: z.string().max(100),
          business_name: z.string().max(100).optional(),
          invite_token: inviteParams.shape.token.optional(),
        }),
        status: 201,
      },
      async ({ body, request, reply }) => {
        const started = await signUp(deps, {
          email: body.email,
          password: body.password,
          name: body.name,
          businessName: body.business_name,
          inviteToken: body.invite_token,
          ip: request.ip,
          userAgent: userAgentOf(request),
        });
        return { ...(await startSession(deps, reply, started)), account_id: started.accountId };
      },
    ),

    publicEndpoint(
      {
        method: 'POST',
        url: '/dashboard/api/sign-in',
        tag,
        summary: 'Sign in with email and password, and a code when the user has a second factor',
        body: z.strictObject({
          email: z.string().max(254),
          password,
          code: z.string().max(10).optional(),
          recovery_code: z.string().max(20).optional(),
        }),
      },
      async ({ body, request, reply }) => {
        try {
          const started = await signIn(deps, {
            email: body.email,
            password: body.password,
            code: body.code,
            recoveryCode: body.recovery_code,
            ip: request.ip,
            userAgent: userAgentOf(request),
          });
          return await startSession(deps, reply, started);
        } catch (error) {
          if (error instanceof SignInThrottledError) reply.header('retry-after', String(error.retryAfterSeconds));
          throw error;
        }
      },
    ),

    userEndpoint({ method: 'POST', url: '/dashboard/api/sign-out', tag, summary: 'End this session' }, async ({ signedIn, reply }) => {
      await signOut(deps, { sessionId: signedIn.session.id });
      reply.clearCookie(SESSION_COOKIE);
      return { signed_out: true };
    }),

    publicEndpoint(
      { method: 'GET', url: '/dashboard/api/invites/:token', tag, summary: 'What an invite link offers', params: inviteParams },
      async ({ params }) => {
        const invite = await getInvite(deps, { token: params.token });
        return { account_name: invite.accountName, role: invite.role, expires_at: unixTime(invite.expiresAt) };
      },
    ),

    userEndpoint(
      {
        method: 'POST',
        url: '/dashboard/api/invites/:token/accept',
        tag,
        summary: 'Join the inviting account',
        params: inviteParams,
      },
      async ({ params, signedIn }) => {
        const membership = await acceptInvite(deps, { token: params.token, actor: signedIn.actor });
        return { account_id: membership.accountId, role: membership.role };
      },
    ),
  ];
}
