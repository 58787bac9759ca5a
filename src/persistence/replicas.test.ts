import { describe, expect, it } from 'vitest';
import { walPosition, watchReplicas } from './replicas';
import type { SqlClient } from './sql-executor';

/** A server that answers the two questions the watcher asks, as set by the test. */
function server(answer: () => Record<string, unknown>): SqlClient & { closed: boolean } {
  const client = {
    kind: 'postgres' as const,
    closed: false,
    query: async <R>() => ({ rows: [answer()] as R[], rowCount: 1 }),
    exec: async () => undefined,
    transaction: async () => {
      throw new Error('not used');
    },
    close: async () => {
      client.closed = true;
    },
    poolStats: () => ({ size: 0, inUse: 0, waiting: 0 }),
  };
  return client;
}

function setUp(replicaCount: number) {
  let clock = 1_000;
  let primaryAt = '0/1000';
  let primaryDown = false;
  const replayed: Array<string | null> = Array.from({ length: replicaCount }, () => '0/1000');
  const standby = Array.from({ length: replicaCount }, () => true);
  const down = Array.from({ length: replicaCount }, () => false);
  const primary = server(() => {
    if (primaryDown) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    return { position: primaryAt };
  });
  const replicas = replayed.map((_, index) =>
    server(() => {
      if (down[index]) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return { standby: standby[index], replayed: replayed[index] };
    }),
  );
  const set = watchReplicas(primary, replicas, { maxLagMs: 2_000, checkEveryMs: 60_000, now: () => clock });
  return {
    set,
    replicas,
    replayed,
    standby,
    down,
    advance: (ms: number) => {
      clock += ms;
    },
    primaryAt: (lsn: string) => {
      primaryAt = lsn;
    },
    primaryDown: (value: boolean) => {
      primaryDown = value;
    },
  };
}

describe('read replicas and their lag', () => {
  it('reads WAL positions as PostgreSQL writes them', () => {
    expect(walPosition('0/0')).toBe(0n);
    expect(walPosition('0/16B3748')).toBe(0x16b3748n);
    expect(walPosition('1/0')).toBe(0x100000000n);
    expect(walPosition('A/FF') > walPosition('9/FFFFFFFF')).toBe(true);
  });

  it('uses no replica before the first check, and a caught-up one after it, whether the primary is busy or idle', async () => {
    const t = setUp(1);
    expect(t.set.pick()).toBeNull();
    await t.set.check();
    expect(t.set.pick()).toBe(t.replicas[0]);
    // An idle primary: its position does not move, and the replica stays current for as long.
    for (let i = 0; i < 5; i++) {
      t.advance(1_500);
      await t.set.check();
      expect(t.set.pick()).toBe(t.replicas[0]);
    }
    expect(t.set.status()).toEqual([{ up: true, lagMs: 0, used: true }]);
  });

  it('a replica that stopped replaying is used until it is the bound behind, then skipped, and used again once it catches up', async () => {
    const t = setUp(1);
    await t.set.check(); // at 1000: primary 0/1000, replayed 0/1000
    t.advance(500);
    t.primaryAt('0/2000');
    await t.set.check(); // at 1500: primary moved on, the replica did not
    expect(t.set.pick()).toBe(t.replicas[0]);
    expect(t.set.status()[0]!.lagMs).toBe(500);
    t.advance(1_400);
    await t.set.check(); // 1900 ms since the last position it holds
    expect(t.set.pick()).toBe(t.replicas[0]);
    t.advance(200);
    await t.set.check(); // 2100 ms: past the bound
    expect(t.set.pick()).toBeNull();
    expect(t.set.status()).toEqual([{ up: true, lagMs: 2_100, used: false }]);
    // It replays the position noted at 1500: 1600 ms behind now, within the bound again.
    t.replayed[0] = '0/2000';
    await t.set.check();
    expect(t.set.pick()).toBe(t.replicas[0]);
    expect(t.set.status()[0]!.lagMs).toBe(0);
  });

  it('between checks the bound ages with the clock, so a replica silent for longer than the bound is skipped', async () => {
    const t = setUp(1);
    await t.set.check();
    t.advance(2_001);
    expect(t.set.pick()).toBeNull();
  });

  it('skips a replica that is down, or not in recovery, or set aside by a failed read, until a check finds it serving', async () => {
    const t = setUp(2);
    await t.set.check();
    t.down[0] = true;
    t.standby[1] = false; // promoted: no longer a copy of this primary
    await t.set.check();
    expect(t.set.pick()).toBeNull();
    t.down[0] = false;
    t.standby[1] = true;
    await t.set.check();
    t.set.lost(t.replicas[0]!);
    expect([t.set.pick(), t.set.pick()]).toEqual([t.replicas[1], t.replicas[1]]);
    await t.set.check();
    // Both serve again, in turn.
    expect(new Set([t.set.pick(), t.set.pick()])).toEqual(new Set(t.replicas));
  });

  it('while the primary is away, the replicas are used until their last known position is the bound old', async () => {
    const t = setUp(1);
    await t.set.check();
    t.primaryDown(true);
    t.advance(1_000);
    await t.set.check();
    expect(t.set.pick()).toBe(t.replicas[0]);
    t.advance(1_500);
    await t.set.check();
    expect(t.set.pick()).toBeNull();
  });

  it('closing stops the checks and closes every replica', async () => {
    const t = setUp(2);
    await t.set.close();
    expect(t.replicas.map((replica) => replica.closed)).toEqual([true, true]);
  });
});
