import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SqlClient } from '../../src/persistence/sql-client';
import { write } from '../../src/persistence/sql-client';
import { InsertCoalescer, statementOf, WriteBatch, type Statement } from '../../src/persistence/write-batch';
import { testDatabases } from '../support/databases';

/**
 * Writes held for a transaction's next statement or its commit (src/persistence/write-batch.ts):
 * the transaction stays atomic, reads see what was written before them, and a transaction of held
 * writes alone needs no BEGIN.
 */
describe.each(testDatabases)('held writes in a transaction ($name)', (database) => {
  let db: SqlClient;
  beforeAll(async () => {
    db = await database.open();
    await db.exec(`
      CREATE TABLE parents (id text PRIMARY KEY, note text);
      CREATE TABLE children (id text PRIMARY KEY, parent_id text NOT NULL REFERENCES parents (id));
      CREATE TABLE counters (id text PRIMARY KEY, n integer NOT NULL);
      INSERT INTO counters VALUES ('c', 0);
    `);
  });
  afterAll(async () => {
    await db.close();
  });

  const parent = (id: string) => ({ text: 'INSERT INTO parents (id) VALUES ($1)', params: [id], tables: ['parents'] });
  const child = (id: string, parentId: string) => ({
    text: 'INSERT INTO children (id, parent_id) VALUES ($1, $2)',
    params: [id, parentId],
    tables: ['children'],
  });
  const count = async (table: string, where = 'true') =>
    Number((await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)).rows[0]!.n);

  it('writes held writes alone, a child beside its parent, as one statement', async () => {
    await db.transaction(async (tx) => {
      await write(tx, parent('p1'));
      await write(tx, child('k1', 'p1'));
      await write(tx, child('k2', 'p1'));
    });
    expect(await count('children', "parent_id = 'p1'")).toBe(2);
  });

  it('a failing held write fails the transaction and leaves nothing behind', async () => {
    await expect(
      db.transaction(async (tx) => {
        await write(tx, parent('p2'));
        await write(tx, child('k3', 'nobody'));
      }),
    ).rejects.toThrow();
    expect(await count('parents', "id = 'p2'")).toBe(0);
    await expect(
      db.transaction(async (tx) => {
        await tx.query("UPDATE counters SET n = n + 1 WHERE id = 'c'");
        await write(tx, parent('p3'));
        await write(tx, parent('p3'));
      }),
    ).rejects.toThrow();
    expect(await count('parents', "id = 'p3'")).toBe(0);
    expect((await db.query<{ n: number }>("SELECT n FROM counters WHERE id = 'c'")).rows[0]!.n).toBe(0);
  });

  it('a held write rides with the next statement of another table, and is rolled back with it', async () => {
    await expect(
      db.transaction(async (tx) => {
        await write(tx, parent('p4'));
        const { rowCount } = await tx.query("UPDATE counters SET n = n + 1 WHERE id = 'c'");
        expect(rowCount).toBe(1);
        await write(tx, child('k4', 'p4'));
        // A locking read of another table carries them too.
        const { rows } = await tx.query<{ n: number }>("SELECT n FROM counters WHERE id = 'c' FOR UPDATE");
        expect(rows).toEqual([{ n: 1 }]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await count('parents', "id = 'p4'")).toBe(0);
    expect(await count('children', "id = 'k4'")).toBe(0);
    expect((await db.query<{ n: number }>("SELECT n FROM counters WHERE id = 'c'")).rows[0]!.n).toBe(0);
  });

  it('a statement that reads a table written by a held write sees the write', async () => {
    const seen = await db.transaction(async (tx) => {
      await write(tx, parent('p5'));
      const { rows } = await tx.query<{ id: string }>("SELECT id FROM parents WHERE id = 'p5' FOR UPDATE");
      await write(tx, child('k5', 'p5'));
      const children = await tx.query<{ n: unknown }>("SELECT count(*) AS n FROM children WHERE parent_id = 'p5'");
      return { parents: rows.length, children: Number(children.rows[0]!.n) };
    });
    expect(seen).toEqual({ parents: 1, children: 1 });
  });

  it('a held UPDATE never shares a statement with another change of its table (a row changed twice in one statement)', async () => {
    const bump = { text: "UPDATE counters SET n = n + 1 WHERE id = 'c'", params: [], tables: ['counters'] };
    await db.transaction(async (tx) => {
      await write(tx, bump);
      await write(tx, bump);
      await write(tx, bump);
    });
    expect((await db.query<{ n: number }>("SELECT n FROM counters WHERE id = 'c'")).rows[0]!.n).toBe(3);
    await db.query("UPDATE counters SET n = 0 WHERE id = 'c'");
  });

  // Rows written by one statement share its transaction id (xmin).
  const transactionsOf = async (ids: string[]) =>
    new Set((await db.query<{ x: string }>('SELECT xmin::text AS x FROM parents WHERE id = ANY($1)', [ids])).rows.map((row) => row.x)).size;

  it('transactions of held inserts alone, at once, go together in fewer statements, every row written', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `together_${i}`);
    await Promise.all(ids.map((id) => db.transaction(async (tx) => write(tx, parent(id)))));
    expect(await count('parents', "id LIKE 'together_%'")).toBe(8);
    // Sent one by one, they would be eight transactions.
    expect(await transactionsOf(ids)).toBeLessThan(8);
  });

  it('one refused among transactions sent together fails alone; the others are written', async () => {
    await write(db, parent('taken'));
    const ids = ['apart_1', 'apart_2', 'taken', 'apart_3', 'apart_4'];
    const results = await Promise.allSettled(ids.map((id) => db.transaction(async (tx) => write(tx, parent(id)))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
    expect(await count('parents', "id LIKE 'apart_%'")).toBe(4);
  });

  it('transactions of a parent and its child at once: their parents and their children each one insert of all the rows', async () => {
    const ids = Array.from({ length: 6 }, (_, i) => `family_${i}`);
    await Promise.all(
      ids.map((id) =>
        db.transaction(async (tx) => {
          await write(tx, parent(id));
          await write(tx, child(`${id}_child`, id));
        }),
      ),
    );
    expect(await count('parents', "id LIKE 'family_%'")).toBe(6);
    expect(await count('children', "parent_id LIKE 'family_%'")).toBe(6);
    expect(await transactionsOf(ids)).toBeLessThan(6);
  });

  it('outside a transaction a write is sent at once', async () => {
    await write(db, parent('p6'));
    expect(await count('parents', "id = 'p6'")).toBe(1);
  });
});

describe('WriteBatch', () => {
  it('carries held writes as CTEs in front of a statement, numbering their parameters after its own', () => {
    const batch = new WriteBatch();
    batch.hold({ text: 'INSERT INTO a (x, y) VALUES ($1, $2)', params: [1, 2], tables: ['a'] });
    batch.hold({ text: 'INSERT INTO b (x) VALUES ($1)', params: [3], tables: ['b'] });
    const carried = batch.carriedBy({ text: 'UPDATE c SET x = $1 WHERE id = $2', params: ['x', 'id'] });
    expect(carried).toEqual({
      text: 'WITH held_1 AS (INSERT INTO a (x, y) VALUES ($3, $4)), held_2 AS (INSERT INTO b (x) VALUES ($5)) UPDATE c SET x = $1 WHERE id = $2',
      params: ['x', 'id', 1, 2, 3],
    });
    expect(batch.size).toBe(0);
  });

  it('joins a statement that has a WITH of its own', () => {
    const batch = new WriteBatch();
    batch.hold({ text: 'INSERT INTO a (x) VALUES ($1)', params: [1], tables: ['a'] });
    expect(batch.carriedBy({ text: 'WITH k AS (SELECT $1::int AS v) SELECT v FROM k', params: [9] })).toEqual({
      text: 'WITH held_1 AS (INSERT INTO a (x) VALUES ($2)),  k AS (SELECT $1::int AS v) SELECT v FROM k',
      params: [9, 1],
    });
  });

  it('refuses to carry writes in front of a statement that touches their tables (it would not see them)', () => {
    const batch = new WriteBatch();
    batch.hold({ text: 'INSERT INTO a (x) VALUES ($1)', params: [1], tables: ['a'] });
    expect(batch.carriedBy({ text: 'SELECT * FROM public.a', params: [] })).toBeNull();
    expect(batch.carriedBy({ text: 'SELECT * FROM b JOIN a ON true', params: [] })).toBeNull();
    expect(batch.carriedBy({ text: 'DELETE FROM a', params: [] })).toBeNull();
    expect(batch.carriedBy({ text: 'LOCK TABLE b', params: [] })).toBeNull();
    expect(batch.size).toBe(1);
    expect(batch.alone()).toEqual({ text: 'INSERT INTO a (x) VALUES ($1)', params: [1] });
  });

  it('writes several held writes alone as one statement, the last one its main statement', () => {
    const batch = new WriteBatch();
    batch.hold({ text: 'INSERT INTO a (x) VALUES ($1)', params: [1], tables: ['a'] });
    batch.hold({ text: 'INSERT INTO b (x, y) VALUES ($1, $2)', params: [2, 3], tables: ['b'] });
    expect(batch.alone()).toEqual({
      text: 'WITH held_1 AS (INSERT INTO a (x) VALUES ($1)) INSERT INTO b (x, y) VALUES ($2, $3)',
      params: [1, 2, 3],
    });
  });
});

describe('statementOf', () => {
  it('merges the same one-row insert held several times into one insert of all its rows, where the first stood', () => {
    expect(
      statementOf([
        { text: 'INSERT INTO a (x) VALUES ($1)', params: [1], tables: ['a'] },
        { text: 'INSERT INTO b (x, y) VALUES ($1, $2)', params: [2, 3], tables: ['b'] },
        { text: 'INSERT INTO a (x) VALUES ($1)', params: [4], tables: ['a'] },
      ]),
    ).toEqual({
      text: 'WITH held_1 AS (INSERT INTO a (x) VALUES ($1), ($2)) INSERT INTO b (x, y) VALUES ($3, $4)',
      params: [1, 4, 2, 3],
    });
  });

  it('leaves any other insert as it is: an expression among the values, an ON CONFLICT', () => {
    const writes = [
      { text: 'INSERT INTO a (x, y) VALUES ($1, now())', params: [1], tables: ['a'] },
      { text: 'INSERT INTO a (x, y) VALUES ($1, now())', params: [2], tables: ['a'] },
      { text: 'INSERT INTO b (x) VALUES ($1) ON CONFLICT DO NOTHING', params: [3], tables: ['b'] },
      { text: 'INSERT INTO b (x) VALUES ($1) ON CONFLICT DO NOTHING', params: [4], tables: ['b'] },
    ];
    expect(statementOf(writes).text).toBe(
      'WITH held_1 AS (INSERT INTO a (x, y) VALUES ($1, now())), held_2 AS (INSERT INTO a (x, y) VALUES ($2, now())), ' +
        'held_3 AS (INSERT INTO b (x) VALUES ($3) ON CONFLICT DO NOTHING) INSERT INTO b (x) VALUES ($4) ON CONFLICT DO NOTHING',
    );
  });
});

describe('InsertCoalescer', () => {
  const insert = (x: number) => ({ text: 'INSERT INTO a (x) VALUES ($1)', params: [x], tables: ['a'] });
  /** A database that answers each statement when told to. */
  function slowDatabase() {
    const sent: Statement[] = [];
    const answers: Array<() => void> = [];
    const send = (statement: Statement) => {
      sent.push(statement);
      return new Promise<void>((resolve) => answers.push(resolve));
    };
    return { sent, send, answerAll: () => answers.splice(0).forEach((answer) => answer()) };
  }

  it('sends a lone transaction at once, and the ones that come meanwhile together once it is answered', async () => {
    const database = slowDatabase();
    const coalescer = new InsertCoalescer(database.send, { inFlight: 1, most: 16 }, () => false);
    const first = coalescer.run([insert(1)]);
    expect(database.sent).toEqual([{ text: 'INSERT INTO a (x) VALUES ($1)', params: [1] }]);
    const later = [coalescer.run([insert(2)]), coalescer.run([insert(3)])];
    expect(database.sent).toHaveLength(1);
    database.answerAll();
    await first;
    await vi.waitFor(() => expect(database.sent).toHaveLength(2));
    // The same one-row insert twice: one insert of both rows.
    expect(database.sent[1]).toEqual({ text: 'INSERT INTO a (x) VALUES ($1), ($2)', params: [2, 3] });
    database.answerAll();
    await Promise.all(later);
  });

  it('sends a transaction with any write but an insert on its own, without waiting', async () => {
    const database = slowDatabase();
    const coalescer = new InsertCoalescer(database.send, { inFlight: 1, most: 16 }, () => false);
    void coalescer.run([insert(1)]);
    void coalescer.run([insert(2)]);
    void coalescer.run([insert(3), { text: 'UPDATE b SET y = $1', params: [4], tables: ['b'] }]);
    expect(database.sent.map((s) => s.params)).toEqual([[1], [3, 4]]);
    database.answerAll();
  });

  it('transactions of the same kinds make the same statement text, whatever order they came in', async () => {
    const other = (x: number) => ({ text: 'INSERT INTO b (y) VALUES ($1)', params: [x], tables: ['b'] });
    const database = slowDatabase();
    const coalescer = new InsertCoalescer(database.send, { inFlight: 1, most: 3 }, () => false);
    // The first goes alone; then 1, 2, 3 together, and 4, 5, 6.
    const groups = [
      [coalescer.run([insert(0)]), coalescer.run([insert(1)]), coalescer.run([other(2)]), coalescer.run([insert(3)])],
      [coalescer.run([other(4)]), coalescer.run([insert(5)]), coalescer.run([insert(6)])],
    ];
    database.answerAll();
    await vi.waitFor(() => expect(database.sent).toHaveLength(2));
    database.answerAll();
    await Promise.all(groups[0]!);
    await vi.waitFor(() => expect(database.sent).toHaveLength(3));
    expect(database.sent[2]!.text).toBe(database.sent[1]!.text);
    database.answerAll();
    await Promise.all(groups[1]!);
  });
});
