import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PREPARED_STATEMENTS, openPostgres, PreparedStatements, type SqlClient } from '../../src/persistence/sql-client';

const url = process.env.TEST_DATABASE_URL;

describe('named prepared statements', () => {
  it('names each statement text once, leaves statements without parameters unnamed, and stops naming at the cap', () => {
    const statements = new PreparedStatements();
    const first = statements.config('SELECT * FROM t WHERE id = $1', ['a']);
    expect(first.name).toBeTruthy();
    expect(statements.config('SELECT * FROM t WHERE id = $1', ['b']).name).toBe(first.name);
    expect(statements.config('SELECT * FROM t WHERE k = $1', ['b']).name).not.toBe(first.name);
    expect(statements.config('BEGIN', []).name).toBeUndefined();
    for (let i = 0; statements.config(`SELECT $1::int + ${i}`, [1]).name !== undefined; i++) {
      expect(i).toBeLessThan(MAX_PREPARED_STATEMENTS);
    }
    // Texts already named keep their names past the cap.
    expect(statements.config('SELECT * FROM t WHERE id = $1', ['c']).name).toBe(first.name);
  });
});

/**
 * A rolling upgrade: a newer instance migrates a table while this one has `SELECT *` prepared on
 * its connections. PostgreSQL refuses to run such a statement again; the client must recover.
 */
describe.skipIf(!url)('named prepared statements on PostgreSQL', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let db: SqlClient;
  let admin: SqlClient;
  afterEach(async () => {
    await db.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
  });

  async function open(max: number) {
    admin = await openPostgres(url!, { max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`CREATE TABLE ${schema}.things (id text PRIMARY KEY, label text NOT NULL)`);
    await admin.query(`INSERT INTO ${schema}.things VALUES ('a', 'first')`);
    db = await openPostgres(url!, { schema, max });
  }

  it('plans a statement once per connection and then only runs it', async () => {
    await open(1);
    for (const id of ['a', 'b', 'a']) await db.query('SELECT label FROM things WHERE id = $1', [id]);
    const { rows } = await db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements WHERE statement LIKE $1', ['%FROM things%']);
    expect(rows.map((r) => r.statement)).toEqual(['SELECT label FROM things WHERE id = $1']);
  });

  it('reads a table changed under a prepared SELECT * again, alone at once and in a transaction after one 503', async () => {
    await open(2);
    const read = (client: { query: SqlClient['query'] }) => client.query<Record<string, unknown>>('SELECT * FROM things WHERE id = $1', ['a']);
    // Prepare the statement on both connections of the pool.
    await Promise.all([db.transaction((tx) => read(tx)), db.transaction((tx) => read(tx))]);

    await admin.query(`ALTER TABLE ${schema}.things ADD COLUMN note text NOT NULL DEFAULT 'added'`);
    const alone = await read(db);
    expect(alone.rows[0]).toEqual({ id: 'a', label: 'first', note: 'added' });

    await admin.query(`ALTER TABLE ${schema}.things ADD COLUMN rank int NOT NULL DEFAULT 7`);
    await expect(db.transaction((tx) => read(tx))).rejects.toMatchObject({ code: 'database_unavailable' });
    const retried = await db.transaction((tx) => read(tx));
    expect(retried.rows[0]).toEqual({ id: 'a', label: 'first', note: 'added', rank: 7 });
    // Both connections serve the new shape.
    const both = await Promise.all([db.transaction((tx) => read(tx)), db.transaction((tx) => read(tx))]);
    expect(both.map((r) => r.rows[0]!.rank)).toEqual([7, 7]);
  });
});

describe.skipIf(!url)('statements a transaction starts side by side, on PostgreSQL', () => {
  it('run one after another on its connection, in the order started, with no deprecated queueing by pg', async () => {
    const db = await openPostgres(url!, { max: 1 });
    const throwing = process.throwDeprecation;
    // pg warns (here: throws) when a query is sent while its client is still running one.
    process.throwDeprecation = true;
    try {
      const order: number[] = [];
      const results = await db.transaction(async (tx) =>
        Promise.all(
          [0.05, 0, 0.02].map(async (seconds, i) => {
            const { rows } = await tx.query<{ i: number }>('SELECT $1::int AS i FROM pg_sleep($2)', [i, seconds]);
            order.push(rows[0]!.i);
            return rows[0]!.i;
          }),
        ),
      );
      expect(results).toEqual([0, 1, 2]);
      expect(order).toEqual([0, 1, 2]);
      // A failed statement does not stop the ones started after it (the transaction then fails as a whole).
      await expect(db.transaction(async (tx) => Promise.all([tx.query('SELECT 1/0'), tx.query('SELECT 1')]))).rejects.toThrow();
    } finally {
      process.throwDeprecation = throwing;
      await db.close();
    }
  });
});
