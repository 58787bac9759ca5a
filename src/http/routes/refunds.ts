import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { createRefund } from '../../domain/payments/use-cases/create-refund';
import { getRefund } from '../../domain/payments/use-cases/get-refund';
import { listRefunds } from '../../domain/payments/use-cases/list-refunds';
import { defineRoute } from '../define-route';
import { refundListSchema, refundSchema } from '../response-schemas';
import { createRefundBody, listRefundsQuery } from '../lifecycle-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { listBody, pageRequest } from '../pagination';
import { idParams } from '../schemas';
import { refundView } from '../views/refund';

const tag = 'Refunds';

/** `/v1/refunds`. */
export async function refundRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/refunds',
      resource: 'refunds',
      tag,
      summary: 'Refund a succeeded payment, fully or in part',
      body: createRefundBody,
      response: refundSchema,
      errors: [404, 502, 504],
    },
    async ({ body, request }) =>
      refundView(
        await createRefund(deps, {
          scope: scopeOf(request),
          actor: keyActorOf(request),
          paymentId: body.payment,
          amount: body.amount,
          reason: body.reason,
          createdBy: request.apiKey?.id ?? null,
        }),
      ),
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/refunds', resource: 'refunds', tag, summary: 'List refunds, newest first', query: listRefundsQuery, response: refundListSchema },
    async ({ query, request }) =>
      listBody('/v1/refunds', await listRefunds(deps, { scope: scopeOf(request), page: pageRequest(query), paymentId: query.payment }), refundView),
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/refunds/:id', resource: 'refunds', tag, summary: 'Retrieve a refund', params: idParams, response: refundSchema },
    async ({ params, request }) => refundView(await getRefund(deps, { scope: scopeOf(request), id: params.id })),
  );
}
