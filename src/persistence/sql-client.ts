import pg from 'pg';
import { TillpointError } from '../domain/shared/errors';
import { ArrivalOrderGate } from './arrival-order';
import { startPgliteThread, type PgliteThread } from './pglite-client';
import type { Lanes } from './coalescer';
import { InsertCoalescer, WriteBatch, type HeldWrite } from './write-batch';

/** Runs SQL; the same surface over PGlite and a PostgreSQL server. */
export interface SqlExecutor {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number }>;
  /**
   * In a transaction: a write whose result nobody reads, sent with the transaction's next
   * statement or at its end (see write-batch.ts); an error in it fails that statement or the
   * commit. Absent outside a transaction: use `write` below.
   */
  hold?(write: HeldWrite): Promise<void>;
}

/** A write whose result nobody reads: held for the transaction's next statement when in one. */
export async function write(db: SqlExecutor, held: HeldWrite): Promise<void> {
  if (db.hold) await db.hold(held);
  else await db.query(held.text, held.params);
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
  /**
   * PostgreSQL only: a new connection of its own, outside the pool, not yet connected (to LISTEN:
   * see notifications.ts). `close` ends it; null once closed.
   */
  dedicated?(): pg.Client | null;
}

export interface PoolStats {
  size: number;
  inUse: number;
  waiting: number;
}

type Result = { rows: any[]; rowCount: number };

