import { toHex } from './digest';
import type { DomainEvent, EventType, Mode } from './events';
import { eventTypes } from './events';
import type { Scope } from './ports';
import { eventView } from './views';

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

/** A delivery a worker holds the lease on, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  attempt: number;
  leaseToken: string;
  endpoint: Pick<WebhookEndpoint, 'id' | 'url' | 'secret' | 'mode' | 'failingSince'>;
  event: DomainEvent;
  /** When the first attempt was due: the retry schedule counts from here. */
  firstDueAt: Date;
}

export interface WebhookEndpointRepository {
  insert(endpoint: WebhookEndpoint): Promise<void>;
  get(scope: Scope, id: string): Promise<WebhookEndpoint | null>;
  /** Newest first. */
  list(scope: Scope, page: { limit: number; startingAfter?: string }): Promise<WebhookEndpoint[]>;
  update(endpoint: WebhookEndpoint): Promise<void>;
  /**
   * Moves endpoints' failing streaks after a batch of attempts: `reset` ends the streak first (a
   * success was recorded), then a non-null `failingFrom` starts one if none is running. Returns when
   * each endpoint's streak started (null: healthy).
   */
  noteDeliveryResults(streaks: EndpointStreakChange[]): Promise<Map<string, Date | null>>;
  disableMany(ids: string[], at: Date): Promise<void>;
  delete(scope: Scope, id: string): Promise<boolean>;
}

export interface WebhookDeliveryRepository {
  get(scope: Scope, endpointId: string, id: string): Promise<WebhookDelivery | null>;
  /** Newest first, each with its attempt log. */
  list(scope: Scope, endpointId: string, page: { limit: number; startingAfter?: string }): Promise<WebhookDelivery[]>;
  /**
   * Takes up to `limit` due deliveries of enabled endpoints with `FOR UPDATE SKIP LOCKED`, counts
   * the attempt and leases them until `leaseUntil`: no other worker takes them before then. At
   * most `perEndpoint` (default: `limit`) less the endpoint's count in `inFlight` per endpoint, so
   * an endpoint that is slow to answer never takes the claim from the others. `sawAllDue` is true
   * when the claim considered every due delivery of the endpoints not already at their cap (it
   * looks at the oldest due ones only, a window of them): a claim right after it can then find
   * nothing the endpoints it did not fill could take.
   */
  claimDue(options: {
    now: Date;
    leaseUntil: Date;
    leaseToken: string;
    limit: number;
    perEndpoint?: number;
    inFlight?: ReadonlyMap<string, number>;
  }): Promise<ClaimedDeliveries>;
  /**
   * Writes attempts' outcomes (and their delivery-log lines), each only if its lease is still ours;
   * returns the ids whose outcome was written (a lost lease means another worker took over).
   */
  recordAttempts(attempts: RecordedAttempt[]): Promise<Set<string>>;
  /** Makes a delivery due now again (manual resend). */
  requeue(scope: Scope, id: string, at: Date): Promise<void>;
}

/** What a claim took, and whether it saw every due delivery it might have taken (see `claimDue`). */
export interface ClaimedDeliveries {
  deliveries: ClaimedDelivery[];
  sawAllDue: boolean;
}

/** An attempt's outcome as the worker records it. */
export interface RecordedAttempt {
  deliveryId: string;
  leaseToken: string;
  attempt: WebhookAttempt;
  status: WebhookDeliveryStatus;
  nextAttemptAt: Date | null;
  at: Date;
}

/** How a batch of outcomes moves an endpoint's failing streak (see `noteDeliveryResults`). */
export interface EndpointStreakChange {
  id: string;
  reset: boolean;
  failingFrom: Date | null;
}

/** Sends one signed webhook: the edge that talks to the merchant's server. */
export interface WebhookSender {
  send(request: { url: string; mode: Mode; body: string; headers: Record<string, string>; timeoutMs: number }): Promise<WebhookSendResult>;
}

export type WebhookSendResult =
  | { ok: true; status: number; body: string; durationMs: number }
  | { ok: false; status: number | null; body: string | null; durationMs: number; error: string };

/** Whether a URL may receive webhooks in a mode (design.md §5: https and no private address in live). */
export interface WebhookUrlPolicy {
  check(url: string, mode: Mode): Promise<{ allowed: true } | { allowed: false; reason: string }>;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** A claim outlives the timeout, so a live worker never loses a delivery it is still sending. */
export const webhookLeaseMs = (timeoutMs: number) => timeoutMs + 5_000;
export const WEBHOOK_LEASE_MS = webhookLeaseMs(WEBHOOK_TIMEOUT_MS);
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** design.md §9: waits after the 1st, 2nd… failed attempt; then every 12 h. */
const retryDelays = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
const LATER_DELAY = 12 * HOUR;
/** Retries stop, and a failing endpoint is disabled, after this long. */
export const WEBHOOK_GIVE_UP_AFTER_MS = 72 * HOUR;

/**
 * When to try again after `failedAttempts` failures, or null to abandon: the schedule runs from the
 * first due time and never past 3 days.
 * @example nextRetryAt(first, 1) // first + 1 minute
 */
export function nextRetryAt(firstDueAt: Date, failedAttempts: number): Date | null {
  let offset = 0;
  for (let i = 0; i < failedAttempts; i++) offset += retryDelays[i] ?? LATER_DELAY;
  if (offset > WEBHOOK_GIVE_UP_AFTER_MS) return null;
  return new Date(firstDueAt.getTime() + offset);
}

/** Whether an endpoint with a failing streak since `failingSince` should now be disabled. */
export function failedTooLong(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= WEBHOOK_GIVE_UP_AFTER_MS;
}

/** Whether an endpoint wants events of this type. */
export function endpointWants(endpoint: Pick<WebhookEndpoint, 'enabledEvents'>, type: EventType): boolean {
  return endpoint.enabledEvents.includes('*') || endpoint.enabledEvents.includes(type);
}

export const subscribableEvents: ReadonlyArray<EventType | '*'> = ['*', ...eventTypes];

/** The JSON body of a webhook: the event as the API shows it. */
export function webhookPayload(event: DomainEvent): string {
  // The same object `GET /v1/events/:id` answers with, so a receiver can parse both alike.
  return JSON.stringify(eventView(event));
}

/**
 * The `Tillpoint-Signature` header: `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` keyed with the
 * endpoint secret (Web Crypto, so the domain stays free of Node APIs).
 */
export async function signatureHeader(secret: string, timestamp: number, body: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(`${timestamp}.${body}`));
  return `t=${timestamp},v1=${toHex(mac)}`;
}
