import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { TillpointError } from '../domain/shared/errors';

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
  /** Connections open, in use and waited for, read by `/metrics` (PGlite: one connection). */
  poolStats(): PoolStats;
}

export interface PoolStats {
  size: number;
  inUse: number;
  waiting: number;
}

/** The embedded database: PostgreSQL compiled to WebAssembly, kept in `dataDir` (or in memory). */
export async function openPglite(dataDir: string | null): Promise<SqlClient> {
  const db = dataDir ? new PGlite(dataDir) : new PGlite();
  await db.waitReady;
  // PGlite runs one statement at a time: one "connection", the rest wait for it.
  let active = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    active += 1;
    try {
      return await work();
    } finally {
      active -= 1;
    }
  };
  const wrap = (target: Pick<PGlite, 'query'>): SqlExecutor => ({
    async query<R>(text: string, params: unknown[] = []) {
      const result = await target.query<R>(text, params);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  });
  const top = wrap(db);
  return {
    kind: 'pglite',
    query: (text, params) => counted(() => top.query(text, params)),
    // PGlite runs one transaction at a time, which serializes writers as a single connection would.
    transaction: (work) => counted(() => db.transaction((tx) => work(wrap(tx)))),
    exec: async (script) => {
      await db.exec(script);
    },
    close: () => db.close(),
    poolStats: () => ({ size: 1, inUse: Math.min(active, 1), waiting: Math.max(active - 1, 0) }),
  };
}

/** SQLSTATE classes and socket errors that mean "the database cannot be reached", not "this query is wrong". */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', '57P01', '57P02', '57P03']);

/**
 * Whether a driver error means the database is down or the connection was lost (a restart, a
 * terminated backend, a network cut): the request may be retried later; nothing was committed.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (error instanceof TillpointError) return error.code === 'database_unavailable';
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return typeof message === 'string' && /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed|not queryable/i.test(message);
}

function unavailable(error: unknown): unknown {
  return isDatabaseUnreachable(error) && !(error instanceof TillpointError)
    ? new TillpointError('database_unavailable', 'The database is unavailable right now; try again shortly')
    : error;
}

/** A PostgreSQL server reached through a pool of connections. */
export async function openPostgres(
  url: string,
  options: { schema?: string; max?: number; onIdleError?: (error: Error) => void } = {},
): Promise<SqlClient> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    // A database that does not answer fails the request (503 database_unavailable), never hangs it.
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // A connection that breaks while idle (server restart, network cut) is dropped from the pool and
  // replaced on the next query; without a listener its 'error' would end the process.
  pool.on('error', (error) => options.onIdleError?.(error));
  // Every connection always has a listener of its own as well. A backend terminated just as its
  // connection is handed out (its ReadyForQuery and FATAL in one TCP read) emits 'error' after the
  // pool took its idle listener off and before the borrower put one on; unheard, that ends the
  // process. The connection is then unqueryable, so its next statement fails as unreachable.
  pool.on('connect', (client) => client.on('error', () => undefined));
  // Surface a bad URL at start-up, not on the first request.
  const probe = await pool.connect();
  probe.release();
  const executor = (client: pg.Pool | pg.PoolClient): SqlExecutor => ({
    async query<R>(text: string, params: unknown[] = []) {
      try {
        const result = await client.query(text, params);
        return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        throw unavailable(error);
      }
    },
  });
  return {
    kind: 'postgres',
    ...executor(pool),
    async transaction(work) {
      const client = await pool.connect().catch((error: unknown) => {
        throw unavailable(error);
      });
      let broken = false;
      // The connection may die between two statements (terminated backend, network cut): the client
      // then emits 'error' with no query to fail, and unheard that would end the process. The next
      // statement fails instead, and the connection is dropped.
      const lost = () => {
        broken = true;
      };
      client.on('error', lost);
      try {
        await client.query('BEGIN');
        const result = await work(executor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        broken = isDatabaseUnreachable(error);
        // A lost connection took its transaction with it: nothing to roll back, and not to be reused.
        if (!broken) await client.query('ROLLBACK').catch(() => undefined);
        throw unavailable(error);
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
    exec: async (script) => {
      await pool.query(script).catch((error: unknown) => {
        throw unavailable(error);
      });
    },
    close: () => pool.end(),
    poolStats: () => ({ size: pool.totalCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
  };
}
