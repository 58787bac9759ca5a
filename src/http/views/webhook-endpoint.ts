import { resourceView, unixTime } from './resource';
import { apiObjectOf } from '../../domain/shared/resource-shape';
import { webhookEndpoints, type WebhookEndpoint, type WebhookDelivery } from '../../domain/webhooks/entities';

/** The endpoint as the API shows it (its definition, `webhookEndpoints`); the secret only when just made or rolled. */
export function webhookEndpointView(endpoint: WebhookEndpoint, options: { withSecret?: boolean } = {}) {
  return {
    ...apiObjectOf('webhook_endpoint', webhookEndpoints, endpoint),
    ...(options.withSecret ? { secret: endpoint.secret } : {}),
  };
}

export function webhookDeliveryView(delivery: WebhookDelivery) {
  return resourceView(
    'webhook_delivery',
    delivery,
    {
      webhook_endpoint: delivery.endpointId,
      event: delivery.eventId,
      event_type: delivery.eventType,
      status: delivery.status,
      attempts: delivery.attempts,
      next_attempt_at: unixTime(delivery.nextAttemptAt),
      last_response_status: delivery.lastResponseStatus,
    },
    {
      log: delivery.log.map((attempt) => ({
        attempt: attempt.attempt,
        outcome: attempt.outcome,
        response_status: attempt.responseStatus,
        response_body: attempt.responseBody,
        duration_ms: attempt.durationMs,
        error: attempt.error,
        started_at: unixTime(attempt.startedAt),
      })),
    },
  );
}
