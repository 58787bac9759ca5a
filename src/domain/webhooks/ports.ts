import type { PageRequest } from '../shared/pagination';
import type { DomainEvent, Mode } from '../shared/events';
import type { Scope } from '../shared/scope';
import type { WebhookEndpoint, WebhookDelivery, WebhookDeliveryStatus, WebhookAttempt } from './entities';

export interface EventRepository {
  insert(event: DomainEvent): Promise<void>;
  listForObject(objectId: string): Promise<DomainEvent[]>;
  get(scope: Scope, id: string): Promise<DomainEvent | null>;
  /** Newest first; `createdGte` / `createdLte` bound `created_at` inclusively. */
  list(scope: Scope, filter: EventFilter & PageRequest): Promise<DomainEvent[]>;
}

export interface EventFilter {
  type?: DomainEvent['type'];
  createdGte?: Date;
  createdLte?: Date;
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
  /** Removes the endpoint with its deliveries and their attempts; false when the scope has no such endpoint. */
  delete(scope: Scope, id: string): Promise<boolean>;
}

export interface WebhookDeliveryRepository {
  get(scope: Scope, endpointId: string, id: string): Promise<WebhookDelivery | null>;
  /** Newest first, each with its attempt log. */
  list(scope: Scope, endpointId: string, page: { limit: number; startingAfter?: string }): Promise<WebhookDelivery[]>;
  /** The deliveries the given events caused, to every endpoint, oldest first, each with its attempt log. */
  listForEvents(scope: Scope, eventIds: readonly string[]): Promise<WebhookDelivery[]>;
  /**
   * Takes up to `limit` due deliveries of enabled endpoints with `FOR UPDATE SKIP LOCKED`, counts
   * the attempt and leases them until `leaseUntil`: no other worker takes them before then. At
   * most `perEndpoint` (default: `limit`) less the endpoint's count in `inFlight` per endpoint, so
   * an endpoint that is slow to answer never takes the claim from the others. Endpoints are served
   * in the order of their oldest due delivery, as many as `limit` can serve at their room; no
   * endpoint's backlog delays another's deliveries. `sawAllDue` is false when the claim left out
   * endpoints with room and due deliveries: a claim right after it can then take more.
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
  /**
   * Gives claims back unsent (a send cut by shutdown): each delivery whose lease is still ours is
   * due again at once, for any worker, with its attempt not counted.
   */
  releaseClaims(claims: Array<{ deliveryId: string; leaseToken: string }>): Promise<void>;
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
  /** `signal`: when it aborts, the request is cut and the send fails at once. */
  send(request: {
    url: string;
    mode: Mode;
    body: string;
    headers: Record<string, string>;
    timeoutMs: number;
    signal?: AbortSignal;
  }): Promise<WebhookSendResult>;
}

export type WebhookSendResult =
  | { ok: true; status: number; body: string; durationMs: number }
  | { ok: false; status: number | null; body: string | null; durationMs: number; error: string };

/** Whether a URL may receive webhooks in a mode (design.md §5: https and no private address in live). */
export interface WebhookUrlPolicy {
  check(url: string, mode: Mode): Promise<{ allowed: true } | { allowed: false; reason: string }>;
}
