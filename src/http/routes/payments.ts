import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/ports';
import { getPayment } from '../../domain/use-cases/get-payment';
import { listPayments } from '../../domain/use-cases/list-payments';
import { paymentView } from '../../domain/views';
import { parseInput } from '../errors';
import { scopeOf } from '../merchant-auth';
import { idParams, listPaymentsQuery } from '../schemas';

/** `/v1/payments`. */
export async function paymentRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.get('/v1/payments', async (request) => {
    const query = parseInput(listPaymentsQuery, request.query ?? {});
    const page = await listPayments(deps, {
      scope: scopeOf(request),
      limit: query.limit,
      startingAfter: query.starting_after,
      checkoutSessionId: query.checkout_session,
    });
    return { object: 'list', url: '/v1/payments', has_more: page.hasMore, data: page.data.map(paymentView) };
  });

  app.get('/v1/payments/:id', async (request) => {
    const { id } = parseInput(idParams, request.params);
    return paymentView(await getPayment(deps, { scope: scopeOf(request), id }));
  });
}
