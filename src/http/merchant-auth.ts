import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../domain/deps';
import type { Actor, ApiKey } from '../domain/team/entities';
import { authenticateApiKey } from '../domain/api-guards/use-cases/authenticate-api-key';
import { errorBody } from './errors';
import { accessOf } from './define-route';
import { assertKeyPermits } from '../domain/team/api-key-permissions';
import type { Scope } from '../domain/shared/scope';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKey;
  }
}

/**
 * An `onRequest` hook: the request must carry a secret or restricted key, and a restricted one a
 * grant on the route's resource; the key is kept on `request.apiKey`. The
 * same round trip counts the request against the key's rate limit: past it, the answer is 429 with
 * Retry-After.
 */
export function requireSecretKey(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { key, rateLimited } = await authenticateApiKey(deps, { authorization: request.headers.authorization });
    request.apiKey = key;
    // A restricted key may only call routes whose resource it was granted (read for GET, write for
    // POST and DELETE), checked here for every route, before any handler runs: nothing changes.
    const contract = request.routeOptions?.config?.contract;
    if (contract?.resource) assertKeyPermits(key, contract.resource, accessOf(contract));
    if (rateLimited) {
      return reply.status(rateLimited.status).header('retry-after', String(rateLimited.retryAfterSeconds)).send(errorBody(rateLimited, request.id));
    }
  };
}

/** The account and mode the authenticated key acts in. */
export function scopeOf(request: FastifyRequest): Scope {
  const key = request.apiKey;
  if (!key) throw new Error('scopeOf called on a route without requireSecretKey');
  return { accountId: key.accountId, mode: key.mode };
}

/** The authenticated key as the audit log names it. */
export function keyActorOf(request: FastifyRequest): Actor {
  const key = request.apiKey;
  if (!key) throw new Error('keyActorOf called on a route without requireSecretKey');
  return { type: 'api_key', id: key.id, label: `${key.prefix}…${key.last4}`, ip: request.ip };
}