/** One connection's view of a transaction, as `runTransaction` drives it. */
interface TransactionConnection {
  /** Held writes, all the transaction did, as one statement outside any transaction (it commits by itself). */
  alone(writes: HeldWrite[]): Promise<void>;
  begin(): Promise<void>;
  /** A statement inside the transaction begun. */
  query(text: string, params: unknown[]): Promise<Result>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/**
 * Runs `work` as one transaction, with writes held as write-batch.ts says and BEGIN sent only
 * before the first statement that cannot wait: a transaction of held writes alone is one
 * statement, with no BEGIN or COMMIT; otherwise what is still held goes just before COMMIT.
 */
async function runTransaction<T>(connection: TransactionConnection, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  const batch = new WriteBatch();
  let begun: Promise<void> | null = null;
  const inTransaction = async (text: string, params: unknown[]) => {
    begun ??= connection.begin();
    await begun;
    return connection.query(text, params);
  };
  const executor: SqlExecutor = {
    async query<R>(text: string, params: unknown[] = []) {
      let statement = batch.carriedBy({ text, params });
      if (!statement) {
        const held = batch.alone();
        await inTransaction(held.text, held.params);
        statement = { text, params };
      }
      return (await inTransaction(statement.text, statement.params)) as { rows: R[]; rowCount: number };
    },
    async hold(held) {
      if (!batch.admits(held)) {
        const earlier = batch.alone();
        await inTransaction(earlier.text, earlier.params);
      }
      batch.hold(held);
    },
  };
  try {
    const result = await work(executor);
    if (!begun) {
      if (batch.size > 0) await connection.alone(batch.drain());
      return result;
    }
    if (batch.size > 0) {
      const held = batch.alone();
      await inTransaction(held.text, held.params);
    }
    await connection.commit();
    return result;
  } catch (error) {
    if (begun) await connection.rollback().catch(() => undefined);
    throw error;
  }
}

/**
 * The embedded database: PostgreSQL compiled to WebAssembly, kept in `dataDir` (or in memory). It
 * runs in a thread of its own (pglite-client.ts), so its work leaves the HTTP server's event loop.
 */
export async function openPglite(dataDir: string | null, timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS): Promise<SqlClient> {
  const db = await startPgliteThread(dataDir, timeouts);
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
  // One statement at a time: transactions of held inserts that meet go together (write-batch.ts).
  const coalescer = new InsertCoalescer(
    // Each transaction in it is counted already (below).
    (statement) => db.query(statement.text, statement.params),
    coalescedLanes('pglite'),
    isDatabaseUnreachable,
  );
  return {
    kind: 'pglite',
    query: (text, params = []) => counted(() => db.query(text, params).catch(rethrowUnavailable)),
    // PGlite runs one transaction at a time, which serializes writers as a single connection would:
    // its thread holds the transaction open, and every other statement waits behind it. The
    // transaction is opened at the first statement that needs one; held writes alone are one
    // statement of their own.
    transaction: (work) => counted(() => runTransaction(pgliteConnection(db, coalescer), work).catch(rethrowUnavailable)),
    exec: (script) => db.exec(script),
    close: () => db.close(),
    poolStats: () => ({ size: 1, inUse: Math.min(active, 1), waiting: Math.max(active - 1, 0) }),
  };
}

/** A transaction of PGlite's thread, as `runTransaction` drives it. */
function pgliteConnection(db: PgliteThread, coalescer: InsertCoalescer): TransactionConnection {
  let tx: number | null = null;
  return {
    alone: (writes) => coalescer.run(writes),
    begin: async () => {
      tx = await db.begin();
    },
    query: (text, params) => db.query(text, params, tx!),
    commit: () => db.commit(tx!),
    rollback: () => db.rollback(tx!),
  };
}

/**
 * How long any one wait on the database may last. PostgreSQL enforces each on every connection
 * (statement_timeout, lock_timeout, idle_in_transaction_session_timeout); PGlite's thread bounds
 * the wait for its one connection by `lockMs` and rolls back a transaction idle past
 * `idleInTransactionMs`. A statement past its bound fails as 503 `database_unavailable`.
 */
export interface DatabaseTimeouts {
  /** Waiting for a row or table lock (DATABASE_LOCK_TIMEOUT_MS). */
  lockMs: number;
  /** One statement, start to end (DATABASE_STATEMENT_TIMEOUT_MS). */
  statementMs: number;
  /** A transaction left open with no statement running (DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS). */
  idleInTransactionMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { lockMs: 2_000, statementMs: 5_000, idleInTransactionMs: 10_000 };

/**
 * SQLSTATEs of a wait cut short by its bound: a statement or lock timeout (57014, 55P03), a
 * transaction ended for idling (25P03). Nothing the statement did is kept; the caller may retry.
 */
const TIMEOUT_CODES = new Set(['57014', '55P03', '25P03']);

/** Whether a driver error is a wait cut short by `DatabaseTimeouts`. */
export function isDatabaseTimeout(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return typeof code === 'string' && TIMEOUT_CODES.has(code);
}

/** SQLSTATE classes and socket errors that mean "the database cannot be reached", not "this query is wrong". */
const UNREACHABLE_CODES = new Set(['25P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', '57P01', '57P02', '57P03']);

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

const databaseUnavailable = () =>
  new TillpointError('database_unavailable', 'The database is unavailable right now; try again shortly');

function rethrowUnavailable(error: unknown): never {
  throw unavailable(error);
}

function unavailable(error: unknown): unknown {
  if (error instanceof TillpointError) return error;
  return isDatabaseUnreachable(error) || isDatabaseTimeout(error) ? databaseUnavailable() : error;
}

/** The most transactions of held inserts, or reads, sent as one statement (coalescer.ts). */
export const COALESCED_MOST = 25;
/**
 * How the statements of requests under way at once are gathered on `kind` (coalescer.ts). On
 * PostgreSQL one group of a kind is on its way at a time while the next gathers; a full group goes
 * at once beside it, and so does the next group when the one on its way has taken longer than a
 * statement should (it waits on a row lock held elsewhere), up to three at once. Each statement
 * costs both the server and PostgreSQL about 0.2 ms besides its rows, so in a burst fewer, fuller
 * statements leave more of the machine to the payments themselves (docs/decisions.md). PGlite runs
 * one statement at a time.
 */
export function coalescedLanes(kind: SqlClient['kind']): Lanes {
  if (kind === 'pglite') return { inFlight: 1, most: COALESCED_MOST };
  return { inFlight: 1, most: COALESCED_MOST, atMost: 3, stalledAfterMs: 25 };
}

/** How many distinct statement texts are prepared by name; any beyond are planned on every call. */
export const MAX_PREPARED_STATEMENTS = 1000;

/**
 * Named prepared statements: a statement with parameters is parsed and planned once per connection
 * and then only bound and run, which halves what PostgreSQL spends on our short statements. Every
 * text we send is fixed SQL with `$n` parameters, so the set of names is bounded (and capped).
 *
 * A prepared statement keeps its result's shape: if a newer instance's migration changes a table
 * a prepared `SELECT *` reads (a rolling upgrade), PostgreSQL refuses to run it ("cached plan must
 * not change result type"). On that error every name changes at once (a new generation), so every
 * connection prepares afresh; a statement alone is sent again, and a transaction fails as
 * `database_unavailable` for its caller to retry (docs/decisions.md).
 */
export class PreparedStatements {
  private names = new Map<string, string>();
  private generation = 0;

  config(text: string, values: unknown[]): pg.QueryConfig {
    if (values.length === 0) return { text, values };
    let name = this.names.get(text);
    if (name === undefined) {
      if (this.names.size >= MAX_PREPARED_STATEMENTS) return { text, values };
      name = `tp${this.generation}_${this.names.size}`;
      this.names.set(text, name);
    }
    return { name, text, values };
  }

