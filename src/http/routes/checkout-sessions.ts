import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/ports';
import { createCheckoutSession } from '../../domain/use-cases/create-checkout-session';
import { expireCheckoutSession } from '../../domain/use-cases/expire-checkout-session';
import { getCheckoutSession } from '../../domain/use-cases/get-checkout-session';
import { checkoutSessionView } from '../../domain/views';
import { parseInput } from '../errors';
import { scopeOf } from '../merchant-auth';
import { createCheckoutSessionBody, idParams } from '../schemas';

/** `/v1/checkout/sessions`. */
export async function checkoutSessionRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.post('/v1/checkout/sessions', async (request) => {
    const body = parseInput(createCheckoutSessionBody, request.body ?? {});
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
    return checkoutSessionView(session, deps.publicUrl);
  });

  app.get('/v1/checkout/sessions/:id', async (request) => {
    const { id } = parseInput(idParams, request.params);
    const session = await getCheckoutSession(deps, { scope: scopeOf(request), id });
    return checkoutSessionView(session, deps.publicUrl);
  });

  app.post('/v1/checkout/sessions/:id/expire', async (request) => {
    const { id } = parseInput(idParams, request.params);
    const session = await expireCheckoutSession(deps, { scope: scopeOf(request), id });
    return checkoutSessionView(session, deps.publicUrl);
  });
}
