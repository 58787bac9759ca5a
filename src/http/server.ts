import { registerEmbedScript } from './embed-script';
import { processorNotificationRoutes } from './routes/processor-notifications';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Deps } from '../domain/deps';
import type { ProcessorSettingsDeps } from '../domain/processors/processor-config';
import { TillpointError } from '../domain/shared/errors';
import { newId } from '../domain/shared/ids';
import type { ErrorReporter } from '../adapters/telemetry/server-reporting';
import { checkoutPagePolicy, type CheckoutClientConfig } from './checkout-client-config';
import { registerCheckoutPage } from './checkout-page/index';
import { billingPages } from './billing-pages';
import { openCheckoutPageIntegrity, type CheckoutPageIntegrity } from './checkout-page/page-integrity-monitor';
import { cspReportRoutes } from './routes/csp-reports';
import { BODY_LIMIT, errorBody, sendError } from './errors';
import { refuseUnstorableInput } from './storable-input';
import { utf8BodyText } from './utf8-input';
import { collectDocumentedRoutes } from './openapi';
import { apiReference } from './routes/api-reference';
import { checkoutApi } from './routes/checkout-api';
import { googlePayTokenRoutes } from './routes/google-pay-tokens';
import { threeDSecureTestRoutes } from './routes/three-d-secure-tests';
import { localPaymentRoutes } from './routes/local-payments';
import { checkoutExperimentRoutes } from './routes/checkout-experiments';
import { dashboard } from './dashboard/index';
import { merchantApi } from './routes/merchant-api';
import { ofrepRoutes } from './routes/ofrep';
import { paymentLinkVisitRoutes } from './routes/payment-link-visits';
import { registerOperationRoutes, type OperationsOptions } from './routes/operations';
import { registerApplePayDomainRoute } from './routes/apple-pay-domain';

export { BODY_LIMIT };

declare module 'fastify' {
  interface FastifyInstance {
    /** The checkout page's integrity: inventory, fingerprint, change check (the scheduler runs `check`). */
    checkoutPageIntegrity: CheckoutPageIntegrity;
  }
}

export interface HttpOptions {
  deps: Deps;
  /** Built web apps (`dist/web`); pages answer 503 until it exists. */
  webRoot: string;
  /** A pino logger config or instance; false for none. */
  logger?: object | boolean;
  /** Checked by `/readyz` when no `operations.readiness` is given. */
  isReady?: () => Promise<boolean>;
  /** `/readyz`'s full checks, `/metrics` and its token (docs/operations.md). */
  operations?: OperationsOptions;
  /** Where 5xx answers and our-side declines are reported (error reporting may be off). */
  reporter?: ErrorReporter;
  /** What the checkout page is told at run time: its error-reporting DSN and its flag service. */
  clientConfig?: CheckoutClientConfig;
  /** For the dashboard's processor settings page; without it that page answers 500. */
  processorSettings?: ProcessorSettingsDeps;
  /** Send Strict-Transport-Security (config `hsts`: PUBLIC_URL is https and HSTS is not off). */
  hsts?: boolean;
  /** The Apple Pay domain association file's content (APPLE_PAY_DOMAIN_ASSOCIATION), or none. */
  applePayDomainAssociation?: string | null;
}

