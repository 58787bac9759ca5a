import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrfProtection from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TillpointError } from '../../domain/shared/errors';
import type { Deps } from '../../domain/deps';
import { errorBody } from '../errors';
import { CSRF_HEADER, registerDashboardAccess, type DashboardEndpoint } from './dashboard-route';
import { modeEndpoints } from './mode-endpoints';
import { sessionEndpoints } from './session-endpoints';
import { accountEndpoints } from './team-endpoints';
import { accountSecurityEndpoints } from './account-security-endpoints';
import { catalogEndpoints } from './catalog-endpoints';
import { flagDashboardEndpoints } from './flag-dashboard-endpoints';
import { paymentActionEndpoints } from './payment-action-endpoints';
import { disputeEndpoints } from './dispute-endpoints';
import { customerEndpoints } from './customer-endpoints';
import { billingEndpoints } from './billing-endpoints';
import { processorEndpoints } from './processor-endpoints';
import { webhookDashboardEndpoints } from './webhook-dashboard-endpoints';
import type { ProcessorSettingsDeps } from '../../domain/processors/processor-config';
import { pageSecurityEndpoints } from './page-security-endpoints';
import { searchEndpoints } from './search-endpoints';
import type { PageSecurity } from '../routes/checkout-page-scripts';

/**
 * Every dashboard endpoint. Pages that arrive later (refunds, webhooks, processor settings, flags)
 * add their endpoint list here; each names its permission from src/domain/permissions.ts, and the
 * role × action matrix test walks this list.
 */
export function dashboardEndpoints(deps: Deps, processorSettings?: ProcessorSettingsDeps, pageSecurity?: PageSecurity): DashboardEndpoint[] {
  return [
    ...sessionEndpoints(deps),
    ...accountEndpoints(deps),
    ...accountSecurityEndpoints(deps),
    ...modeEndpoints(deps),
    ...paymentActionEndpoints(deps),
    ...disputeEndpoints(deps),
    ...customerEndpoints(deps),
    ...billingEndpoints(deps),
    ...catalogEndpoints(deps),
    ...webhookDashboardEndpoints(deps),
    ...processorEndpoints(processorSettings),
    ...flagDashboardEndpoints(deps),
    ...pageSecurityEndpoints(deps, pageSecurity),
    ...searchEndpoints(deps),
  ];
}

const pageSecurityPolicy =
  "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** The dashboard: its JSON API under /dashboard/api and its single-page app at /dashboard. */
export async function dashboard(
  app: FastifyInstance,
  {
    deps,
    webRoot,
    processorSettings,
    pageSecurity,
  }: { deps: Deps; webRoot: string; processorSettings?: ProcessorSettingsDeps | undefined; pageSecurity?: PageSecurity },
) {
  // Every cookie the dashboard sets: HttpOnly (scripts never read it), SameSite=Lax (not sent on
  // cross-site posts), limited to /dashboard, Secure when the install is served over https.
  await app.register(fastifyCookie, {
    parseOptions: { path: '/dashboard', httpOnly: true, sameSite: 'lax', secure: deps.publicUrl.startsWith('https:') },
  });
  // The secret lives in the dashboard session (`request.session`, set by the access check); the
  // page sends a token made from it in the X-CSRF-Token header, and only there.
  app.decorateRequest('session', null);
  await app.register(fastifyCsrfProtection, {
    sessionPlugin: '@fastify/session',
    sessionKey: 'csrfSecret',
    getToken: (request) => {
      const token = request.headers[CSRF_HEADER];
      return typeof token === 'string' ? token : undefined;
    },
    logLevel: 'debug',
  });
  registerDashboardAccess(app, deps);
  for (const endpoint of dashboardEndpoints(deps, processorSettings, pageSecurity)) endpoint.register(app);

  const html = path.join(webRoot, 'dashboard', 'index.html');
  let cached: string | null = null;
  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith('/dashboard/api/')) {
      const missing = new TillpointError('resource_missing', `No such route: ${request.method} ${request.url.split('?')[0]}`);
      return reply.status(404).send(errorBody(missing, request.id));
    }
    if (cached === null && existsSync(html)) cached = readFileSync(html, 'utf8');
    if (cached === null) return reply.status(503).type('text/plain').send('The dashboard is not built yet: run `npm run build`.');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('content-security-policy', pageSecurityPolicy).send(cached);
  };
  app.get('/dashboard', sendPage);
  app.get('/dashboard/*', sendPage);
}
