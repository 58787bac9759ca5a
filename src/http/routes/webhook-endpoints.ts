import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { subscribableEvents } from '../../domain/webhooks/rules';
import { createWebhookEndpoint } from '../../domain/webhooks/use-cases/create-webhook-endpoint';
import { deleteWebhookEndpoint } from '../../domain/webhooks/use-cases/delete-webhook-endpoint';
import { getWebhookEndpoint } from '../../domain/webhooks/use-cases/get-webhook-endpoint';
import { listWebhookDeliveries } from '../../domain/webhooks/use-cases/list-webhook-deliveries';
import { listWebhookEndpoints } from '../../domain/webhooks/use-cases/list-webhook-endpoints';
import { resendWebhookDelivery } from '../../domain/webhooks/use-cases/resend-webhook-delivery';
import { rollWebhookEndpointSecret } from '../../domain/webhooks/use-cases/roll-webhook-endpoint-secret';
import { updateWebhookEndpoint } from '../../domain/webhooks/use-cases/update-webhook-endpoint';
import { defineRoute } from '../define-route';
import { deletedSchema, webhookDeliveryListSchema, webhookDeliverySchema, webhookEndpointListSchema, webhookEndpointSchema } from '../response-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { idParams, listQuery, objectId, urlText } from '../schemas';
import { webhookDeliveryView, webhookEndpointView } from '../views/webhook-endpoint';
import type { WebhookEndpoint } from '../../domain/webhooks/entities';

const tag = 'Webhook endpoints';

export const endpointFields = {
  url: urlText().min(1),
  enabled_events: z
    .array(z.enum(subscribableEvents as [string, ...string[]]))
    .min(1)
    .max(subscribableEvents.length),
  description: z.string().max(500).optional(),
};
export const createWebhookEndpointBody = z.strictObject(endpointFields);
const updateBody = z.strictObject({
  url: endpointFields.url.optional(),
  enabled_events: endpointFields.enabled_events.optional(),
  description: endpointFields.description,
  disabled: z.boolean().optional(),
});
const deliveryParams = z.strictObject({ id: objectId, delivery_id: objectId });
const pageQuery = z.strictObject(listQuery);

export const eventsOf = (events: string[]) => events as WebhookEndpoint['enabledEvents'];

/** `/v1/webhook_endpoints`: where signed events go, their secrets and delivery logs. */
export async function webhookEndpointRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/webhook_endpoints',
      resource: 'webhook_endpoints',
      tag,
      summary: 'Create a webhook endpoint (its secret is shown only in this answer)',
      body: createWebhookEndpointBody,
      response: webhookEndpointSchema,
    },
    async ({ body, request }) => {
      const endpoint = await createWebhookEndpoint(deps, {
        scope: scopeOf(request),
        actor: keyActorOf(request),
        input: { url: body.url, enabledEvents: eventsOf(body.enabled_events), description: body.description },
      });
      return webhookEndpointView(endpoint, { withSecret: true });
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/webhook_endpoints',
      resource: 'webhook_endpoints',
      tag,
      summary: 'List webhook endpoints, newest first',
      query: pageQuery,
      response: webhookEndpointListSchema,
    },
    async ({ query, request }) => {
      const page = await listWebhookEndpoints(deps, { scope: scopeOf(request), limit: query.limit, startingAfter: query.starting_after });
      return { object: 'list', url: '/v1/webhook_endpoints', has_more: page.hasMore, data: page.data.map((e) => webhookEndpointView(e)) };
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/webhook_endpoints/:id',
      resource: 'webhook_endpoints',
      tag,
      summary: 'Retrieve a webhook endpoint',
      params: idParams,
      response: webhookEndpointSchema,
    },
    async ({ params, request }) => webhookEndpointView(await getWebhookEndpoint(deps, { scope: scopeOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/webhook_endpoints/:id',
      resource: 'webhook_endpoints',
      tag,
      summary: 'Update a webhook endpoint, or re-enable it with disabled: false',
      params: idParams,
      body: updateBody,
      response: webhookEndpointSchema,
    },
    async ({ params, body, request }) =>
      webhookEndpointView(
        await updateWebhookEndpoint(deps, {
          scope: scopeOf(request),
          actor: keyActorOf(request),
          id: params.id,
          changes: {
            url: body.url,
            enabledEvents: body.enabled_events && eventsOf(body.enabled_events),
            description: body.description,
            disabled: body.disabled,
          },
        }),
      ),
  );

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/v1/webhook_endpoints/:id',
      resource: 'webhook_endpoints',
      tag,
      summary: 'Delete a webhook endpoint and its delivery log',
      params: idParams,
      response: deletedSchema,
    },
    async ({ params, request }) => {
      await deleteWebhookEndpoint(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id });
      return { id: params.id, object: 'webhook_endpoint', deleted: true };
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/webhook_endpoints/:id/roll_secret',
      resource: 'webhook_endpoints',
      tag,
      summary: 'Replace the signing secret at once (the new one is shown only in this answer)',
      params: idParams,
      response: webhookEndpointSchema,
    },
    async ({ params, request }) =>
      webhookEndpointView(await rollWebhookEndpointSecret(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id }), { withSecret: true }),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/webhook_endpoints/:id/deliveries',
      resource: 'webhook_endpoints',
      tag,
      summary: "List an endpoint's deliveries with their attempt logs, newest first",
      params: idParams,
      query: pageQuery,
      response: webhookDeliveryListSchema,
    },
    async ({ params, query, request }) => {
      const page = await listWebhookDeliveries(deps, {
        scope: scopeOf(request),
        endpointId: params.id,
        limit: query.limit,
        startingAfter: query.starting_after,
      });
      return {
        object: 'list',
        url: `/v1/webhook_endpoints/${params.id}/deliveries`,
        has_more: page.hasMore,
        data: page.data.map(webhookDeliveryView),
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/webhook_endpoints/:id/deliveries/:delivery_id/resend',
      resource: 'webhook_endpoints',
      tag,
      summary: 'Send a delivery again now, whatever its state',
      params: deliveryParams,
      status: 202,
      response: webhookDeliverySchema,
    },
    async ({ params, request }) =>
      webhookDeliveryView(
        await resendWebhookDelivery(deps, { scope: scopeOf(request), actor: keyActorOf(request), endpointId: params.id, deliveryId: params.delivery_id }),
      ),
  );
}
