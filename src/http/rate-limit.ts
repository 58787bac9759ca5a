import type { FastifyInstance } from 'fastify';
import type { Deps } from '../domain/ports';
import { checkRateLimit, RateLimitedError } from '../domain/use-cases/check-rate-limit';
import { errorBody } from './errors';
import { scopeOf } from './merchant-auth';

/** Counts every authenticated request of the plugin; past the limit answers 429 with Retry-After. */
export function addRateLimit(app: FastifyInstance, deps: Deps): void {
  app.addHook('onRequest', async (request, reply) => {
    try {
      await checkRateLimit(deps, { scope: scopeOf(request) });
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      return reply
        .status(error.status)
        .header('retry-after', String(error.retryAfterSeconds))
        .send(errorBody(error, request.id));
    }
  });
}
