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
