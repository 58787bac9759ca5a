import { sha256Hex } from '../shared/digest';
import type { Mode } from '../shared/events';
import { TillpointError } from '../shared/errors';

/** design.md §9: how long a key's first answer is kept for replay. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claimed key counts as "in flight". A request that dies without answering (a killed
 * instance) frees its key after this, so a retry can run instead of waiting 24 hours.
 */
export const IDEMPOTENCY_LOCK_MS = 2 * 60 * 1000;

/** design.md §9: merchant API requests per second per account and mode, unless the operator sets others. */
export const DEFAULT_RATE_LIMITS: Record<Mode, number> = { live: 100, test: 25 };

/**
 * How many of a scope's requests of one second an instance takes from the shared counter at once:
 * 5% of the limit (at least one). Requests an instance took and did not spend are lost to the
 * others for that second, so with two instances the total admitted in a second is never above the
 * limit and at most 10% below it (docs/adr/0016-rate-limits-are-leased-from-a-shared-counter.md).
 */
export function rateLimitLeaseSize(limit: number): number {
  return Math.max(1, Math.floor(limit * 0.05));
}

/**
 * Same parameters, same fingerprint: method, path and body with object keys sorted, so key order
 * in the JSON does not make two equal requests differ.
 */
export async function requestFingerprint(method: string, url: string, body: unknown): Promise<string> {
  const text = `${method} ${url}\n${canonicalJson(body ?? null)}`;
  return sha256Hex(text);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** design.md §5: 1 to 255 printable ASCII characters. */
export function isValidIdempotencyKey(key: string): boolean {
  return /^[\x20-\x7e]{1,255}$/.test(key);
}

/**
 * A merchant API call over its account and mode's limit (design.md §9); counted and decided by
 * `authenticateApiKey`, which counts in the same round trip that finds the key.
 */
export class RateLimitedError extends TillpointError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', 'Too many requests: slow down and retry after the time in the Retry-After header');
  }
}
