import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from '../domain/ports';
import type { ProcessorSettingsDeps } from '../domain/processor-config';
import { TillpointError } from '../domain/errors';
import { newId } from '../domain/ids';
import { openPaymentLink } from '../domain/use-cases/open-payment-link';
import type { ErrorReporter } from '../telemetry/server-reporting';
import { checkoutPageHtml, checkoutPagePolicy, type CheckoutClientConfig } from './checkout-client-config';
import { errorBody, sendError } from './errors';
import { collectDocumentedRoutes } from './openapi';
import { apiReference } from './routes/api-reference';
import { checkoutApi } from './routes/checkout-api';
import { googlePayTokenRoutes } from './routes/google-pay-tokens';
import { checkoutExperimentRoutes } from './routes/checkout-experiments';
import { dashboard } from './dashboard/index';
import { merchantApi } from './routes/merchant-api';
import { ofrepRoutes } from './routes/ofrep';

export const BODY_LIMIT = 256 * 1024;

export interface HttpOptions {
  deps: Deps;
  /** Built web apps (`dist/web`); pages answer 503 until it exists. */
  webRoot: string;
  /** A pino logger config or instance; false for none. */
  logger?: object | boolean;
  /** Checked by `/readyz`. */
  isReady?: () => Promise<boolean>;
  /** Where 5xx answers and our-side declines are reported (error reporting may be off). */
  reporter?: ErrorReporter;
  /** What the checkout page is told at run time: its error-reporting DSN and its flag service. */
  clientConfig?: CheckoutClientConfig;
  /** For the dashboard's processor settings page; without it that page answers 500. */
  processorSettings?: ProcessorSettingsDeps;
}

const securityHeaders = {
  'x-content-type-options': 'nosniff',
  // The session id in the checkout URL is the shopper's credential: never leak it to other sites.
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** The HTTP server: merchant API, checkout API, pages and assets. */
export async function buildHttpServer(options: HttpOptions): Promise<FastifyInstance> {
  const { deps, webRoot } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    genReqId: () => newId('req', 16),
    requestIdHeader: false,
    trustProxy: true,
    // Long path parameters reach our handlers (and our 404), not the router's own error format.
    routerOptions: { maxParamLength: 1000 },
  });

  app.addHook('onSend', async (request, reply) => {
    reply.headers(securityHeaders);
    reply.header('request-id', request.id);
  });
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error, options.reporter));
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send(errorBody(new TillpointError('resource_missing', `No such route: ${request.method} ${request.url.split('?')[0]}`), request.id)),
  );

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ready = options.isReady ? await options.isReady().catch(() => false) : true;
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable' });
  });

  const documentedRoutes = collectDocumentedRoutes(app);
  await app.register(merchantApi, { deps });
  await app.register(checkoutApi, { deps });
  await app.register(apiReference, { routes: documentedRoutes, publicUrl: deps.publicUrl });
  await app.register(googlePayTokenRoutes, { deps });
  await app.register(checkoutExperimentRoutes, { deps });
  await app.register(ofrepRoutes, { deps });
  await app.register(dashboard, { deps, webRoot, processorSettings: options.processorSettings });

  const checkoutHtml = path.join(webRoot, 'checkout', 'index.html');
  let cachedHtml: string | null = null;
  const sendCheckoutPage = (_request: unknown, reply: import('fastify').FastifyReply) => {
    if (cachedHtml === null && existsSync(checkoutHtml)) cachedHtml = readFileSync(checkoutHtml, 'utf8');
    if (cachedHtml === null) {
      return reply.status(503).type('text/plain').send('The checkout page is not built yet: run `npm run build`.');
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', checkoutPagePolicy(options.clientConfig))
      .send(checkoutPageHtml(cachedHtml, options.clientConfig));
  };
  app.get('/c/:id', sendCheckoutPage);
  app.get('/c/:id/done', sendCheckoutPage);

  app.get('/l/:slug', async (request, reply) => {
    const { slug } = request.params as { slug: string };
    const session = await openPaymentLink(deps, { slug: String(slug).slice(0, 64) });
    return reply.redirect(`/c/${session.id}`, 303);
  });

  const assets = path.join(webRoot, 'assets');
  if (existsSync(assets)) {
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/assets/',
      immutable: true,
      maxAge: '365d',
      index: false,
      wildcard: true,
    });
  }
  return app;
}
