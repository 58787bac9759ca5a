import pg from 'pg';
import { asCallerSees, databaseUnavailable, isDatabaseUnreachable } from './database-errors';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts, type SqlClient, type SqlExecutor } from './sql-executor';
import { runTransaction } from './transaction-runner';

/** How many distinct statement texts are prepared by name; any beyond are planned on every call. */
export const MAX_PREPARED_STATEMENTS = 1000;

/**
 * Named prepared statements: a statement with parameters is parsed and planned once per connection
 * and then only bound and run, which halves what PostgreSQL spends on our short statements. Every
 * text we send is fixed SQL with `$n` parameters, so the set of names is bounded (and capped).
 * A statement without parameters goes by the simple query protocol, which also runs a script of
 * several statements whole (migrations).
 *
 * A prepared statement keeps its result's shape: if a newer instance's migration changes a table
 * a prepared `SELECT *` reads (a rolling upgrade), PostgreSQL refuses to run it ("cached plan must
 * not change result type"). On that error every name changes at once (a new generation), so every
 * connection prepares afresh; a statement alone is sent again, and a transaction fails as
 * `database_unavailable` for its caller to retry (docs/adr/0045-named-prepared-statements.md).
 */
export class PreparedStatements {
  private names = new Map<string, string>();
  private generation = 0;