const securityHeaders = {
  'x-content-type-options': 'nosniff',
  // The session id in the checkout URL is the shopper's credential: never leak it to other sites.
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** Marks the server's own `app.inject` requests (with a per-process secret): not logged, not counted. */
const INTERNAL_REQUEST_HEADER = 'x-tillpoint-internal';

declare module 'fastify' {
  interface FastifyRequest {
    /** The server's own request (the page-integrity monitor's fetches), not a client's. */
    internal: boolean;
  }
}

/** `/v1` and everything under it: the merchant API (its answers, errors and 404s alike). */
const isMerchantApi = (url: string) => /^\/v1(?:[/?#]|$)/.test(url);

/** One year, subdomains included: browsers then refuse plain HTTP to this host (docs/reliability.md). */
export const HSTS_HEADER = 'max-age=31536000; includeSubDomains';

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
    // One log line per request (below), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // A path that is not valid percent-encoded UTF-8 (`/v1/payments/%ff`) or has an overlong
    // parameter gets our error envelope. Such an answer passes no hooks: its headers are set here.
    frameworkErrors: (error, request, reply) => {
      reply.headers(securityHeaders).header('request-id', request.id);
      if (isMerchantApi(request.url)) reply.header('cache-control', 'no-store');
      if (options.hsts) reply.header('strict-transport-security', HSTS_HEADER);
      return sendError(request, reply, error, options.reporter);
    },
  });

  // An empty JSON body is no body: a POST that takes none may carry `Content-Type: application/json`.
  // Anything else is decoded as strict UTF-8 (utf8-input.ts), then goes to Fastify's own parser
  // (prototype poisoning refused). `text/plain` is decoded the same way (no route takes it).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (body.length === 0) return done(null, undefined);
    return parseJson(request, utf8BodyText(body), done);
  });
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, body, done) => done(null, utf8BodyText(body)));
  // Every route, ours or a plugin's: no NUL or unpaired surrogate reaches a handler (or the database).
  app.addHook('preValidation', refuseUnstorableInput);

  // The page-integrity monitor fetches the page and every asset through `app.inject` (at start and
  // hourly); those requests carry this per-process secret, which no remote client can know. They are
  // decided internal once, here, and neither logged nor counted as shoppers' requests.
  const internalToken = Buffer.from(randomBytes(32).toString('hex'));
  app.decorateRequest('internal', false);
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers[INTERNAL_REQUEST_HEADER];
    const presented = typeof header === 'string' ? Buffer.from(header) : null;
    request.internal = presented !== null && presented.length === internalToken.length && timingSafeEqual(presented, internalToken);
    done();
  });

  app.addHook('onResponse', (request, reply, done) => {
    if (request.internal) return done();
    request.log.info({ method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime }, 'request completed');
    done();
  });

  app.addHook('onSend', async (request, reply) => {
    reply.headers(securityHeaders);
    // An embedded checkout page framed by its account's allowed origins: its CSP frame-ancestors decides.
    if (/frame-ancestors (?!'none')/.test(String(reply.getHeader('content-security-policy') ?? ''))) reply.removeHeader('x-frame-options');
    if (options.hsts) reply.header('strict-transport-security', HSTS_HEADER);
    reply.header('request-id', request.id);
    // The merchant API's answers carry payment data and shoppers' emails: no cache may keep them.
    if (isMerchantApi(request.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error, options.reporter));
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(errorBody(new TillpointError('resource_missing', `No such route: ${request.method} ${request.url.split('?')[0]}`), request.id)),
  );

  const isReady = options.isReady;
  registerOperationRoutes(app, {
    ...(isReady ? { readiness: { check: async () => ({ ready: await isReady() }) } } : {}),
    ...options.operations,
  });
  registerApplePayDomainRoute(app, options.applePayDomainAssociation ?? null);

  // PCI DSS 6.4.3 / 11.6.1: SRI, the script inventory and the page's fingerprint, from the build.
  const pageIntegrity = await openCheckoutPageIntegrity({
    webRoot,
    policy: () => pagePolicy(),
    serve: (url) => app.inject({ method: 'GET', url, headers: { [INTERNAL_REQUEST_HEADER]: internalToken.toString() } }),
    reporter: options.reporter,
  });
  const pagePolicy = (nonce?: string, frameAncestors?: readonly string[]) =>
    checkoutPagePolicy(options.clientConfig, {
      nonce,
      frameAncestors,
      scriptHashes: pageIntegrity.scriptHashSource ? [pageIntegrity.scriptHashSource] : [],
    });
  app.decorate('checkoutPageIntegrity', pageIntegrity);

  const documentedRoutes = collectDocumentedRoutes(app);
  await app.register(merchantApi, { deps, pageSecurity: { pageIntegrity, pagePolicy } });
  await app.register(checkoutApi, { deps });
  await app.register(apiReference, { routes: documentedRoutes, publicUrl: deps.publicUrl });
  await app.register(googlePayTokenRoutes, { deps });
  await app.register(threeDSecureTestRoutes, { deps });
  await app.register(localPaymentRoutes, { deps });
  await app.register(checkoutExperimentRoutes, { deps });
  await app.register(ofrepRoutes, { deps });
  await app.register(dashboard, { deps, webRoot, processorSettings: options.processorSettings, pageSecurity: { pageIntegrity, pagePolicy } });
  await app.register(cspReportRoutes, { deps });
  await app.register(processorNotificationRoutes, { deps });

  // Server-rendered per session; its head markup carries SRI and the integrity import map, and its
  // CSP both the response's nonce and the import map's hash.
  registerCheckoutPage(app, {
    deps,
    webRoot,
    clientConfig: options.clientConfig,
    secureHead: (html) => pageIntegrity.secureHtml(html),
    policy: (nonce, frameAncestors) => pagePolicy(nonce, frameAncestors),
    // Not awaited: the shopper's page does not wait for the bookkeeping, which retries on the next page if it fails.
    onServed: (accountId) =>
      void pageIntegrity
        .served(deps, accountId)
        .catch((error: unknown) => app.log.error({ err: error, accountId }, 'recording the first checkout page baseline failed')),
  });

  // The customer portal and hosted invoice pages (docs/billing.md).
  await app.register(billingPages, { deps });

  // Someone who opens the instance's address wants the merchant's side, not a JSON 404.
  app.get('/', async (_request, reply) => reply.redirect('/dashboard', 302));

  registerEmbedScript(app, deps.publicUrl);

  await app.register(paymentLinkVisitRoutes, { deps });

  const assets = path.join(webRoot, 'assets');
  if (existsSync(assets)) {
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/assets/',
      immutable: true,
      maxAge: '365d',
      index: false,
      wildcard: true,
      // Built with a .br and a .gz beside every text file (vite.config.ts): sent by Accept-Encoding.
      preCompressed: true,
    });
  }
  return app;
}
