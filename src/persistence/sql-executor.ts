import type pg from 'pg';

/** Runs SQL; the same surface over PGlite and a PostgreSQL server, alone or inside a transaction. */
export interface SqlExecutor {
  /** One statement; `$n` are its parameters. */
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number }>;
  /** A script of several statements without parameters, run whole (migrations). */
  exec(script: string): Promise<void>;
}

/** A database: statements, transactions, scripts. */
export interface SqlClient extends SqlExecutor {
  readonly kind: 'pglite' | 'postgres';
  /** `work` as one transaction on one connection: committed when it returns, rolled back when it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Connections open, in use and waited for, read by `/metrics` (PGlite: one connection). */
  poolStats(): PoolStats;
  /**
   * PostgreSQL only: a new connection of its own, outside the pool, not yet connected (to LISTEN:
   * see notifications.ts), to the server itself when the pool goes through a transaction pooler
   * (DATABASE_DIRECT_URL). `close` ends it; null once closed.
   */
  dedicated?(): pg.Client | null;
}

export interface PoolStats {
  size: number;
  inUse: number;
  waiting: number;
}

/**
 * How long any one wait on the database may last. PostgreSQL enforces each on every connection
 * (statement_timeout, lock_timeout, idle_in_transaction_session_timeout); PGlite's thread bounds
 * the wait for its one connection by `lockMs` and rolls back a transaction idle past
 * `idleInTransactionMs` (pglite-worker.mjs). A statement past its bound fails as 503
 * `database_unavailable` (database-errors.ts).
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
