import type { ApiKey } from '../team/entities';
import type { ApiKeyChanges } from './ports';

/**
 * How long a found key is trusted without asking the database again, should news of a change be
 * lost without the feed noticing (docs/adr/0046-api-keys-are-cached-and-invalidated-by-notify.md).
 */
export const API_KEY_CACHE_TTL_MS = 30_000;

interface Entry {
  key: ApiKey;
  until: number;
}

/**
 * The API keys one instance found, by secret hash, so most merchant API calls need no statement to
 * find theirs. One per instance (per `Deps`), never shared. A key is forgotten when `changes` says
 * it changed (any instance changed it), when this instance changes it (`forget`), and after
 * `API_KEY_CACHE_TTL_MS`; while `changes` is not watching, nothing is kept. Unknown hashes are never
 * kept: a key made a moment ago must work at once.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly hashById = new Map<string, string>();
  /** Look-ups under way, by hash: calls that arrive meanwhile share them. */
  private readonly finding = new Map<string, Promise<unknown>>();
  /**
   * Bumped by every forgetting: a look-up that began before a change and ends after it (it may have
   * read the key as it was) must not be kept.
   */
  private generation = 0;

  constructor(
    private readonly changes: ApiKeyChanges,
    private readonly ttlMs = API_KEY_CACHE_TTL_MS,
  ) {
    changes.subscribe({ changed: (id) => this.forget(id), unknown: () => this.clear() });
  }

  /** The key with this secret hash, if kept and still fresh at `nowMs`. */
  get(secretHash: string, nowMs: number): ApiKey | null {
    const entry = this.entries.get(secretHash);
    if (!entry) return null;
    if (nowMs >= entry.until) {
      this.drop(secretHash, entry.key.id);
      return null;
    }
    return entry.key;
  }

  /**
   * Looks the hash up with `lookup` (once for every caller that asks for it meanwhile) and keeps the
   * key found, unless a change may have happened since the look-up began.
   */
  find<T extends { key: ApiKey } | null>(secretHash: string, nowMs: number, lookup: () => Promise<T>): Promise<T> {
    const under = this.finding.get(secretHash) as Promise<T> | undefined;
    if (under) return under;
    const generation = this.generation;
    const found: Promise<T> = lookup()
      .then((result) => {
        if (result && this.changes.watching && generation === this.generation) {
          this.entries.set(secretHash, { key: result.key, until: nowMs + this.ttlMs });
          this.hashById.set(result.key.id, secretHash);
        }
        return result;
      })
      .finally(() => {
        if (this.finding.get(secretHash) === found) this.finding.delete(secretHash);
      });
    this.finding.set(secretHash, found);
    return found;
  }

  /** The kept copy of `key` now says it was last used at `at` (written by the caller). */
  touch(key: ApiKey, at: Date | null): void {
    const entry = this.entries.get(key.secretHash);
    if (entry && entry.key.id === key.id) entry.key = { ...entry.key, lastUsedAt: at };
  }

  /** This instance changed the key: forget it at once (other instances hear of it from `changes`). */
  forget(keyId: string): void {
    this.changed();
    const hash = this.hashById.get(keyId);
    if (hash !== undefined) this.drop(hash, keyId);
  }

  clear(): void {
    this.changed();
    this.entries.clear();
    this.hashById.clear();
  }

  /** Look-ups under way may have read what changed: later callers do not join them. */
  private changed(): void {
    this.generation += 1;
    this.finding.clear();
  }

  private drop(secretHash: string, keyId: string): void {
    this.entries.delete(secretHash);
    this.hashById.delete(keyId);
  }
}
