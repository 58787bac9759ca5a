import type { Deps } from '../../domain/deps';
import { createPaymentLink } from '../../domain/sessions/use-cases/create-payment-link';
import { createProduct } from '../../domain/sessions/use-cases/create-product';
import { listPaymentLinks } from '../../domain/sessions/use-cases/list-payment-links';
import { listProducts } from '../../domain/sessions/use-cases/list-products';
import { updatePaymentLink } from '../../domain/sessions/use-cases/update-payment-link';
import {
  createPaymentLinkBody,
  createProductBody,
  pageQuery,
  paymentLinkItemsOf,
  paymentLinkOptionsOf,
  productInputOf,
  updatePaymentLinkBody,
} from '../lifecycle-schemas';
import { listBody, pageRequest } from '../pagination';
import { paymentLinkListSchema, paymentLinkSchema, productListSchema, productSchema } from '../response-schemas';
import { paymentLinkView } from '../views/payment-link';
import { productView } from '../views/product';
import { modeEndpoint, type DashboardEndpoint } from './dashboard-route';
import { base, objectParams, scopeParams } from './mode-endpoints';

const tag = 'Dashboard: products and payment links';

/** Products with their prices, and payment links made of them: the merchant API's use cases. */
export function catalogEndpoints(deps: Deps): DashboardEndpoint[] {
  const linkView = (link: Parameters<typeof paymentLinkView>[0]) => paymentLinkView(link, deps.publicUrl);
  return [
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/products`,
        tag,
        summary: 'Products with their default price, newest first',
        response: productListSchema,
        params: scopeParams,
        query: pageQuery,
        permission: 'payment_links.read',
      },
      async ({ query, scope }) =>
        listBody('products', await listProducts(deps, { scope, page: pageRequest(query) }), (p) => productView(p.product, p.defaultPrice)),
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/products`,
        tag,
        summary: 'Create a product with its price',
        response: productSchema,
        params: scopeParams,
        body: createProductBody,
        permission: 'payment_links.manage',
        status: 201,
      },
      async ({ body, scope, member }) => {
        const { product, defaultPrice } = await createProduct(deps, {
          scope,
          actor: member.actor,
          input: productInputOf(body),
        });
        return productView(product, defaultPrice);
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/payment-links`,
        tag,
        summary: 'Payment links, newest first',
        response: paymentLinkListSchema,
        params: scopeParams,
        query: pageQuery,
        permission: 'payment_links.read',
      },
      async ({ query, scope }) => listBody('payment-links', await listPaymentLinks(deps, { scope, page: pageRequest(query) }), linkView),
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/payment-links`,
        tag,
        summary: 'Create a payment link from prices (or named amounts)',
        response: paymentLinkSchema,
        params: scopeParams,
        body: createPaymentLinkBody,
        permission: 'payment_links.manage',
        status: 201,
      },
      async ({ body, scope, member }) => {
        const link = await createPaymentLink(deps, {
          scope,
          actor: member.actor,
          currency: body.currency,
          lineItems: paymentLinkItemsOf(body.line_items),
          options: paymentLinkOptionsOf(body),
        });
        return linkView(link);
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/payment-links/:id`,
        tag,
        summary: 'Deactivate (active: false) or reactivate a payment link',
        response: paymentLinkSchema,
        params: objectParams,
        body: updatePaymentLinkBody,
        permission: 'payment_links.manage',
      },
      async ({ params, body, scope, member }) => {
        const link = await updatePaymentLink(deps, { scope, actor: member.actor, id: params.id, active: body.active });
        return linkView(link);
      },
    ),
  ];
}
