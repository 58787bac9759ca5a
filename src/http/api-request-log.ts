import type { FastifyInstance } from 'fastify';
import type { Deps } from '../domain/ports';
import { recordApiRequest } from '../domain/use-cases/record-api-request';

declare module 'fastify' {
  interface FastifyRequest {
    /** The catalogue code of an error answer, for the request log. */
    errorCode?: string;
  }
}

/**
 * Notes every authenticated merchant API call in the request log (Developers page): method, path
 * without its query, status and error code. Bodies and queries are never read here: they may hold
 * customer data. Written after the answer has gone, so the log never slows or fails a call.
 */
export function recordApiRequests(app: FastifyInstance, deps: Deps) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      const code = /^\{"error":\{"type":"[a-z_]+","code":"([a-z_]+)"/.exec(payload)?.[1];
      if (code) request.errorCode = code;
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const key = request.apiKey;
    if (!key) return;
    await recordApiRequest(deps, {
      accountId: key.accountId,
      mode: key.mode,
      keyId: key.id,
      method: request.method,
      path: request.url.split('?')[0]!.slice(0, 300),
      status: reply.statusCode,
      errorCode: request.errorCode ?? null,
      requestId: request.id,
    }).catch((error) => request.log.error({ err: error }, 'could not record the API request'));
  });
}
