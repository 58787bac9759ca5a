import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TillpointError } from '../../domain/shared/errors';
import { errorBody } from '../errors';

/** What the operations routes read; each part is optional so tests can build a bare server. */
export interface OperationsOptions {
  /** `/readyz`: a full report (database, migrations, shutdown), or just yes / no. */
  readiness?: { check(): Promise<{ ready: boolean; checks?: object }> };
  /** `/metrics` answers 404 without it. */
  metrics?: {
    observeRequest(request: { method: string; route: string; statusCode: number; seconds: number }): void;
    scrape(): Promise<{ contentType: string; body: string }>;
  };
  /** METRICS_TOKEN: `/metrics` then wants `Authorization: Bearer <token>`. */
  metricsToken?: string | null;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `/healthz` (the process answers), `/readyz` (it should get traffic) and `/metrics` (Prometheus).
 * Registered on the root instance, not as an encapsulated plugin, so the timing hook sees every
 * route. None of them sits under the merchant API, so its keys and rate limit never apply.
 */
export function registerOperationRoutes(app: FastifyInstance, options: OperationsOptions) {
  const { metrics, readiness } = options;
  if (metrics) {
    app.addHook('onResponse', async (request, reply) => {
      if (request.internal) return;
      // The route template (`/v1/payments/:id`), never the raw URL: ids would explode the series.
      metrics.observeRequest({
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        statusCode: reply.statusCode,
        seconds: reply.elapsedTime / 1000,
      });
    });
  }

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const report = readiness ? await readiness.check().catch(() => ({ ready: false })) : { ready: true };
    return reply
      .status(report.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: report.ready ? 'ready' : 'unavailable', ...('checks' in report && report.checks ? { checks: report.checks } : {}) });
  });

  const expected = options.metricsToken ? digest(options.metricsToken) : null;
  app.get('/metrics', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!metrics) return reply.status(404).send(errorBody(new TillpointError('resource_missing', 'Metrics are not enabled on this server'), request.id));
    if (expected) {
      const header = request.headers.authorization;
      const presented = /^Bearer (\S+)$/i.exec(header ?? '')?.[1];
      if (!presented || !timingSafeEqual(digest(presented), expected)) {
        const error = header
          ? new TillpointError('api_key_invalid', 'Invalid metrics token: send Authorization: Bearer <METRICS_TOKEN>')
          : new TillpointError('api_key_missing', 'The metrics need a token: send Authorization: Bearer <METRICS_TOKEN>');
        return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').send(errorBody(error, request.id));
      }
    }
    const { contentType, body } = await metrics.scrape();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
}
