import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../deps';
import { BackgroundWork } from '../shared/background-work';
import { TillpointError } from '../shared/errors';
import type { StoredResponse } from './ports';
import { IDEMPOTENCY_LOCK_MS } from './rules';
import { SETTLE_LATER_WAITS_MS, settleIdempotencyKey } from './use-cases/settle-idempotency-key';

const scope = { accountId: 'acct_1', mode: 'test' as const };
const answer: StoredResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"cs_1"}' };
const unavailable = () => new TillpointError('database_unavailable', 'The database is unavailable right now; try again shortly');

/** Idempotency records whose writes fail `failures` times (the database away), then succeed. */
function records(failures: number, failure: () => Error = unavailable) {
  const writes: string[] = [];
  let left = failures;
  const write = async (what: string) => {
    if (left > 0) {
      left -= 1;
      throw failure();
    }
    writes.push(what);
  };
  const deps = {
    background: new BackgroundWork(),
    idempotency: {
      complete: ({ response }: { response: StoredResponse }) => write(`complete ${response.status}`),
      release: () => write('release'),
    },
  } as unknown as Deps;
  return { deps, writes };
}

describe('settling an Idempotency-Key once its answer is known', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stores the answer at once when the database takes it', async () => {
    const { deps, writes } = records(0);
    await settleIdempotencyKey(deps, { scope, key: 'k', response: answer });
    expect(writes).toEqual(['complete 200']);
  });

  it('with the database away after the work committed, the answer stands and is stored when the database is back', async () => {
    const { deps, writes } = records(3);
    // Resolves at once: the request answers what it did.
    await settleIdempotencyKey(deps, { scope, key: 'k', response: answer });
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(500 + 1_000);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(writes).toEqual(['complete 200']);
    await deps.background.idle();
  });

  it('frees the key of a 503 once the database is back, so a retry runs', async () => {
    const { deps, writes } = records(1);
    await settleIdempotencyKey(deps, { scope, key: 'k', response: null });
    await vi.advanceTimersByTimeAsync(500);
    expect(writes).toEqual(['release']);
  });

  it('gives up before the key’s lock runs out, so no retry that claimed it since is overwritten', async () => {
    const { deps, writes } = records(1_000);
    await settleIdempotencyKey(deps, { scope, key: 'k', response: answer });
    await vi.advanceTimersByTimeAsync(IDEMPOTENCY_LOCK_MS);
    await deps.background.idle();
    expect(writes).toEqual([]);
    expect(SETTLE_LATER_WAITS_MS.reduce((sum, wait) => sum + wait, 0)).toBeLessThan(IDEMPOTENCY_LOCK_MS / 1.5);
  });

  it('an error other than the database being away is the caller’s, and nothing is tried again', async () => {
    const { deps, writes } = records(1, () => new Error('value too long'));
    await expect(settleIdempotencyKey(deps, { scope, key: 'k', response: answer })).rejects.toThrow('value too long');
    await vi.advanceTimersByTimeAsync(IDEMPOTENCY_LOCK_MS);
    expect(writes).toEqual([]);
  });
});
