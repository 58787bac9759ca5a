import { randomBytes } from 'node:crypto';
import { openPglite, openPostgres, type DatabaseTimeouts, type SqlClient } from '../../src/persistence/sql-client';
import { pgliteTemplate } from './pglite-template';

/**
 * The databases every integration suite runs against: the embedded PGlite always, and the
 * PostgreSQL server named by TEST_DATABASE_URL when set. With REQUIRE_POSTGRES=1 (CI) a missing URL
 * is a failure, not a skip.
 */
export interface TestDatabase {
  name: 'pglite' | 'postgres';
  /** A fresh, empty database (PGlite in memory, or a new schema on the server); default timeouts unless given. */
  open(timeouts?: DatabaseTimeouts): Promise<SqlClient>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;
if (process.env.REQUIRE_POSTGRES === '1' && !postgresUrl) {
  throw new Error('REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set');
}

export const testDatabases: TestDatabase[] = [
  { name: 'pglite', open: (timeouts?: DatabaseTimeouts) => openPglite(null, timeouts, pgliteTemplate.dump) },
  ...(postgresUrl
    ? [
        {
          name: 'postgres' as const,
          async open(timeouts?: DatabaseTimeouts) {
            // Each suite gets its own schema, so suites run in parallel on one server without meeting.
            const schema = `t_${randomBytes(6).toString('hex')}`;
            const admin = await openPostgres(postgresUrl, { max: 1 });
            await admin.query(`CREATE SCHEMA ${schema}`);
            await admin.close();
            const db = await openPostgres(postgresUrl, { schema, max: 20, ...(timeouts ? { timeouts } : {}) });
            const close = db.close;
            return {
              ...db,
              async close() {
                await close();
                const cleanup = await openPostgres(postgresUrl, { max: 1 });
                await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
                await cleanup.close();
              },
            };
          },
        },
      ]
    : []),
];

/**
 * Empties every table (keeping the schema), so each test starts from a clean database: one DO block,
 * one round trip, deleting the rows of every table with foreign-key triggers off
 * (`session_replication_role = replica`) so the order does not matter. On tables of a test's few
 * rows this is several times faster than TRUNCATE, which makes new files for every table.
 */
export async function truncateAll(db: SqlClient): Promise<void> {
  // Work the previous test left running (a webhook send finishing, a scheduled job) may hold row
  // locks; the emptying waits for that work as long as it must (the bounds on a request's waits,
  // 2 s for a lock, are not for it, and on a busy machine they cut it short), and a deadlock with it
  // is tried again.
  const emptyAll = `DO $$
    DECLARE t record;
    BEGIN
      SET LOCAL lock_timeout = '60s';
      SET LOCAL statement_timeout = '60s';
      SET LOCAL session_replication_role = replica;
      FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations' LOOP
        EXECUTE format('DELETE FROM %I', t.tablename);
      END LOOP;
    END $$`;
  for (let attempt = 1; ; attempt++) {
    try {
      await db.query(emptyAll);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
    }
  }
}
