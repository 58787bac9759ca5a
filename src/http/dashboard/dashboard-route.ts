import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Mode } from '../../domain/shared/events';
import type { Permission } from '../../domain/team/permissions';
import type { Deps } from '../../domain/deps';
import type { Actor, DashboardSession, Membership, User } from '../../domain/team/entities';
import { authenticateDashboardSession } from '../../domain/team/use-cases/authenticate-dashboard-session';
import { authorizeMember } from '../../domain/team/use-cases/authorize-member';
import { defineRoute, type RouteBasics } from '../define-route';

/**
 * The dashboard's own API (cookie session + CSRF) is internal to our web app: no OpenAPI operation.
 * `response` is the schema of its answer (`dashboard/response-schemas.ts`), whence the pages' types.
 */
type RouteContract<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = RouteBasics<P, Q, B> & { response?: z.ZodType };
import { parseInput } from '../errors';
import type { Scope } from '../../domain/shared/scope';

export const SESSION_COOKIE = 'tp_session';
/** Before sign-in there is no session to hold the CSRF secret: this cookie does (HttpOnly). */
export const PRE_AUTH_CSRF_COOKIE = 'tp_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * Who may call a dashboard endpoint: anyone (sign-in, sign-up, invite preview), any signed-in user
 * (their own session and accounts), or a member of the account in the URL whose role carries the
 * permission. Mode-scoped endpoints also carry the mode in the URL, so test data is never read as live.
 */
export type DashboardAccess =
  | { kind: 'public' }
  | { kind: 'signed_in' }
  | { kind: 'account'; permission: Permission }
  | { kind: 'mode'; permission: Permission };

export type DashboardContract<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = RouteContract<P, Q, B> & {
  access: DashboardAccess;
};

export interface SignedIn {
  user: User;
  session: DashboardSession;
  actor: Actor;
}

export interface Member extends SignedIn {
  membership: Membership;
  accountId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    signedIn?: SignedIn;
    member?: Member;
    scope?: Scope;
    /**
     * Where @fastify/csrf-protection (in its session mode) finds the CSRF secret: the signed-in
     * session's (stored with it), else the pre-sign-in `tp_csrf` cookie's. Set by `useCsrfSecret`.
     */
    session: { csrfSecret?: string | undefined } | null;
  }
}

/** Points the CSRF check and `reply.generateCsrf()` at the secret of this browser's session. */
export function useCsrfSecret(request: FastifyRequest, signedIn: { session: DashboardSession } | null) {
  request.session = { csrfSecret: signedIn ? signedIn.session.csrfSecret : request.cookies[PRE_AUTH_CSRF_COOKIE] };
}

/** Path parameters every account endpoint has; mode endpoints add `mode`. */
export const accountParam = { account_id: z.string().regex(/^acct_[A-Za-z0-9]{1,40}$/, 'must be an account id') };
export const modeParam = { mode: z.enum(['test', 'live']) };
const accessParams = z.object({ account_id: accountParam.account_id, mode: modeParam.mode.optional() });

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type Input<P, Q, B> = { params: Parsed<P>; query: Parsed<Q>; body: Parsed<B>; request: FastifyRequest; reply: FastifyReply };

/** A dashboard endpoint as data: the route table is what the role × action matrix test walks. */
export interface DashboardEndpoint {
  contract: DashboardContract<z.ZodType, z.ZodType, z.ZodType>;
  register(app: FastifyInstance): void;
}

function endpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  contract: DashboardContract<P, Q, B>,
  handler: (input: Input<P, Q, B>) => Promise<unknown>,
): DashboardEndpoint {
  return {
    contract: contract as unknown as DashboardContract<z.ZodType, z.ZodType, z.ZodType>,
    register: (app) => defineRoute(app, { ...contract, internal: true }, handler),
  };
}

/** An endpoint anyone may call (state-changing ones still need the pre-sign-in CSRF token). */
export function publicEndpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  contract: RouteContract<P, Q, B>,
  handler: (input: Input<P, Q, B>) => Promise<unknown>,
) {
  return endpoint({ ...contract, access: { kind: 'public' } }, handler);
}

/** An endpoint about the signed-in user themselves. */
export function userEndpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  contract: RouteContract<P, Q, B>,
  handler: (input: Input<P, Q, B> & { signedIn: SignedIn }) => Promise<unknown>,
) {
  return endpoint({ ...contract, access: { kind: 'signed_in' } }, (input) => handler({ ...input, signedIn: input.request.signedIn! }));
}

/** An endpoint on an account (`/dashboard/api/accounts/:account_id/…`) needing a permission. */
export function accountEndpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  contract: RouteContract<P, Q, B> & { permission: Permission },
  handler: (input: Input<P, Q, B> & { member: Member }) => Promise<unknown>,
) {
  const { permission, ...rest } = contract;
  return endpoint({ ...rest, access: { kind: 'account', permission } }, (input) => handler({ ...input, member: input.request.member! }));
}

/** An endpoint on one mode of an account (`/dashboard/api/accounts/:account_id/:mode/…`). */
export function modeEndpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  contract: RouteContract<P, Q, B> & { permission: Permission },
  handler: (input: Input<P, Q, B> & { member: Member; scope: Scope }) => Promise<unknown>,
) {
  const { permission, ...rest } = contract;
  return endpoint({ ...rest, access: { kind: 'mode', permission } }, (input) =>
    handler({ ...input, member: input.request.member!, scope: input.request.scope! }),
  );
}

const contractOf = (request: FastifyRequest) => request.routeOptions.config.contract as DashboardContract<z.ZodType, z.ZodType, z.ZodType> | undefined;
const writes = (request: FastifyRequest) => request.method !== 'GET' && request.method !== 'HEAD';

/**
 * The dashboard's access checks, run in this order before any handler: session (401), CSRF token on
 * every state-changing request (403, by @fastify/csrf-protection against the session's secret),
 * membership of the account in the URL (404), role (403).
 */
export function registerDashboardAccess(app: FastifyInstance, deps: Deps) {
  app.addHook('preHandler', async (request, reply) => {
    const contract = contractOf(request);
    if (!contract?.access) return;
    reply.header('cache-control', 'no-store');
    const token = request.cookies[SESSION_COOKIE];
    if (contract.access.kind === 'public') {
      if (!writes(request)) return;
      // A signed-in browser (someone opening a reset or setup link) holds its session's token instead.
      const signedIn = token ? await authenticateDashboardSession(deps, { token }).catch(() => null) : null;
      useCsrfSecret(request, signedIn);
      return;
    }
    const { session, user } = await authenticateDashboardSession(deps, { token });
    const actor: Actor = { type: 'user', id: user.id, label: user.email, ip: request.ip };
    request.signedIn = { user, session, actor };
    useCsrfSecret(request, request.signedIn);
  });

  app.addHook('preHandler', (request, reply, done) => {
    if (!contractOf(request)?.access || !writes(request)) return done();
    app.csrfProtection(request, reply, done);
  });

  app.addHook('preHandler', async (request) => {
    const access = contractOf(request)?.access;
    if (!access || access.kind === 'public' || access.kind === 'signed_in') return;
    const params = parseInput(accessParams, request.params ?? {});
    const membership = await authorizeMember(deps, {
      userId: request.signedIn!.user.id,
      accountId: params.account_id,
      permission: access.permission,
    });
    request.member = { ...request.signedIn!, membership, accountId: membership.accountId };
    if (access.kind === 'mode') {
      request.scope = { accountId: membership.accountId, mode: params.mode as Mode };
    }
  });
}
