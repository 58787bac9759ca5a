import type { EventType, Mode } from '../shared/events';

/** Where a merchant receives signed events (design.md §3, `we_…`). */
export interface WebhookEndpoint {
  id: string;
  accountId: string;
  mode: Mode;
  url: string;
  description: string | null;
  /** Event types to send, or `['*']` for all of them. */
  enabledEvents: Array<EventType | '*'>;
  /** `whsec_…`; shown to the merchant only when created or rolled. */
  secret: string;
  status: 'enabled' | 'disabled';
  /** When deliveries to it started failing without a success since; null while healthy. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

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
