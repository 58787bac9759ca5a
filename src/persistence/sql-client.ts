/**
 * The persistence layer's database, in one place for its users: the interface (sql-executor.ts),
 * the two adapters (postgres-adapter.ts, pglite-adapter.ts) and what a driver's error means
 * (database-errors.ts).
 */
export type { DatabaseTimeouts, PoolStats, SqlClient, SqlExecutor } from './sql-executor';
export { DEFAULT_DATABASE_TIMEOUTS } from './sql-executor';
export { COMMAND_SHARED_BUFFERS, openPglite } from './pglite-adapter';
export { openPostgres, PreparedStatements, MAX_PREPARED_STATEMENTS } from './postgres-adapter';
export { isDatabaseUnreachable, isDatabaseTimeout } from './database-errors';
