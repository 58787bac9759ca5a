import { randomBytes } from 'node:crypto';
import { DEFAULT_DATABASE_TIMEOUTS, openPglite, openPostgres, type DatabaseTimeouts, type SqlClient } from '../../src/persistence/sql-client';
import { migrate } from '../../src/persistence/migrations/index';
import { migratedPgliteTemplate, pgliteTemplate } from './pglite-template';

/**
 * The databases every integration suite runs against: the embedded PGlite always, and the
 * PostgreSQL server named by TEST_DATABASE_URL when set. With REQUIRE_POSTGRES=1 (CI) a missing URL
 * is a failure, not a skip. With TEST_DATABASE_DIRECT_URL set as well, TEST_DATABASE_URL is a
 * transaction pooler (PgBouncer) in front of that server (`npm run test:pgbouncer`), and
 * TEST_DATABASES=postgres leaves PGlite out.
 */
export interface TestDatabase {
  name: 'pglite' | 'postgres';
  /** A fresh, empty database (PGlite in memory, or a new schema on the server); default timeouts unless given. */
  open(timeouts?: DatabaseTimeouts): Promise<SqlClient>;
  /** The same with every migration applied (PGlite starts from the migrated template). */
  openMigrated(timeouts?: DatabaseTimeouts): Promise<SqlClient>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;
const directUrl = process.env.TEST_DATABASE_DIRECT_URL || undefined;
if (process.env.REQUIRE_POSTGRES === '1' && !postgresUrl) {
  throw new Error('REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set');
}
const only = process.env.TEST_DATABASES?.split(',').map((name) => name.trim());

/** `url` as another role. */
export function asRole(url: string, role: string): string {
  const changed = new URL(url);
  changed.username = role;
  changed.password = '';
  return changed.toString();
}

/**
 * The schemas of this run on the server start with this prefix, so the run's end removes any a worker
 * left (`dropRunSchemas`, from the global setup): each worker keeps one migrated schema for its next
 * suite until it exits.
 */
const runSchemaPrefix = () => `t_${process.env.TEST_RUN_ID ?? 'norun'}_`;

/** A new, empty schema of this run on the server. */
async function createSchema(url: string): Promise<string> {
  const schema = `${runSchemaPrefix()}${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres(url, { max: 1 });
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.close();
  }
  return schema;
}

async function dropSchemas(url: string, schemas: string[]): Promise<void> {
  if (schemas.length === 0) return;
  const admin = await openPostgres(url, { max: 1 });
  try {
    await admin.exec(schemas.map((schema) => `DROP SCHEMA IF EXISTS ${schema} CASCADE`).join(';\n'));
  } finally {
    await admin.close();
  }
}

/** Removes the schemas this run made on the server that are still there. */
export async function dropRunSchemas(url: string): Promise<void> {
  const admin = await openPostgres(url, { max: 1 });
  const { rows } = await admin
    .query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)', [runSchemaPrefix()])
    .finally(() => admin.close());
  await dropSchemas(
    url,
    rows.map((row) => row.nspname),
  );
}

/** A pool on `schema` of the server (the schema is a start-up setting of each connection). */
const connectTo = (url: string, schema: string, timeouts?: DatabaseTimeouts) => openPostgres(url, { schema, max: 20, ...(timeouts ? { timeouts } : {}) });

/**
 * A suite's schema on the server, reached directly. Each suite gets its own, so suites run in
 * parallel on one server without meeting; `close` ends the pool and drops the schema.
 */
async function openDirect(url: string, timeouts?: DatabaseTimeouts): Promise<SqlClient> {
  const schema = await createSchema(url);
  const db = await connectTo(url, schema, timeouts);
  return {
    ...db,
    async close() {
      await db.close();
      await dropSchemas(url, [schema]);
    },
  };
}

/**
 * A role of its own with a schema of the same name, which is its search_path: what a suite reaches
 * through a transaction pooler, which passes no start-up setting on. `timeouts` become the role's
 * bounds (as docs/scaling.md asks of Tillpoint's role), or none with null. A superuser, as the
 * direct suites' role is.
 */
export async function suiteRole(direct: string, timeouts: DatabaseTimeouts | null): Promise<{ role: string; drop(): Promise<void> }> {
  const role = `t_${randomBytes(6).toString('hex')}`;
  const bounds = timeouts
    ? [
        `ALTER ROLE ${role} SET statement_timeout = ${timeouts.statementMs}`,
        `ALTER ROLE ${role} SET lock_timeout = ${timeouts.lockMs}`,
        `ALTER ROLE ${role} SET idle_in_transaction_session_timeout = ${timeouts.idleInTransactionMs}`,
      ]
    : [];
  const admin = await openPostgres(direct, { max: 1 });
  try {
    const made = [`CREATE ROLE ${role} LOGIN SUPERUSER`, `CREATE SCHEMA ${role} AUTHORIZATION ${role}`, `ALTER ROLE ${role} SET search_path = ${role}`];
    await admin.exec([...made, ...bounds].join(';\n'));
  } finally {
    await admin.close();
  }
  return {
    role,
    async drop() {
      const cleanup = await openPostgres(direct, { max: 1 });
      try {
        // The pooler's idle server connections of the role go with it.
        await cleanup.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
        await cleanup.exec(`DROP SCHEMA ${role} CASCADE; DROP ROLE ${role}`);
      } finally {
        await cleanup.close();
      }
    },
  };
}

/** A suite's schema reached through a transaction pooler (`pooledUrl`), as a role of its own (`suiteRole`). */
async function openPooled(pooledUrl: string, direct: string, timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS): Promise<SqlClient> {
  const { role, drop } = await suiteRole(direct, timeouts);
  const db = await openPostgres(asRole(pooledUrl, role), { directUrl: asRole(direct, role), max: 20, timeouts });
  const close = db.close;
  return {
    ...db,
    async close() {
      await close();
      await drop();
    },
  };
}

/** `open`, then every migration: what the server's start does to a new database. */
const migrated = (open: (timeouts?: DatabaseTimeouts) => Promise<SqlClient>) => async (timeouts?: DatabaseTimeouts) => {
  const db = await open(timeouts);
  await migrate(db);
  return db;
};

const openServer = (timeouts?: DatabaseTimeouts) => (directUrl ? openPooled(postgresUrl!, directUrl, timeouts) : openDirect(postgresUrl!, timeouts));

/**
 * What a migrated database must look like to be lent again: its tables, columns and indexes,
 * and no setting changed for the session. A suite that altered either gets a database of its own
 * next time instead.
 */
const shapeOf = async (db: SqlClient): Promise<string> =>
  (
    await db.query<{ shape: string }>(
      `SELECT (SELECT md5(string_agg(table_name || '.' || column_name || ':' || data_type || ':' || is_nullable || ':' || coalesce(column_default, ''), ',' ORDER BY table_name, column_name))
                 FROM information_schema.columns WHERE table_schema = current_schema())
           || (SELECT md5(string_agg(indexdef, ',' ORDER BY indexdef)) FROM pg_indexes WHERE schemaname = current_schema())
           || coalesce((SELECT md5(string_agg(name || '=' || setting, ',' ORDER BY name)) FROM pg_settings WHERE source = 'session'), '') AS shape`,
    )
  ).rows[0]!.shape;

/**
 * How a worker keeps one migrated database between its suites: `open` makes a new one (every
 * migration applied); `setAside` takes a returned one, emptied, and gives back what opens it for the
 * next suite; `discard` closes one for good.
 */
interface Shelf {
  open(timeouts?: DatabaseTimeouts): Promise<SqlClient>;
  setAside(db: SqlClient): Promise<() => Promise<SqlClient>>;
  discard(db: SqlClient): Promise<void>;
}

/**
 * One migrated database per test worker, lent to one suite at a time: making one costs about a
 * second of CPU (WebAssembly PostgreSQL restoring the template; on the server, every migration in a
 * new schema: about a sixth of the PostgreSQL suites' time), and the suites of a worker run one after
 * another. Returning a lent database (its `close`) empties it (`truncateAll`) and keeps it for the next
 * suite, unless its shape changed; a suite that asks for other timeouts, or for a second database
 * while it holds one, gets one of its own.
 */
function lentPerWorker(shelf: Shelf) {
  const lending: { spare: (() => Promise<SqlClient>) | null; shape: string | null } = { spare: null, shape: null };
  return async (timeouts?: DatabaseTimeouts): Promise<SqlClient> => {
    if (timeouts && JSON.stringify(timeouts) !== JSON.stringify(DEFAULT_DATABASE_TIMEOUTS)) {
      const own = await shelf.open(timeouts);
      return { ...own, close: () => shelf.discard(own) };
    }
    const spare = lending.spare;
    lending.spare = null;
    const db = spare ? await spare() : await shelf.open();
    lending.shape ??= await shapeOf(db);
    let returned = false;
    return {
      ...db,
      async close() {
        if (returned) return;
        returned = true;
        const reusable = lending.spare === null && (await shapeOf(db).catch(() => null)) === lending.shape;
        if (!reusable) return shelf.discard(db);
        await truncateAll(db);
        // Another of the suite's databases may have been returned meanwhile: the first one back is kept.
        if (lending.spare !== null) return shelf.discard(db);
        lending.spare = await shelf.setAside(db);
      },
    };
  };
}

/** PGlite in memory: kept open as it is (it holds no connection of anyone's). */
const pgliteShelf: Shelf = {
  open: (timeouts) => openPglite(null, timeouts, { startFrom: migratedPgliteTemplate.dump }),
  setAside: async (db) => async () => db,
  discard: (db) => db.close(),
};

/**
 * A schema on the server, reached directly: kept without its pool (idle pools of every worker's kept
 * schema ran the server out of connections), and connected to again for the next suite.
 */
const serverShelf = (url: string): Shelf => {
  const schemaOf = new WeakMap<SqlClient, string>();
  const connect = async (schema: string, timeouts?: DatabaseTimeouts) => {
    const db = await connectTo(url, schema, timeouts);
    schemaOf.set(db, schema);
    return db;
  };
  return {
    async open(timeouts) {
      const db = await connect(await createSchema(url), timeouts);
      await migrate(db);
      return db;
    },
    async setAside(db) {
      await db.close();
      const schema = schemaOf.get(db)!;
      return () => connect(schema);
    },
    async discard(db) {
      await db.close();
      await dropSchemas(url, [schemaOf.get(db)!]);
    },
  };
};

export const testDatabases: TestDatabase[] = [
  {
    name: 'pglite' as const,
    open: (timeouts?: DatabaseTimeouts) => openPglite(null, timeouts, { startFrom: pgliteTemplate.dump }),
    openMigrated: lentPerWorker(pgliteShelf),
  },
  ...(postgresUrl
    ? [
        {
          name: 'postgres' as const,
          open: openServer,
          // Through a pooler each suite keeps a role and schema of its own (`openPooled`).
          openMigrated: directUrl ? migrated(openServer) : lentPerWorker(serverShelf(postgresUrl)),
        },
      ]
    : []),
].filter((database) => !only || only.includes(database.name));

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
