import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TillpointError } from '../../src/domain/shared/errors';
import { migrate, migrations } from '../../src/persistence/migrations/index';
import { apiKeyChangeFeed } from '../../src/persistence/notifications';
import { openPostgres, type DatabaseTimeouts, type SqlClient } from '../../src/persistence/sql-client';
import { asRole, suiteRole } from '../support/databases';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer';

/** The server itself (in `npm run test:pgbouncer`, TEST_DATABASE_URL is already a bouncer). */
const direct = process.env.TEST_DATABASE_DIRECT_URL || process.env.TEST_DATABASE_URL;

const timeouts: DatabaseTimeouts = { lockMs: 300, statementMs: 2_000, idleInTransactionMs: 5_000 };

/**
 * Tillpoint behind PgBouncer in transaction pooling mode (DATABASE_URL the bouncer,
 * DATABASE_DIRECT_URL the server): a bouncer of the suite's own with two server connections per
 * role, so every client's statements and transactions land on connections other clients used.
 */
describe.skipIf(!direct)('through PgBouncer in transaction pooling mode (postgres)', () => {
  let bouncer: PgBouncer;
  const dropped: Array<() => Promise<void>> = [];
  const opened: SqlClient[] = [];

  beforeAll(async () => {
    bouncer = await startPgBouncer({ server: direct!, poolSize: 2 });
  }, 300_000);
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    for (const drop of dropped) await drop();
    await bouncer?.stop();
  });

  /** A role of the suite's own (bounded like Tillpoint's, or not at all) and `count` clients of it through the bouncer. */
  async function clients(count: number, roleTimeouts: DatabaseTimeouts | null, onWarning?: (message: string) => void) {
    const { role, drop } = await suiteRole(direct!, roleTimeouts);
    dropped.push(drop);
    const made = await Promise.all(
      Array.from({ length: count }, () =>
        openPostgres(asRole(bouncer.url(direct!), role), { directUrl: asRole(direct!, role), max: 5, timeouts, ...(onWarning ? { onWarning } : {}) }),
      ),
    );
    opened.push(...made);
    return { role, dbs: made };
  }

  it('three instances on two server connections: each statement and transaction answers its own, none finds another statement', {
    timeout: 60_000,
  }, async () => {
    const warnings: string[] = [];
    const { dbs } = await clients(3, timeouts, (message) => warnings.push(message));
    // A role bounded as docs/scaling.md says: nothing to warn of.
    expect(warnings).toEqual([]);
    await dbs[0]!.exec('CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)');
    // Twelve texts, sent in a different order by each client: statements named per client would
    // meet another client's name for another text (or none) on a shared server connection.
    const work = dbs.flatMap((db, client) =>
      Array.from({ length: 40 }, async (_, i) => {
        const shape = (i * (client + 1)) % 12;
        const id = client * 1000 + i;
        if (i % 2 === 0) {
          const { rows } = await db.query<{ n: number; shape: number }>(`SELECT $1::int * ${shape + 2} AS n, ${shape} AS shape`, [id]);
          expect(rows).toEqual([{ n: id * (shape + 2), shape }]);
          return;
        }
        const read = await db.transaction(async (tx) => {
          await tx.query(`INSERT INTO notes (id, body) VALUES ($1, $2 || '-${shape}')`, [id, `note ${id}`]);
          return tx.query<{ body: string }>('SELECT body FROM notes WHERE id = $1', [id]);
        });
        expect(read.rows).toEqual([{ body: `note ${id}-${shape}` }]);
      }),
    );
    await Promise.all(work);
    const { rows } = await dbs[1]!.query<{ count: string }>('SELECT count(*) AS count FROM notes');
    expect(Number(rows[0]!.count)).toBe(60);
  });

  it('a transaction keeps the lock bound it was opened with although the role has none, and start-up says the role is unbounded', {
    timeout: 30_000,
  }, async () => {
    const warnings: string[] = [];
    const { role, dbs } = await clients(1, null, (message) => warnings.push(message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/statement_timeout, lock_timeout, idle_in_transaction_session_timeout are 0/);
    const db = dbs[0]!;
    await db.exec("CREATE TABLE counters (id text PRIMARY KEY, n int NOT NULL); INSERT INTO counters VALUES ('a', 0)");
    const holder = new pg.Client({ connectionString: asRole(direct!, role) });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT n FROM counters WHERE id = 'a' FOR UPDATE");
      const started = performance.now();
      const error = await db.transaction((tx) => tx.query('UPDATE counters SET n = n + 1 WHERE id = $1', ['a'])).catch((caught: unknown) => caught);
      const ms = performance.now() - started;
      expect(error).toBeInstanceOf(TillpointError);
      expect((error as TillpointError).code).toBe('database_unavailable');
      expect(ms).toBeLessThan(2_500);
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    // Nothing was changed, and the connection serves the next transaction.
    await db.transaction((tx) => tx.query('UPDATE counters SET n = n + 1 WHERE id = $1', ['a']));
    expect((await db.query<{ n: number }>('SELECT n FROM counters')).rows).toEqual([{ n: 1 }]);
  });

  it('API key changes are heard on a connection to DATABASE_DIRECT_URL, announced through the bouncer', { timeout: 30_000 }, async () => {
    const { role, dbs } = await clients(1, timeouts);
    const db = dbs[0]!;
    const changed: string[] = [];
    const feed = apiKeyChangeFeed(db);
    feed.subscribe({ changed: (id) => changed.push(id), unknown: () => undefined });
    await feed.open();
    try {
      expect(feed.watching).toBe(true);
      // What migration 0013's triggers send when a key changes: `<schema> <key id>`.
      await db.query("SELECT pg_notify('tillpoint_api_keys', $1)", [`${role} key_pooled`]);
      const deadline = Date.now() + 10_000;
      while (!changed.includes('key_pooled') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(changed).toEqual(['key_pooled']);
    } finally {
      await feed.close();
    }
  });

  it('three instances migrating at once through the bouncer apply each migration once (the lock is the transaction’s)', { timeout: 120_000 }, async () => {
    const { dbs } = await clients(3, timeouts);
    const applied = await Promise.all(dbs.map((db) => migrate(db)));
    expect(applied.flat().sort((a, b) => a - b)).toEqual(migrations.map((migration) => migration.version).sort((a, b) => a - b));
    const { rows } = await dbs[0]!.query<{ count: string }>('SELECT count(*) AS count FROM schema_migrations');
    expect(Number(rows[0]!.count)).toBe(migrations.length);
  });
});
