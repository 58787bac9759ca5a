import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { portalSessionSnapshot } from '../../domain/billing/snapshots';
import { createPortalSession } from '../../domain/billing/use-cases/portal';
import { defineRoute } from '../define-route';
import { createPortalSessionBody } from '../billing-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { billingPortalSessionSchema } from '../response-schemas';

/** `POST /v1/billing_portal/sessions`: the customer portal's page for one customer (docs/billing.md). */
export async function billingPortalRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/billing_portal/sessions',
      resource: 'billing_portal',
      tag: 'Customer portal',
      summary: "Open a customer portal session: a page of the customer's subscriptions, invoices and card",
      description: 'Send the customer to `url`; it opens for an hour. The page lets them change the card they are billed to, pay what they owe and cancel.',
      body: createPortalSessionBody,
      response: billingPortalSessionSchema,
    },
    async ({ body, request }) =>
      portalSessionSnapshot(
        await createPortalSession(deps, {
          scope: scopeOf(request),
          actor: keyActorOf(request),
          customerId: body.customer,
          returnUrl: body.return_url ?? null,
          locale: body.locale ?? null,
        }),
        deps.publicUrl,
      ),
  );
}
