import { modes, type EventType, type Mode } from '../shared/events';
import { defineResource, field, type EntityOf } from '../shared/resource-shape';

/** Whether an endpoint is sent events. */
export const webhookEndpointStatuses = ['enabled', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof webhookEndpointStatuses)[number];

/** Where a merchant receives signed events (design.md §3, `we_…`). Its API object is `webhookEndpointView`. */
export const webhookEndpoints = defineResource('webhook_endpoints', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  url: field.text(),
  description: field.text().nullable(),
  /** Event types to send, or `['*']` for all of them. */
  enabledEvents: field.json<Array<EventType | '*'>>(),
  /** `whsec_…`; shown to the merchant only when created or rolled. */
  secret: field.text().internal(),
  status: field.oneOf(webhookEndpointStatuses),
  /** When deliveries to it started failing without a success since; null while healthy. */
  failingSince: field.timestamp().nullable().internal(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time'),
  updatedAt: field.timestamp().internal(),
});

/** Where a merchant receives signed events. */
export type WebhookEndpoint = EntityOf<typeof webhookEndpoints>;

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'retrying' | 'abandoned';

/** One event owed to one endpoint, with its retry state (`whd_…`). */
export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: EventType;
  accountId: string;
  mode: Mode;
  status: WebhookDeliveryStatus;
  /** Attempts started so far, including one under way. */
  attempts: number;
  nextAttemptAt: Date | null;
  lastResponseStatus: number | null;
  createdAt: Date;
  updatedAt: Date;
  log: WebhookAttempt[];
}

/** One line of the delivery log. */
export interface WebhookAttempt {
  attempt: number;
  outcome: 'succeeded' | 'failed';
  responseStatus: number | null;
  /** The first 1 KB of what the receiver answered. */
  responseBody: string | null;
  durationMs: number;
  error: string | null;
  startedAt: Date;
}
