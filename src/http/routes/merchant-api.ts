import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { addIdempotency } from '../idempotency';
import { recordApiRequests } from '../api-request-log';
import { requireSecretKey } from '../merchant-auth';
import type { AnyRouteContract } from '../define-route';
import { checkoutSessionRoutes } from './checkout-sessions';
import { eventRoutes } from './events';
import { paymentLinkRoutes } from './payment-links';
import { experimentRoutes } from './experiments';
import { flagRoutes } from './flags';
import { paymentRoutes } from './payments';
import { webhookEndpointRoutes } from './webhook-endpoints';
import { productRoutes } from './products';
import { priceRoutes } from './prices';
import { customerRoutes } from './customers';
import { refundRoutes } from './refunds';
import { disputeRoutes } from './disputes';
import { couponRoutes } from './coupons';
import { billingRoutes } from './billing';
import { billingPortalRoutes } from './billing-portal';
import { checkoutPageScriptRoutes, type PageSecurity } from './checkout-page-scripts';

/**
 * The merchant API (`/v1`): every route needs a secret key of the account and mode it acts in, is
 * rate limited per account and mode, and every POST honours `Idempotency-Key`.
 */
export async function merchantApi(app: FastifyInstance, { deps, pageSecurity }: { deps: Deps; pageSecurity?: PageSecurity }) {
  // Authentication and the rate limit (one round trip), then idempotency and the request log; each
  // write's use case writes its own audit line (api-audit.ts).
  // Tells the OpenAPI document which routes take the secret key (hooks below apply to all of them).
  // Every route names the resource a restricted key needs a grant on; one that does not cannot be
  // registered, so no route slips past the check in requireSecretKey.
  app.addHook('onRoute', (route) => {
    const contract = (route.config as { contract?: AnyRouteContract } | undefined)?.contract;
    if (!contract?.resource) throw new Error(`${route.method} ${route.url}: a merchant API route must name its resource (RouteBasics.resource)`);
    route.config = { ...route.config, secretKeyAuth: true };
  });
  app.addHook('onRequest', requireSecretKey(deps));
  addIdempotency(app, deps);
  recordApiRequests(app, deps);
  await app.register(checkoutSessionRoutes, { deps });
  await app.register(paymentRoutes, { deps });
  await app.register(webhookEndpointRoutes, { deps });
  await app.register(refundRoutes, { deps });
  await app.register(disputeRoutes, { deps });
  await app.register(eventRoutes, { deps });
  await app.register(productRoutes, { deps });
  await app.register(priceRoutes, { deps });
  await app.register(customerRoutes, { deps });
  await app.register(paymentLinkRoutes, { deps });
  await app.register(couponRoutes, { deps });
  await app.register(billingRoutes, { deps });
  await app.register(billingPortalRoutes, { deps });
  await app.register(flagRoutes, { deps });
  await app.register(experimentRoutes, { deps });
  if (pageSecurity) await app.register(checkoutPageScriptRoutes, { deps, security: pageSecurity });
}
