import { toHex } from '../shared/digest';
import type { DomainEvent, EventType } from '../shared/events';
import { eventTypes } from '../shared/events';
import { eventEnvelope } from '../shared/event-payloads';
import { newId } from '../shared/ids';
import { TillpointError } from '../shared/errors';
import type { Deps } from '../deps';
import type { Scope } from '../shared/scope';

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

export const subscribableEvents: ReadonlyArray<EventType | '*'> = ['*', ...eventTypes];

/** The JSON body of a webhook: the event as the API shows it. */
export function webhookPayload(event: DomainEvent): string {
  // The same object `GET /v1/events/:id` answers with, so a receiver can parse both alike.
  return JSON.stringify(eventEnvelope(event));
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

/** A fresh signing secret, `whsec_` and 32 base62 characters (~190 bits). */
export const newWebhookSecret = () => newId('whsec', 32);

/** Refuses a URL the mode does not allow (design.md §5: https and public addresses in live mode). */
export async function assertWebhookUrlAllowed(deps: Deps, url: string, scope: Scope): Promise<void> {
  const verdict = await deps.webhookUrls.check(url, scope.mode);
  if (!verdict.allowed) throw new TillpointError('parameter_invalid', `Invalid url: ${verdict.reason}`, { param: 'url' });
}
