import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/ports';
import { getPayment } from '../../domain/use-cases/get-payment';
import { listPayments } from '../../domain/use-cases/list-payments';
import { paymentView } from '../../domain/views';
import { defineRoute } from '../define-route';
import { scopeOf } from '../merchant-auth';
import { idParams, listPaymentsQuery } from '../schemas';

const tag = 'Payments';

/** `/v1/payments`. */
export async function paymentRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    { method: 'GET', url: '/v1/payments', tag, summary: 'List payments, newest first', query: listPaymentsQuery },
    async ({ query, request }) => {
      const page = await listPayments(deps, {
        scope: scopeOf(request),
        limit: query.limit,
        startingAfter: query.starting_after,
        checkoutSessionId: query.checkout_session,
      });
      return { object: 'list', url: '/v1/payments', has_more: page.hasMore, data: page.data.map(paymentView) };
    },
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/payments/:id', tag, summary: 'Retrieve a payment', params: idParams },
    async ({ params, request }) => paymentView(await getPayment(deps, { scope: scopeOf(request), id: params.id })),
  );
}
