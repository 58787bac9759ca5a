import type { FastifyInstance } from 'fastify';
import type { Deps } from '../domain/deps';
import { claimIdempotencyKey } from '../domain/api-guards/use-cases/claim-idempotency-key';
import { settleIdempotencyKey } from '../domain/api-guards/use-cases/settle-idempotency-key';
import { scopeOf } from './merchant-auth';
import type { StoredResponse } from '../domain/api-guards/ports';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request holds and must record its answer under. */
    idempotencyKey?: string;
    /** The stored answer this request replays. */
    idempotentReplay?: StoredResponse;
  }
}

/** Headers that are part of an answer and replayed with it; `request-id` names the first request. */
const replayedHeaders = ['content-type', 'request-id'];

/**
 * `Idempotency-Key` on every POST of the plugin it is added to (design.md §7): runs after
 * authentication and body parsing, before the handler, so every present and future POST route
 * gets it. Without the header a request runs as usual.
 */
export function addIdempotency(app: FastifyInstance, deps: Deps): void {
  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined) return;
    const key = Array.isArray(header) ? header.join(', ') : header;
    const claim = await claimIdempotencyKey(deps, {
      scope: scopeOf(request),
      key,
      method: request.method,
      url: request.url,
      body: request.body,
    });
    if (claim.outcome === 'replay') {
      request.idempotentReplay = claim.response;
      return reply.status(claim.response.status).headers(claim.response.headers).send(claim.response.body);
    }
    request.idempotencyKey = key;
  });

  // Runs after the server-wide onSend, so it sees the final headers and may restore the replayed ones.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.idempotentReplay) {
      reply.headers(request.idempotentReplay.headers).header('idempotent-replayed', 'true');
      return payload;
    }
    const key = request.idempotencyKey;
    if (!key) return payload;
    const scope = scopeOf(request);
    // An internal error or an unreachable database (503) may be transient: free the key so the same
    // request can be retried. Either way the answer stands; a write the database cannot take now is
    // made when it is back (settle-idempotency-key.ts).
    if (reply.statusCode === 500 || reply.statusCode === 503 || typeof payload !== 'string') {
      await settleIdempotencyKey(deps, { scope, key, response: null }).catch(() => undefined);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of replayedHeaders) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    await settleIdempotencyKey(deps, { scope, key, response: { status: reply.statusCode, headers, body: payload } });
    return payload;
  });
}
