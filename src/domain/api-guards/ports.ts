import type { Mode } from '../shared/events';
import type { Scope } from '../shared/scope';
import type { ApiKey } from '../team/entities';

/** The first answer to a key, kept to be replayed byte for byte. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyClaim =
  /** The key is ours: run the request, then `complete` or `release`. */
  { outcome: 'claimed' } | { outcome: 'replay'; response: StoredResponse } | { outcome: 'in_use' } | { outcome: 'reused' };

/** Idempotency records (design.md §3 IdempotencyRecord), shared by every instance. */
export interface IdempotencyRecords {
  /** Atomically takes a key, or says why not; a record older than `expiredBefore` counts as absent. */
  claim(options: { scope: Scope; key: string; fingerprint: string; now: Date; expiredBefore: Date; lockedUntil: Date }): Promise<IdempotencyClaim>;
  complete(options: { scope: Scope; key: string; response: StoredResponse }): Promise<void>;
  /** Forgets a claim whose request should be retryable (an internal error). */
  release(options: { scope: Scope; key: string }): Promise<void>;
  purgeCreatedBefore(at: Date): Promise<number>;
}

/** A scope's requests per second, and how many of them an instance takes from the database at once. */
export interface RateLimitQuota {
  limit: number;
  block: number;
}

/**
 * A request counter per account, mode and second, shared by every instance: the truth of the rate
 * limit. Instances take its requests in blocks (leases) and spend them in memory (rate-limit-leases.ts).
 */
export interface RateLimitCounter {
  /**
   * Takes up to `quota.block` of the `quota.limit` requests of the scope's window `second` that no
   * instance has taken yet, in one statement; returns how many were taken (0: none are left).
   */
  lease(scope: Scope, second: number, quota: RateLimitQuota): Promise<number>;
  /**
   * Finds the key with this secret hash and, when it is an unrevoked secret key, leases for its
   * account and mode in the window of `second` as `lease` does, with its mode's quota, in one round
   * trip. `granted` is null when nothing was leased; the result is null when no key has this hash.
   */
  admit(secretHash: string, second: number, quotas: Record<Mode, RateLimitQuota>): Promise<{ key: ApiKey; granted: number | null } | null>;
  purgeBefore(second: number): Promise<number>;
}

/** What to do with the API keys an instance remembers: one changed, or any may have. */
export interface ApiKeyChangeListener {
  changed(keyId: string): void;
  /** Changes may have been missed (the feed's connection was lost, or is back): forget every key. */
  unknown(): void;
}

/**
 * News of changes to stored API keys (revoked, deleted, any change but its last use), made by any
 * instance: what lets an instance keep the keys it found in memory (api-key-cache.ts).
 */
export interface ApiKeyChanges {
  /** Whether a change committed now would reach the listener; while false, nothing may be kept. */
  readonly watching: boolean;
  subscribe(listener: ApiKeyChangeListener): void;
}
