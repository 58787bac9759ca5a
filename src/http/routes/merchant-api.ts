import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/ports';
import { requireSecretKey } from '../merchant-auth';
import { checkoutSessionRoutes } from './checkout-sessions';
import { eventRoutes } from './events';
import { paymentLinkRoutes } from './payment-links';
import { paymentRoutes } from './payments';
import { productRoutes } from './products';
import { refundRoutes } from './refunds';

/** The merchant API (`/v1`): every route needs a secret key of the account and mode it acts in. */
export async function merchantApi(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.addHook('onRequest', requireSecretKey(deps));
  await app.register(checkoutSessionRoutes, { deps });
  await app.register(paymentRoutes, { deps });
  await app.register(refundRoutes, { deps });
  await app.register(eventRoutes, { deps });
  await app.register(productRoutes, { deps });
  await app.register(paymentLinkRoutes, { deps });
}
