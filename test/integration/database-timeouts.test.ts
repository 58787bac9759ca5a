import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TillpointError } from '../../src/domain/shared/errors';
import type { SqlClient } from '../../src/persistence/sql-client';
import { testDatabases } from '../support/databases';

const timeouts = { lockMs: 300, statementMs: 600, idleInTransactionMs: 800 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How `work` failed, and after how long. */
async function failure(work: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await work();
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error('expected a failure');
}

const isUnavailable = (error: unknown) => error instanceof TillpointError && error.code === 'database_unavailable';

/**
 * Every wait on the database is bounded (DatabaseTimeouts): a stuck lock, a stuck statement and a
 * transaction left idle end as `database_unavailable`, change nothing, and leave the database
 * serving others.
 */
describe.each(testDatabases)('database timeouts ($name)', ({ name, open }) => {
  let db: SqlClient;

  beforeAll(async () => {
    db = await open(timeouts);
    await db.exec('CREATE TABLE counters (id text PRIMARY KEY, n int NOT NULL)');
  });
  afterAll(async () => db.close());

  const value = async (id: string) => (await db.query<{ n: number }>('SELECT n FROM counters WHERE id = $1', [id])).rows[0]?.n ?? null;

  it('a statement waiting on a lock held elsewhere ends within the lock timeout and changes nothing', { timeout: 15_000 }, async () => {
    await db.query('INSERT INTO counters (id, n) VALUES ($1, 0)', ['locked']);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transaction(async (tx) => {
      await tx.query('SELECT n FROM counters WHERE id = $1 FOR UPDATE', ['locked']);
      locked();
      await released;
    });
    await isLocked;
    const { error, ms } = await failure(() =>
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO counters (id, n) VALUES ($1, 1)', ['written-before']);
        await tx.query('UPDATE counters SET n = n + 1 WHERE id = $1', ['locked']);
      }),
    );
    release();
    await holder;
    expect(isUnavailable(error)).toBe(true);
    expect(ms).toBeLessThan(5_000);
    expect(await value('locked')).toBe(0);
    expect(await value('written-before')).toBeNull();
    // The connection came back: the database answers at once.
    await db.query('UPDATE counters SET n = n + 1 WHERE id = $1', ['locked']);
    expect(await value('locked')).toBe(1);
  });

  it.skipIf(name === 'pglite')('a statement running past the statement timeout ends and its transaction changes nothing', { timeout: 15_000 }, async () => {
    const alone = await failure(() => db.query('SELECT pg_sleep(5)'));
    expect(isUnavailable(alone.error)).toBe(true);
    expect(alone.ms).toBeLessThan(4_000);
    const inTransaction = await failure(() =>
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO counters (id, n) VALUES ($1, 1)', ['slow']);
        await tx.query('SELECT pg_sleep(5)');
      }),
    );
    expect(isUnavailable(inTransaction.error)).toBe(true);
    expect(inTransaction.ms).toBeLessThan(4_000);
    expect(await value('slow')).toBeNull();
    expect(db.poolStats().inUse).toBe(0);
  });

  it('a transaction left idle is rolled back and frees its connection for others', { timeout: 15_000 }, async () => {
    const stuck = failure(() =>
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO counters (id, n) VALUES ($1, 1)', ['idle']);
        // Work that never comes back to the database in time: a stuck caller.
        await sleep(timeouts.idleInTransactionMs + 1_500);
        await tx.query('UPDATE counters SET n = 2 WHERE id = $1', ['idle']);
      }),
    );
    // Others are served once the idle transaction is ended (on PGlite they wait for its one
    // connection, and may be refused while it is held).
    await sleep(timeouts.idleInTransactionMs + 500);
    expect(await value('idle')).toBeNull();
    await db.query('INSERT INTO counters (id, n) VALUES ($1, 1)', ['after']);
    const { error } = await stuck;
    expect(isUnavailable(error)).toBe(true);
    expect(await value('idle')).toBeNull();
    expect(await value('after')).toBe(1);
  });
});
