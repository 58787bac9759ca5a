import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** Runs SQL; the same surface over PGlite and a PostgreSQL server. */
export interface SqlExecutor {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number }>;
}

/** A database: queries, transactions, multi-statement scripts. */
export interface SqlClient extends SqlExecutor {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (migrations). */
  exec(script: string): Promise<void>;
  close(): Promise<void>;
}

/** The embedded database: PostgreSQL compiled to WebAssembly, kept in `dataDir` (or in memory). */
export async function openPglite(dataDir: string | null): Promise<SqlClient> {
  const db = dataDir ? new PGlite(dataDir) : new PGlite();
  await db.waitReady;
  const wrap = (target: Pick<PGlite, 'query'>): SqlExecutor => ({
    async query<R>(text: string, params: unknown[] = []) {
      const result = await target.query<R>(text, params);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  });
  return {
    kind: 'pglite',
    ...wrap(db),
    // PGlite runs one transaction at a time, which serializes writers as a single connection would.
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    exec: async (script) => {
      await db.exec(script);
    },
    close: () => db.close(),
  };
}

/** A PostgreSQL server reached through a pool of connections. */
export async function openPostgres(url: string, options: { schema?: string; max?: number } = {}): Promise<SqlClient> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // Surface a bad URL at start-up, not on the first request.
  const probe = await pool.connect();
  probe.release();
  const executor = (client: pg.Pool | pg.PoolClient): SqlExecutor => ({
    async query<R>(text: string, params: unknown[] = []) {
      const result = await client.query(text, params);
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    },
  });
  return {
    kind: 'postgres',
    ...executor(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(executor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    exec: async (script) => {
      await pool.query(script);
    },
    close: () => pool.end(),
  };
}
