import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { createProduct } from '../../domain/sessions/use-cases/create-product';
import { getProduct } from '../../domain/sessions/use-cases/get-product';
import { listProducts } from '../../domain/sessions/use-cases/list-products';
import { updateProduct } from '../../domain/sessions/use-cases/update-product';
import { defineRoute } from '../define-route';
import { productListSchema, productSchema } from '../response-schemas';
import { createProductBody, pageQuery, productInputOf, updateProductBody } from '../lifecycle-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { listBody, pageRequest } from '../pagination';
import { idParams } from '../schemas';
import { productView } from '../views/product';

const tag = 'Products';

/** `/v1/products`. */
export async function productRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/products',
      resource: 'products',
      tag,
      summary: 'Create a product, optionally with its default price',
      body: createProductBody,
      response: productSchema,
    },
    async ({ body, request }) => {
      const { product, defaultPrice } = await createProduct(deps, {
        scope: scopeOf(request),
        actor: keyActorOf(request),
        input: productInputOf(body),
      });
      return productView(product, defaultPrice);
    },
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/products', resource: 'products', tag, summary: 'List products, newest first', query: pageQuery, response: productListSchema },
    async ({ query, request }) =>
      listBody('/v1/products', await listProducts(deps, { scope: scopeOf(request), page: pageRequest(query) }), (item) =>
        productView(item.product, item.defaultPrice),
      ),
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/products/:id', resource: 'products', tag, summary: 'Retrieve a product', params: idParams, response: productSchema },
    async ({ params, request }) => {
      const { product, defaultPrice } = await getProduct(deps, { scope: scopeOf(request), id: params.id });
      return productView(product, defaultPrice);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/products/:id',
      resource: 'products',
      tag,
      summary: 'Update a product: its name, description or default price, or archive it (`active: false`)',
      params: idParams,
      body: updateProductBody,
      response: productSchema,
    },
    async ({ params, body, request }) => {
      const { product, defaultPrice } = await updateProduct(deps, {
        scope: scopeOf(request),
        actor: keyActorOf(request),
        id: params.id,
        changes: { name: body.name, description: body.description, active: body.active, defaultPriceId: body.default_price },
      });
      return productView(product, defaultPrice);
    },
  );
}
