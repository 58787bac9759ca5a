import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/ports';
import { recordApiRequests } from '../api-request-log';
import { requireSecretKey } from '../merchant-auth';
import { checkoutSessionRoutes } from './checkout-sessions';
import { paymentRoutes } from './payments';

/** The merchant API (`/v1`): every route needs a secret key of the account and mode it acts in. */
export async function merchantApi(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.addHook('onRequest', requireSecretKey(deps));
  recordApiRequests(app, deps);
  await app.register(checkoutSessionRoutes, { deps });
  await app.register(paymentRoutes, { deps });
}
