import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { StoredResponse } from '../ports';

/**
 * The waits before each further try at settling a key the database could not take at once: 0.5 s,
 * doubling up to 16 s, 63.5 s in all — well inside the key's lock (IDEMPOTENCY_LOCK_MS, 2 minutes), so no retry
 * can have claimed the key again meanwhile.
 */
export const SETTLE_LATER_WAITS_MS: readonly number[] = [500, 1_000, 2_000, 4_000, 8_000, 16_000, 16_000, 16_000];

const isDatabaseUnavailable = (error: unknown) => error instanceof TillpointError && error.code === 'database_unavailable';

const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer: { unref?: () => void } = setTimeout(resolve, ms);
    timer.unref?.();
  });

/**
 * Settles the `Idempotency-Key` a request held, once its answer is known: the answer stored for
 * replay (`response`), or the key freed for a retry (null: a 500 or 503, ADR 0015). When the
 * database cannot take it now (it went away after the request's work committed, as a primary's
 * restart does) the request's answer stands — a client told 200 has no reason to retry — and the same
 * write is tried again in the background until it is made. Without that, the key would stay locked
 * and unanswered, and a retry once the lock ran out would do the work a second time.
 */
export async function settleIdempotencyKey(deps: Deps, options: { scope: Scope; key: string; response: StoredResponse | null }): Promise<void> {
  const settle = () =>
    options.response
      ? deps.idempotency.complete({ scope: options.scope, key: options.key, response: options.response })
      : deps.idempotency.release({ scope: options.scope, key: options.key });
  try {
    await settle();
    return;
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
  }
  deps.background.start(async () => {
    for (const wait of SETTLE_LATER_WAITS_MS) {
      await pause(wait);
      try {
        await settle();
        return;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) return;
      }
    }
  });
}
