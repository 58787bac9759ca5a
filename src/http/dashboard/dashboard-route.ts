import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { TillpointError } from '../../domain/shared/errors';
import type { Mode } from '../../domain/shared/events';
import type { Permission } from '../../domain/team/permissions';
import type { Deps } from '../../domain/deps';
import type { Actor, DashboardSession, Membership, User } from '../../domain/team/entities';
import { authenticateDashboardSession } from '../../domain/team/use-cases/authenticate-dashboard-session';
import { authorizeMember } from '../../domain/team/use-cases/authorize-member';
import { defineRoute, type RouteBasics } from '../define-route';

/** The dashboard's own API (cookie session + CSRF) is internal to our web app: no OpenAPI operation. */
type RouteContract<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = RouteBasics<P, Q, B>;
import { parseInput } from '../errors';
import { parseCookies } from './cookies';
import type { Scope } from '../../domain/shared/scope';

export const SESSION_COOKIE = 'tp_session';
/** Before sign-in there is no session to hold a CSRF token: this cookie does (double submit). */
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
  }
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
  return endpoint({ ...contract, access: { kind: 'signed_in' } }, (input) =>
    handler({ ...input, signedIn: input.request.signedIn! }),
  );
}

/** An endpoint on an account (`/dashboard/api/accounts/:account_id/…`) needing a permission. */
export function accountEndpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  contract: RouteContract<P, Q, B> & { permission: Permission },
  handler: (input: Input<P, Q, B> & { member: Member }) => Promise<unknown>,
) {
  const { permission, ...rest } = contract;
  return endpoint({ ...rest, access: { kind: 'account', permission } }, (input) =>
    handler({ ...input, member: input.request.member! }),
  );
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

/** Compares two tokens in time independent of where they differ. */
function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const csrfRefused = () =>
  new TillpointError('csrf_token_invalid', 'This request needs the X-CSRF-Token header of your session; reload the page');

/**
 * The dashboard's one access check, run before any handler: session (401), CSRF token on every
 * state-changing request (403), membership of the account in the URL (404), role (403).
 */
export function dashboardAccessHook(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const contract = request.routeOptions.config.contract as DashboardContract<z.ZodType, z.ZodType, z.ZodType> | undefined;
    if (!contract?.access) return;
    reply.header('cache-control', 'no-store');
    const writes = request.method !== 'GET' && request.method !== 'HEAD';
    const cookies = parseCookies(request.headers.cookie);
    const presented = request.headers[CSRF_HEADER];
    const csrf = typeof presented === 'string' ? presented : undefined;
    if (contract.access.kind === 'public') {
      if (!writes || sameToken(csrf, cookies[PRE_AUTH_CSRF_COOKIE])) return;
      // A signed-in browser (someone opening a reset or setup link) has its session's token instead.
      const signedIn = cookies[SESSION_COOKIE] ? await authenticateDashboardSession(deps, { token: cookies[SESSION_COOKIE] }).catch(() => null) : null;
      if (!signedIn || !sameToken(csrf, signedIn.session.csrfToken)) throw csrfRefused();
      return;
    }
    const { session, user } = await authenticateDashboardSession(deps, { token: cookies[SESSION_COOKIE] });
    if (writes && !sameToken(csrf, session.csrfToken)) throw csrfRefused();
    const actor: Actor = { type: 'user', id: user.id, label: user.email, ip: request.ip };
    request.signedIn = { user, session, actor };
    if (contract.access.kind === 'signed_in') return;

    const params = parseInput(accessParams, request.params ?? {});
    const membership = await authorizeMember(deps, {
      userId: user.id,
      accountId: params.account_id,
      permission: contract.access.permission,
    });
    request.member = { ...request.signedIn, membership, accountId: membership.accountId };
    if (contract.access.kind === 'mode') {
      request.scope = { accountId: membership.accountId, mode: params.mode as Mode };
    }
  };
}
