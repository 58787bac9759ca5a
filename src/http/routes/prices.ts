import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { createPrice } from '../../domain/sessions/use-cases/create-price';
import { getPrice } from '../../domain/sessions/use-cases/get-price';
import { listPrices } from '../../domain/sessions/use-cases/list-prices';
import { updatePrice } from '../../domain/sessions/use-cases/update-price';
import { defineRoute } from '../define-route';
import { priceListSchema, priceSchema } from '../response-schemas';
import { createPriceBody, listPricesQuery, priceInputOf, updatePriceBody } from '../lifecycle-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { listBody, pageRequest } from '../pagination';
import { idParams } from '../schemas';
import { priceView } from '../views/product';

const tag = 'Products';

/** `/v1/prices`: what products cost, once or every interval. */
export async function priceRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/prices',
      resource: 'prices',
      tag,
      summary: 'Create a price of a product: one-time, or recurring with `recurring`',
      body: createPriceBody,
      response: priceSchema,
    },
    async ({ body, request }) =>
      priceView(await createPrice(deps, { scope: scopeOf(request), actor: keyActorOf(request), productId: body.product, input: priceInputOf(body) })),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/prices',
      resource: 'prices',
      tag,
      summary: 'List prices, newest first',
      description: 'Filter by `product`, `active` and `type` (`one_time` or `recurring`).',
      query: listPricesQuery,
      response: priceListSchema,
    },
    async ({ query, request }) => {
      const filter = { productId: query.product, active: query.active === undefined ? undefined : query.active === 'true', type: query.type };
      return listBody('/v1/prices', await listPrices(deps, { scope: scopeOf(request), page: pageRequest(query), filter }), priceView);
    },
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/prices/:id', resource: 'prices', tag, summary: 'Retrieve a price', params: idParams, response: priceSchema },
    async ({ params, request }) => priceView(await getPrice(deps, { scope: scopeOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/prices/:id',
      resource: 'prices',
      tag,
      summary: 'Archive a price or change its nickname or metadata; its amount never changes',
      params: idParams,
      body: updatePriceBody,
      response: priceSchema,
    },
    async ({ params, body, request }) =>
      priceView(await updatePrice(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id, changes: body })),
  );
}
