import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { webhookPayload } from '../../domain/webhooks/rules';
import { createWebhookEndpoint } from '../../domain/webhooks/use-cases/create-webhook-endpoint';
import { deleteWebhookEndpoint } from '../../domain/webhooks/use-cases/delete-webhook-endpoint';
import { getEvent } from '../../domain/webhooks/use-cases/get-event';
import { listWebhookDeliveries } from '../../domain/webhooks/use-cases/list-webhook-deliveries';
import { listWebhookEndpoints } from '../../domain/webhooks/use-cases/list-webhook-endpoints';
import { resendWebhookDelivery } from '../../domain/webhooks/use-cases/resend-webhook-delivery';
import { rollWebhookEndpointSecret } from '../../domain/webhooks/use-cases/roll-webhook-endpoint-secret';
import { updateWebhookEndpoint } from '../../domain/webhooks/use-cases/update-webhook-endpoint';
import { createWebhookEndpointBody, eventsOf } from '../routes/webhook-endpoints';
import { listQuery, objectId } from '../schemas';
import { webhookDeliveryView, webhookEndpointView } from '../views/webhook-endpoint';
import { accountParam, modeEndpoint, modeParam, type DashboardEndpoint } from './dashboard-route';
import { base, objectParams, scopeParams } from './mode-endpoints';
import { dashboardWebhookDeliveryListSchema, dashboardWebhookEndpointListSchema } from './response-schemas';

const tag = 'Dashboard: webhooks';
const deliveryParams = z.strictObject({ ...accountParam, ...modeParam, id: objectId, delivery_id: objectId });

/**
 * Webhook endpoints of one mode (secret shown only when created or rolled), their delivery log with
 * the exact body sent and what the receiver answered, and resend: the merchant API's use cases.
 */
export function webhookDashboardEndpoints(deps: Deps): DashboardEndpoint[] {
  return [
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/webhook-endpoints`,
        response: dashboardWebhookEndpointListSchema,
        tag,
        summary: 'Webhook endpoints, newest first',
        params: scopeParams,
        query: z.strictObject(listQuery),
        permission: 'webhooks.read',
      },
      async ({ query, scope }) => {
        const page = await listWebhookEndpoints(deps, { scope, limit: query.limit, startingAfter: query.starting_after });
        return { object: 'list', has_more: page.hasMore, data: page.data.map((e) => webhookEndpointView(e)) };
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/webhook-endpoints`,
        tag,
        summary: 'Create a webhook endpoint; its secret is in this answer only',
        params: scopeParams,
        body: createWebhookEndpointBody,
        permission: 'webhooks.manage',
        status: 201,
      },
      async ({ body, scope, member }) => {
        const endpoint = await createWebhookEndpoint(deps, {
          scope,
          actor: member.actor,
          input: { url: body.url, enabledEvents: eventsOf(body.enabled_events), description: body.description },
        });
        return webhookEndpointView(endpoint, { withSecret: true });
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/webhook-endpoints/:id`,
        tag,
        summary: 'Disable or re-enable a webhook endpoint',
        params: objectParams,
        body: z.strictObject({ disabled: z.boolean() }),
        permission: 'webhooks.manage',
      },
      async ({ params, body, scope, member }) => {
        const endpoint = await updateWebhookEndpoint(deps, { scope, actor: member.actor, id: params.id, changes: { disabled: body.disabled } });
        return webhookEndpointView(endpoint);
      },
    ),

    modeEndpoint(
      {
        method: 'DELETE',
        url: `${base}/webhook-endpoints/:id`,
        tag,
        summary: 'Delete a webhook endpoint and its delivery log',
        params: objectParams,
        permission: 'webhooks.manage',
      },
      async ({ params, scope, member }) => {
        await deleteWebhookEndpoint(deps, { scope, actor: member.actor, id: params.id });
        return { id: params.id, deleted: true };
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/webhook-endpoints/:id/roll-secret`,
        tag,
        summary: 'Replace the signing secret now; the new one is in this answer only',
        params: objectParams,
        permission: 'webhooks.manage',
      },
      async ({ params, scope, member }) => {
        const endpoint = await rollWebhookEndpointSecret(deps, { scope, actor: member.actor, id: params.id });
        return webhookEndpointView(endpoint, { withSecret: true });
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/webhook-endpoints/:id/deliveries`,
        response: dashboardWebhookDeliveryListSchema,
        tag,
        summary: "An endpoint's deliveries, newest first: the body sent and each attempt's answer",
        params: objectParams,
        query: z.strictObject(listQuery),
        permission: 'webhooks.read',
      },
      async ({ params, query, scope }) => {
        const page = await listWebhookDeliveries(deps, { scope, endpointId: params.id, limit: query.limit, startingAfter: query.starting_after });
        const data = [];
        for (const delivery of page.data) {
          // What was sent is the event as signed and posted, byte for byte.
          const event = await getEvent(deps, { scope, id: delivery.eventId }).catch(() => null);
          data.push({ ...webhookDeliveryView(delivery), request_body: event && webhookPayload(event) });
        }
        return { object: 'list', has_more: page.hasMore, data };
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/webhook-endpoints/:id/deliveries/:delivery_id/resend`,
        tag,
        summary: 'Send a delivery again now',
        params: deliveryParams,
        permission: 'webhooks.manage',
        status: 202,
      },
      async ({ params, scope, member }) => {
        const delivery = await resendWebhookDelivery(deps, { scope, actor: member.actor, endpointId: params.id, deliveryId: params.delivery_id });
        return webhookDeliveryView(delivery);
      },
    ),
  ];
}