  config(text: string, values: unknown[]): pg.QueryConfig {
    if (values.length === 0) return { text };
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

/** How a client reaches PostgreSQL (`openPostgres`). */
export interface PostgresOptions {
  /** The schema of our tables (a connection start-up setting); not through a transaction pooler. */
  schema?: string;
  /** Connections in the pool (10). */
  max?: number;
  onIdleError?: (error: Error) => void;
  /** Told at start-up of what the operator should fix (through a transaction pooler: a role whose statements are unbounded). */
  onWarning?: (message: string) => void;
  timeouts?: DatabaseTimeouts;
  /**
   * DATABASE_DIRECT_URL: set when `url` goes through a pooler in transaction mode (PgBouncer
   * `pool_mode = transaction`), which hands each transaction, and each statement outside one, to any
   * of its server connections. Then statements are sent unnamed, the bounds of `timeouts` are set
   * by each transaction (`SET LOCAL`; a statement outside one runs under the role's settings), and
   * what needs a session of its own (LISTEN: `dedicated`) connects here instead
   * (docs/adr/0098-transaction-poolers-and-a-direct-url.md).
   */
  directUrl?: string;
  /**
   * The URL is a transaction pooler though no `directUrl` is given (a read replica behind the same
   * pooler): as with `directUrl`, without a direct connection.
   */
  transactionPooler?: boolean;
  /** Connect once at opening to surface a bad URL (true); false: the first statement connects. */
  probe?: boolean;
}

/** Statements sent unnamed: planned on every call, valid on whichever server connection runs them. */
const unnamedStatements = {
  config: (text: string, values: unknown[]): pg.QueryConfig => (values.length === 0 ? { text } : { text, values }),
  outdated: () => false,
};

/** `BEGIN`, followed by the bounds of `timeouts` for this transaction alone. */
export function beginWithBounds(timeouts: DatabaseTimeouts): string {
  const ms = (value: number) => Math.max(0, Math.round(value));
  return [
    'BEGIN',
    `SET LOCAL statement_timeout = ${ms(timeouts.statementMs)}`,
    `SET LOCAL lock_timeout = ${ms(timeouts.lockMs)}`,
    `SET LOCAL idle_in_transaction_session_timeout = ${ms(timeouts.idleInTransactionMs)}`,
  ].join('; ');
}

/** The bounds a statement outside a transaction runs under through a pooler that are 0 (none). */
async function unboundedRoleSettings(pool: pg.Pool): Promise<string[]> {
  const names = ['statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout'];
  const { rows } = await pool.query<{ name: string; setting: string }>('SELECT name, setting FROM pg_settings WHERE name = ANY($1)', [names]);
  return names.filter((name) => rows.find((row) => row.name === name)?.setting === '0');
}

/**
 * A PostgreSQL server reached through a pool of connections. Each connection starts with the
 * server-side bounds of `timeouts`, so no statement waits on a lock or runs without end. Through a
 * transaction pooler (`directUrl` set) a connection has no session of its own: see `PostgresOptions`.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<SqlClient> {
  const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
  const pooled = options.directUrl !== undefined || options.transactionPooler === true;
  if (pooled && options.schema) {
    throw new Error("a schema cannot be set through a transaction pooler: set the role's search_path (ALTER ROLE … SET search_path)");
  }
  const sessionSettings: pg.ClientConfig = {
    // A database that does not answer fails the request (503 database_unavailable), never hangs it.
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    // Sent with every connection's start-up.
    statement_timeout: timeouts.statementMs,
    lock_timeout: timeouts.lockMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  };
  const direct: pg.ClientConfig = { ...sessionSettings, connectionString: options.directUrl ?? url };
  // A transaction pooler refuses start-up settings it does not know (PgBouncer: "unsupported
  // startup parameter"): its connections get the bounds from each transaction instead.
  const settings: pg.ClientConfig = pooled
    ? { connectionString: url, connectionTimeoutMillis: sessionSettings.connectionTimeoutMillis, keepAlive: true }
    : { ...sessionSettings, connectionString: url };
  const begin = pooled ? beginWithBounds(timeouts) : 'BEGIN';
  const pool = new pg.Pool({ ...settings, max: options.max ?? 10 });
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
  if (options.probe !== false) {
    const probe = await pool.connect();
    probe.release();
  }
  if (options.directUrl !== undefined && options.probe !== false) {
    const directProbe = new pg.Client(direct);
    try {
      await directProbe.connect();
    } catch (error) {
      await pool.end();
      throw Object.assign(new Error(`DATABASE_DIRECT_URL: ${(error as Error).message}`), { code: (error as { code?: unknown }).code });
    } finally {
      await directProbe.end().catch(() => undefined);
    }
    const unbounded = await unboundedRoleSettings(pool);
    if (unbounded.length > 0) {
      options.onWarning?.(
        `through the transaction pooler, statements outside a transaction run under the role's settings, and ${unbounded.join(', ')} ${unbounded.length === 1 ? 'is' : 'are'} 0 (no bound): set them on the role (ALTER ROLE … SET statement_timeout = '${timeouts.statementMs}ms', docs/scaling.md)`,
      );
    }
  }
  const statements = pooled ? unnamedStatements : new PreparedStatements();

  /** A statement on `client`; alone (on the pool) a statement outrun by a schema change is sent once more. */
  const send = async (client: pg.Pool | pg.PoolClient, text: string, params: unknown[], alone: boolean) => {
    const run = () => client.query(statements.config(text, params));
    let result: pg.QueryResult;
    try {
      result = await run();
    } catch (error) {
      if (!statements.outdated(error)) throw error;
      if (!alone) throw databaseUnavailable();
      result = await run();
    }
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  };

  return {
    kind: 'postgres',
    query: async (text, params = []) => {
      try {
        return await send(pool, text, params, true);
      } catch (error) {
        throw asCallerSees(error);
      }
    },
    exec: async (script) => {
      try {
        await pool.query(script);
      } catch (error) {
        throw asCallerSees(error);
      }
    },
    transaction: async (work) => {
      let client: pg.PoolClient | null = null;
      let broken = false;
      // The connection may die between two statements (terminated backend, network cut, idle
      // timeout): the client then emits 'error' with no query to fail, and unheard that would end
      // the process. The next statement fails instead, and the connection is dropped.
      const lost = () => {
        broken = true;
      };
      const connection = async () => {
        if (client) return client;
        try {
          client = await pool.connect();
        } catch (error) {
          broken = true;
          throw error;
        }
        client.on('error', lost);
        return client;
      };
      // A connection runs one statement at a time: statements a transaction starts side by side
      // (`Promise.all` of reads) wait their turn here, in the order they were started, rather than
      // in pg's own queue (deprecated, gone in pg 9).
      let previous: Promise<unknown> = Promise.resolve();
      const inTransaction: SqlExecutor['query'] = (text, params = []) => {
        const result = previous.then(async () => {
          try {
            return await send(await connection(), text, params, false);
          } catch (error) {
            broken ||= isDatabaseUnreachable(error);
            throw error;
          }
        });
        previous = result.catch(() => undefined);
        return result;
      };
      try {
        return await runTransaction(
          {
            begin: async () => {
              await inTransaction(begin);
            },
            query: inTransaction,
            exec: async (script) => {
              await inTransaction(script);
            },
            commit: async () => {
              await inTransaction('COMMIT');
            },
            // A lost connection took its transaction with it: nothing to roll back.
            rollback: async () => {
              if (!broken) await inTransaction('ROLLBACK');
            },
          },
          work,
        );
      } catch (error) {
        broken ||= isDatabaseUnreachable(error);
        throw asCallerSees(error);
      } finally {
        if (client) {
          (client as pg.PoolClient).off('error', lost);
          (client as pg.PoolClient).release(broken);
        }
      }
    },
    close: async () => {
      closed = true;
      await Promise.all([...dedicated].map((c) => c.end().catch(() => undefined)));
      await pool.end();
    },
    poolStats: () => ({ size: pool.totalCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    dedicated: () => {
      if (closed) return null;
      const c = new pg.Client(direct);
      dedicated.add(c);
      c.once('end', () => dedicated.delete(c));
      return c;
    },
  };
}
