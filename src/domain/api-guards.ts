import { sha256Hex } from './digest';
import type { ApiKey } from './entities';
import type { Mode } from './events';
import type { Scope } from './ports';

/** design.md §9: how long a key's first answer is kept for replay. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claimed key counts as "in flight". A request that dies without answering (a killed
 * instance) frees its key after this, so a retry can run instead of waiting 24 hours.
 */
export const IDEMPOTENCY_LOCK_MS = 2 * 60 * 1000;

/** design.md §9: merchant API requests per second per account and mode, unless the operator sets others. */
export const DEFAULT_RATE_LIMITS: Record<Mode, number> = { live: 100, test: 25 };

/** The first answer to a key, kept to be replayed byte for byte. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyClaim =
  /** The key is ours: run the request, then `complete` or `release`. */
  | { outcome: 'claimed' }
  | { outcome: 'replay'; response: StoredResponse }
  | { outcome: 'in_use' }
  | { outcome: 'reused' };

/** Idempotency records (design.md §3 IdempotencyRecord), shared by every instance. */
export interface IdempotencyRecords {
  /** Atomically takes a key, or says why not; a record older than `expiredBefore` counts as absent. */
  claim(options: {
    scope: Scope;
    key: string;
    fingerprint: string;
    now: Date;
    expiredBefore: Date;
    lockedUntil: Date;
  }): Promise<IdempotencyClaim>;
  complete(options: { scope: Scope; key: string; response: StoredResponse }): Promise<void>;
  /** Forgets a claim whose request should be retryable (an internal error). */
  release(options: { scope: Scope; key: string }): Promise<void>;
  purgeCreatedBefore(at: Date): Promise<number>;
}

/** A request counter per account, mode and second, shared by every instance. */
export interface RateLimitCounter {
  /** Counts one request in the window of `second` and returns the count so far. */
  hit(scope: Scope, second: number): Promise<number>;
  /**
   * Finds the key with this secret hash and, when it is an unrevoked secret key, counts one request
   * of its account and mode in the window of `second`, in one round trip. `hits` is null when
   * nothing was counted; the result is null when no key has this hash.
   */
  admit(secretHash: string, second: number): Promise<{ key: ApiKey; hits: number | null } | null>;
  purgeBefore(second: number): Promise<number>;
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