  /** Whether `error` is a prepared statement outrun by a schema change; if so, every name is renewed. */
  outdated(error: unknown): boolean {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if (code !== '0A000' || typeof message !== 'string' || !message.includes('cached plan must not change result type')) {
      return false;
    }
    this.generation += 1;
    this.names.clear();
    return true;
  }
}

/** A PostgreSQL server reached through a pool of connections. */
export async function openPostgres(
  url: string,
  options: { schema?: string; max?: number; onIdleError?: (error: Error) => void; timeouts?: DatabaseTimeouts } = {},
): Promise<SqlClient> {
  const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
  const settings = {
    connectionString: url,
    // Sent with every connection's start-up: no wait on this server is unbounded.
    statement_timeout: timeouts.statementMs,
    lock_timeout: timeouts.lockMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    // A database that does not answer fails the request (503 database_unavailable), never hangs it.
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  };
  const max = options.max ?? 10;
  const pool = new pg.Pool({ ...settings, max });
  // Who gets the next free connection: the statement of the earliest request (arrival-order.ts).
  const gate = new ArrivalOrderGate(max, settings.connectionTimeoutMillis, () => databaseUnavailable());
  const dedicated = new Set<pg.Client>();
  let closed = false;
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
  const statements = new PreparedStatements();
  const executor = (client: pg.Pool | pg.PoolClient, retryStalePlan: boolean): SqlExecutor => ({
    async query<R>(text: string, params: unknown[] = []) {
      const send = () => client.query(statements.config(text, params));
      try {
        let result: pg.QueryResult;
        try {
          result = await send();
        } catch (error) {
          if (!statements.outdated(error)) throw error;
          if (!retryStalePlan) throw databaseUnavailable();
          // A statement alone: the connection that failed is gone (the pool drops a connection
          // whose statement failed), and every name is new now. Sent once more, it is planned afresh.
          result = await send();
        }
        return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        throw unavailable(error);
      }
    },
  });
  const alone = executor(pool, true);
  const coalescer = new InsertCoalescer(
    (statement) => gate.run(() => alone.query(statement.text, statement.params)),
    coalescedLanes('postgres'),
    isDatabaseUnreachable,
  );
  return {
    kind: 'postgres',
    query: (text, params) => gate.run(() => alone.query(text, params)),
    transaction: async (work) => {
      // The connection is taken at the first statement that needs one: a transaction of held
      // inserts alone never takes one of its own, it joins the coalescer (write-batch.ts).
      // Set at the first statement that needs the connection: the client, its executor, and the
      // gate's place given back at the end.
      const taken: { client?: pg.PoolClient; run?: SqlExecutor; leave?: () => void } = {};
      let broken = false;
      // The connection may die between two statements (terminated backend, network cut): the client
      // then emits 'error' with no query to fail, and unheard that would end the process. The next
      // statement fails instead, and the connection is dropped.
      const lost = () => {
        broken = true;
      };
      const connection = async (): Promise<SqlExecutor> => {
        if (taken.run) return taken.run;
        const leave = await gate.enter();
        try {
          const client = await pool.connect();
          client.on('error', lost);
          Object.assign(taken, { client, leave, run: executor(client, false) });
          return taken.run!;
        } catch (error) {
          leave();
          throw unavailable(error);
        }
      };
      const query = async (text: string, params: unknown[] = []) => {
        try {
          return await (await connection()).query(text, params);
        } catch (error) {
          broken = broken || isDatabaseUnreachable(error);
          throw error;
        }
      };
      try {
        return await runTransaction(
          {
            alone: (writes) => coalescer.run(writes),
            begin: async () => {
              await query('BEGIN');
            },
            query,
            commit: async () => {
              await query('COMMIT');
            },
            // A lost connection took its transaction with it: nothing to roll back.
            rollback: async () => {
              if (!broken) await query('ROLLBACK');
            },
          },
          work,
        );
      } catch (error) {
        // A lost connection is not to be reused.
        broken = broken || isDatabaseUnreachable(error);
        throw unavailable(error);
      } finally {
        if (taken.client) {
          taken.client.off('error', lost);
          taken.client.release(broken);
          taken.leave!();
        }
      }
    },
    exec: (script) =>
      gate.run(async () => {
        await pool.query(script).catch((error: unknown) => {
          throw unavailable(error);
        });
      }),
    close: async () => {
      closed = true;
      await Promise.all([...dedicated].map((client) => client.end().catch(() => undefined)));
      await pool.end();
    },
    poolStats: () => ({ size: pool.totalCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount + gate.queued }),
    dedicated: () => {
      if (closed) return null;
      const client = new pg.Client(settings);
      dedicated.add(client);
      client.once('end', () => dedicated.delete(client));
      return client;
    },
  };
}
