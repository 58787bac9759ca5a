import { asCallerSees } from './database-errors';
import { startPgliteThread, type PgliteStart, type PgliteThread } from './pglite-client';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts, type SqlClient } from './sql-executor';
import { runTransaction, type TransactionConnection } from './transaction-runner';

function rethrown(error: unknown): never {
  throw asCallerSees(error);
}

/**
 * PostgreSQL's buffer pool for a one-shot command (`tillpoint migrate`, `account create`…), which
 * reads and writes a few pages and exits. PGlite sets the whole pool up at start: PostgreSQL's
 * default 128 MB, which a server keeps, costs a command about 0.5 CPU-seconds, a third of opening
 * the database ([ADR 0126](../../docs/adr/0126-a-command-opens-the-embedded-database-with-a-small-buffer-pool.md)).
 */
export const COMMAND_SHARED_BUFFERS = '16MB';

/**
 * The embedded database: PostgreSQL compiled to WebAssembly, kept in `dataDir` (or in memory). It
 * runs in a thread of its own (pglite-client.ts), so its work leaves the HTTP server's event loop.
 * It has one connection: a transaction holds it, and every other statement waits for it (at most
 * `timeouts.lockMs`). An in-memory database may start from `start.startFrom`, a data directory
 * PGlite dumped (dumpDataDir's tarball) instead of an empty one; `start.sharedBuffers` sets its
 * buffer pool (PostgreSQL's 128 MB unless given).
 */
export async function openPglite(dataDir: string | null, timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS, start: PgliteStart = {}): Promise<SqlClient> {
  const db = await startPgliteThread(dataDir, timeouts, start);
  let active = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    active += 1;
    try {
      return await work();
    } catch (error) {
      rethrown(error);
    } finally {
      active -= 1;
    }
  };
  return {
    kind: 'pglite',
    query: <R>(text: string, params: unknown[] = []) => counted(() => db.query<R>(text, params)),
    transaction: (work) => counted(() => runTransaction(pgliteTransaction(db), work)),
    exec: (script) => counted(() => db.exec(script)),
    close: () => db.close(),
    poolStats: () => ({ size: 1, inUse: Math.min(active, 1), waiting: Math.max(active - 1, 0) }),
  };
}

/** A transaction of PGlite's thread. */
function pgliteTransaction(db: PgliteThread): TransactionConnection {
  let tx: number | null = null;
  return {
    begin: async () => {
      tx = await db.begin();
    },
    query: (text, params) => db.query(text, params, tx!),
    exec: (script) => db.exec(script, tx!),
    commit: () => db.commit(tx!),
    rollback: () => db.rollback(tx!),
  };
}
