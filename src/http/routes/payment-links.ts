import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { createPaymentLink } from '../../domain/sessions/use-cases/create-payment-link';
import { getPaymentLink } from '../../domain/sessions/use-cases/get-payment-link';
import { listPaymentLinks } from '../../domain/sessions/use-cases/list-payment-links';
import { updatePaymentLink } from '../../domain/sessions/use-cases/update-payment-link';
import { defineRoute } from '../define-route';
import { paymentLinkListSchema, paymentLinkSchema } from '../response-schemas';
import { createPaymentLinkBody, pageQuery, paymentLinkItemsOf, paymentLinkOptionsOf, updatePaymentLinkBody } from '../lifecycle-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { listBody, pageRequest } from '../pagination';
import { idParams } from '../schemas';
import { paymentLinkView } from '../views/payment-link';

const tag = 'Payment links';

/** `/v1/payment_links`. */
export async function paymentLinkRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const view = (link: Parameters<typeof paymentLinkView>[0]) => paymentLinkView(link, deps.publicUrl);

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/payment_links',
      resource: 'payment_links',
      tag,
      summary: 'Create a payment link',
      body: createPaymentLinkBody,
      response: paymentLinkSchema,
      errors: [404],
    },
    async ({ body, request }) =>
      view(
        await createPaymentLink(deps, {
          scope: scopeOf(request),
          actor: keyActorOf(request),
          currency: body.currency,
          lineItems: paymentLinkItemsOf(body.line_items),
          options: paymentLinkOptionsOf(body),
        }),
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/payment_links',
      resource: 'payment_links',
      tag,
      summary: 'List payment links, newest first',
      query: pageQuery,
      response: paymentLinkListSchema,
    },
    async ({ query, request }) => listBody('/v1/payment_links', await listPaymentLinks(deps, { scope: scopeOf(request), page: pageRequest(query) }), view),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/payment_links/:id',
      resource: 'payment_links',
      tag,
      summary: 'Retrieve a payment link',
      params: idParams,
      response: paymentLinkSchema,
    },
    async ({ params, request }) => view(await getPaymentLink(deps, { scope: scopeOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/payment_links/:id',
      resource: 'payment_links',
      tag,
      summary: 'Update a payment link: active false turns it off',
      params: idParams,
      body: updatePaymentLinkBody,
      response: paymentLinkSchema,
    },
    async ({ params, body, request }) =>
      view(await updatePaymentLink(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id, active: body.active })),
  );
}
