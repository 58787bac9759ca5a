import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKey } from '../../domain/entities';
import type { Deps, Scope } from '../../domain/ports';
import { authenticateApiKey } from '../../domain/use-cases/authenticate-api-key';
import { createCheckoutSession } from '../../domain/use-cases/create-checkout-session';
import { expireCheckoutSession } from '../../domain/use-cases/expire-checkout-session';
import { getCheckoutSession } from '../../domain/use-cases/get-checkout-session';
import { getPayment } from '../../domain/use-cases/get-payment';
import { listPayments } from '../../domain/use-cases/list-payments';
import { checkoutSessionView, paymentView } from '../../domain/views';
import { createCheckoutSessionBody, idParams, listPaymentsQuery } from '../schemas';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKey;
  }
}

function scopeOf(request: FastifyRequest): Scope {
  const key = request.apiKey!;
  return { accountId: key.accountId, mode: key.mode };
}

/** The merchant API (`/v1`), authenticated by a secret key of the account and mode it acts in. */
export async function merchantApi(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.addHook('onRequest', async (request) => {
    request.apiKey = await authenticateApiKey(deps, { authorization: request.headers.authorization });
  });

  app.post('/v1/checkout/sessions', async (request, reply) => {
    const body = createCheckoutSessionBody.parse(request.body ?? {});
    const session = await createCheckoutSession(deps, {
      scope: scopeOf(request),
      input: {
        currency: body.currency,
        lineItems: body.line_items.map((item) => ({
          name: item.name,
          unitAmount: item.unit_amount,
          quantity: item.quantity,
        })),
        successUrl: body.success_url,
        cancelUrl: body.cancel_url,
        captureMethod: body.capture_method,
        paymentMethodTypes: body.payment_method_types,
        customerEmail: body.customer_email,
        locale: body.locale,
        metadata: body.metadata,
        clientReferenceId: body.client_reference_id,
        expiresAt: body.expires_at === undefined ? null : new Date(body.expires_at * 1000),
      },
    });
    return reply.status(200).send(checkoutSessionView(session, deps.publicUrl));
  });

  app.get('/v1/checkout/sessions/:id', async (request) => {
    const { id } = idParams.parse(request.params);
    const session = await getCheckoutSession(deps, { scope: scopeOf(request), id });
    return checkoutSessionView(session, deps.publicUrl);
  });

  app.post('/v1/checkout/sessions/:id/expire', async (request) => {
    const { id } = idParams.parse(request.params);
    const session = await expireCheckoutSession(deps, { scope: scopeOf(request), id });
    return checkoutSessionView(session, deps.publicUrl);
  });

  app.get('/v1/payments', async (request) => {
    const query = listPaymentsQuery.parse(request.query ?? {});
    const page = await listPayments(deps, {
      scope: scopeOf(request),
      limit: query.limit,
      startingAfter: query.starting_after,
      checkoutSessionId: query.checkout_session,
    });
    return { object: 'list', url: '/v1/payments', has_more: page.hasMore, data: page.data.map(paymentView) };
  });

  app.get('/v1/payments/:id', async (request) => {
    const { id } = idParams.parse(request.params);
    return paymentView(await getPayment(deps, { scope: scopeOf(request), id }));
  });
}
