import type { Scope } from '../shared/scope';

/** What an instance holds of one scope's window: requests leased and not yet spent. */
interface Held {
  second: number;
  tokens: number;
  /** The database granted nothing more for this second: every further request is over the limit. */
  exhausted: boolean;
  /** A lease under way; callers that find no token wait for it rather than ask again. */
  asking: Promise<void> | null;
}

/** Above this many windows held, those of past seconds are pruned. */
const PRUNE_ABOVE = 1000;

/**
 * The requests one instance leased from the shared per-second counter (RateLimitCounter) and spends
 * in memory: one statement serves a block of calls. One per instance (per `Deps`), never shared.
 */
export class RateLimitLeases {
  /** By account, mode and second. */
  private readonly held = new Map<string, Held>();
  private prunedAt = 0;

  private window(scope: Scope, second: number): Held {
    const id = `${scope.accountId}:${scope.mode}:${second}`;
    let held = this.held.get(id);
    if (!held) {
      held = { second, tokens: 0, exhausted: false, asking: null };
      // The window before last is over for every caller (one a second late may still spend the last).
      this.held.delete(`${scope.accountId}:${scope.mode}:${second - 2}`);
      if (this.held.size >= PRUNE_ABOVE && second > this.prunedAt) {
        this.prunedAt = second;
        for (const [other, h] of this.held) if (h.second < second - 1 && !h.asking) this.held.delete(other);
      }
      this.held.set(id, held);
    }
    return held;
  }

  /** Adds what the database granted for the scope's window `second` (0: none are left). */
  grant(scope: Scope, second: number, granted: number): void {
    const held = this.window(scope, second);
    held.tokens += granted;
    if (granted === 0) held.exhausted = true;
  }

  /**
   * Spends one request of the scope's window `second`, leasing more with `lease` when none is held.
   * False: the limit of this second is reached.
   */
  async take(scope: Scope, second: number, lease: () => Promise<number>): Promise<boolean> {
    const held = this.window(scope, second);
    for (;;) {
      if (held.tokens > 0) {
        held.tokens -= 1;
        return true;
      }
      if (held.exhausted) return false;
      if (!held.asking) {
        held.asking = lease()
          .then((granted) => {
            held.tokens += granted;
            if (granted === 0) held.exhausted = true;
          })
          .finally(() => {
            held.asking = null;
          });
      }
      await held.asking;
    }
  }
}
