import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../domain/deps';
import type { Actor, ApiKey } from '../domain/team/entities';
import { authenticateApiKey } from '../domain/api-guards/use-cases/authenticate-api-key';
import { errorBody } from './errors';
import type { Scope } from '../domain/shared/scope';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKey;
  }
}

/**
 * An `onRequest` hook: the request must carry a secret key; it is kept on `request.apiKey`. The
 * same round trip counts the request against the key's rate limit: past it, the answer is 429 with
 * Retry-After.
 */
export function requireSecretKey(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { key, rateLimited } = await authenticateApiKey(deps, { authorization: request.headers.authorization });
    request.apiKey = key;
    if (rateLimited) {
      return reply
        .status(rateLimited.status)
        .header('retry-after', String(rateLimited.retryAfterSeconds))
        .send(errorBody(rateLimited, request.id));
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
