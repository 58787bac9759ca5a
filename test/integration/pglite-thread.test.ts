import { pgliteTemplate } from '../support/pglite-template';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpServer } from '../../src/http/server';
import { isUniqueViolation } from '../../src/persistence/rows';
import { openPglite, type SqlClient } from '../../src/persistence/sql-client';
import { openDatabase, openTillpoint, type Tillpoint } from '../../src/runtime/open-tillpoint';

/**
 * The embedded database runs in a thread of its own: a long statement does not stop the server
 * from answering, and what crosses between the threads (rows, errors) is what PGlite gave.
 */
describe('PGlite in its own thread', () => {
  let db: SqlClient;
  let tillpoint: Tillpoint;
  let app: FastifyInstance;
  let base = '';

  beforeAll(async () => {
    db = await openPglite(null, undefined, { startFrom: pgliteTemplate.dump });
    tillpoint = await openTillpoint({ db, publicUrl: 'http://pay.test' });
    app = await buildHttpServer({ deps: tillpoint.deps, webRoot: '/nonexistent' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await tillpoint?.close();
  });

  it('the server answers its health check while the database is busy with a long statement', async () => {
    let running = true;
    const slow = db.query('SELECT pg_sleep(3)').then(() => {
      running = false;
    });
    // Let the statement start; a database on the server's own thread would hold even this timer.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(running).toBe(true);
    await slow;
  });

  it('rows keep their types: timestamps as Date, integers as numbers, json parsed', async () => {
    const { rows } = await db.query<{ at: unknown; n: unknown; doc: unknown; none: unknown; bytes: unknown }>(
      `SELECT timestamptz '2026-01-02 03:04:05.678+00' AS at, 42 AS n,
              '{"a":[1,"b",null]}'::jsonb AS doc, NULL::text AS none, '\\x0102'::bytea AS bytes`,
    );
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.at).toBeInstanceOf(Date);
    expect((row.at as Date).toISOString()).toBe('2026-01-02T03:04:05.678Z');
    expect(row.n).toBe(42);
    expect(row.doc).toEqual({ a: [1, 'b', null] });
    expect(row.none).toBeNull();
    expect(row.bytes).toBeInstanceOf(Uint8Array);
    expect([...(row.bytes as Uint8Array)]).toEqual([1, 2]);
  });

  it('a constraint violation keeps what callers read of it: code, constraint, detail, message', async () => {
    await db.exec('CREATE TABLE thread_unique (id text CONSTRAINT thread_unique_pk PRIMARY KEY)');
    await db.query('INSERT INTO thread_unique (id) VALUES ($1)', ['a']);
    const failure = await db.query('INSERT INTO thread_unique (id) VALUES ($1)', ['a']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ code: '23505', constraint: 'thread_unique_pk', detail: 'Key (id)=(a) already exists.' });
    expect((failure as Error).message).toContain('duplicate key');
    expect(isUniqueViolation(failure, 'thread_unique_pk')).toBe(true);
    // In a transaction too, and the transaction is rolled back with it.
    const inTransaction = await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO thread_unique (id) VALUES ($1)', ['b']);
        await tx.query('INSERT INTO thread_unique (id) VALUES ($1)', ['a']);
      })
      .catch((error: unknown) => error);
    expect(inTransaction).toMatchObject({ code: '23505', constraint: 'thread_unique_pk' });
    const { rows } = await db.query<{ id: string }>('SELECT id FROM thread_unique ORDER BY id');
    expect(rows).toEqual([{ id: 'a' }]);
  });

  it('a statement outside a transaction waits for the transaction open, and sees it only once committed', async () => {
    await db.exec('CREATE TABLE thread_order (n int)');
    const signal = () => {
      let resolve!: () => void;
      const done = new Promise<void>((ready) => (resolve = ready));
      return { done, resolve };
    };
    const inserted = signal();
    const outsideSent = signal();
    const afterOutside = signal();
    const held = signal();
    const transaction = db.transaction(async (tx) => {
      await tx.query('INSERT INTO thread_order (n) VALUES (1)');
      inserted.resolve();
      await outsideSent.done;
      // A round trip to the database's thread sent after the outside statement: had that one not
      // waited for the transaction, its answer would have come back first.
      await tx.query('SELECT 1');
      afterOutside.resolve();
      await held.done;
    });
    await inserted.done;
    const outside = db.query<{ count: number }>('SELECT count(*)::int AS count FROM thread_order');
    let seen: number | null = null;
    void outside.then(({ rows }) => (seen = rows[0]!.count));
    outsideSent.resolve();
    await afterOutside.done;
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toBeNull();
    held.resolve();
    await transaction;
    expect((await outside).rows[0]!.count).toBe(1);
  });

  it('a statement run before its table changed shape runs again after, with the new shape', async () => {
    await db.exec('CREATE TABLE thread_shape (id int)');
    await db.query('INSERT INTO thread_shape (id) VALUES ($1)', [1]);
    const select = 'SELECT * FROM thread_shape WHERE id = $1';
    expect((await db.query(select, [1])).rows).toEqual([{ id: 1 }]);
    // As a single statement…
    await db.query("ALTER TABLE thread_shape ADD COLUMN label text NOT NULL DEFAULT 'x'");
    expect((await db.query(select, [1])).rows).toEqual([{ id: 1, label: 'x' }]);
    // …and as a script (a migration), after which even a transaction's first use of it works.
    await db.exec("ALTER TABLE thread_shape ADD COLUMN note text NOT NULL DEFAULT 'y'");
    expect(await db.transaction((tx) => tx.query(select, [1]))).toMatchObject({ rows: [{ id: 1, label: 'x', note: 'y' }] });
  });
});

describe('the embedded database of a one-shot command', () => {
  it('starts with a 16 MB buffer pool; a server keeps PostgreSQL’s 128 MB', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'tillpoint-buffers-'));
    const dataDir = path.join(home, 'data');
    cpSync(pgliteTemplate.dir, dataDir, { recursive: true });
    try {
      const pool = async (options: { forCommand?: boolean }) => {
        const opened = await openDatabase({ databaseUrl: null, dataDir }, options);
        try {
          return (await opened.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers;
        } finally {
          await opened.close();
        }
      };
      expect(await pool({ forCommand: true })).toBe('16MB');
      expect(await pool({})).toBe('128MB');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
