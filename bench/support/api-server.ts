/**
 * One server of `npm run bench:api`, in its own process so the load generator never shares its
 * event loop. argv[2]: `tillpoint-postgres`, `tillpoint-pglite` or `baseline`. Tells the parent
 * `{ port, key? }` over IPC once it listens; on SIGTERM closes and drops its schema.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { buildHttpServer } from '../../src/http/server';
import { openPglite, openPostgres } from '../../src/persistence/sql-client';
import { batchedLogStream } from '../../src/runtime/log-stream';
import { openTillpoint } from '../../src/runtime/open-tillpoint';

const kind = process.argv[2];
// BENCH_LABEL tells two servers of one kind apart (`npm run bench:api-ab`): it joins the
// application name below.
const label = process.env.BENCH_LABEL ? `${kind}-${process.env.BENCH_LABEL}` : kind;

// Statements sent to PostgreSQL by this process (every pg client, pooled or not) and the CPU time
// it used, read by the bench at `GET /__bench/stats`, to count round trips and CPU per call. Its
// connections carry the application name `tillpoint-bench-<kind>`, so the bench can find their
// backends and read what CPU they used.
let statements = 0;
const stats = async () => ({ statements, cpu: process.cpuUsage() });
process.env.PGAPPNAME = `tillpoint-bench-${label}`;
const sendQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements += 1;
  return (sendQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
// BENCH_SCHEMA: join another bench server's schema (a second instance of the same Tillpoint); the
// server that made the schema drops it.
const joined = process.env.BENCH_SCHEMA;
const schema = joined ?? `bench_${randomBytes(5).toString('hex')}`;

async function withAdmin(sql: string) {
  const admin = new pg.Client({ connectionString: url, application_name: 'tillpoint-bench-admin' });
  await admin.connect();
  await admin.query(sql);
  await admin.end();
}

async function startTillpoint(onPostgres: boolean) {
  if (onPostgres && !joined) await withAdmin(`CREATE SCHEMA ${schema}`);
  // PGlite as `tillpoint serve` runs it: in a data directory, not in memory.
  const dataDir = onPostgres ? null : mkdtempSync(path.join(tmpdir(), 'tillpoint-bench-'));
  // The pool of `tillpoint serve` (10) unless BENCH_POOL says otherwise.
  const pool = process.env.BENCH_POOL ? { max: Number(process.env.BENCH_POOL) } : {};
  const db = onPostgres ? await openPostgres(url, { schema, ...pool }) : await openPglite(dataDir);
  const tillpoint = await openTillpoint({
    db,
    publicUrl: 'http://bench.test',
    // The limit is checked (and its shared counter written) on every call; it just never trips here.
    rateLimitPerSecond: { test: 100_000, live: 100_000 },
  });
  const { testSecretKey } = await createAccount(tillpoint.deps, { name: 'Bench Shop' });
  // As `tillpoint serve` runs by default: LOG_LEVEL=info to stdout (here /dev/null), batched per turn.
  // BENCH_LOG=0 switches the log off, to measure what it costs (`npm run bench:api-ab`).
  const app = await buildHttpServer({
    deps: tillpoint.deps,
    webRoot: '/nonexistent',
    logger: process.env.BENCH_LOG === '0' ? false : { level: 'info', stream: batchedLogStream() },
  });
  app.get('/__bench/stats', stats);
  // What autovacuum does to a store that has been taking payments a while: fresh statistics, and so
  // fresh plans for every prepared statement on these tables (hot-path.ts, `settle`).
  app.post('/__bench/analyze', async () => {
    await db.query('ANALYZE checkout_sessions, payments, test_processor_transactions, events, audit_log');
    return { analyzed: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return {
    port,
    key: testSecretKey,
    schema,
    close: async () => {
      await app.close();
      await tillpoint.close();
      if (onPostgres && !joined) await withAdmin(`DROP SCHEMA ${schema} CASCADE`);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The floor: Fastify parses the same body and does one INSERT of it into the same database. */
async function startBaseline() {
  await withAdmin(`CREATE SCHEMA ${schema}`);
  await withAdmin(`CREATE TABLE ${schema}.bench_sessions (id text PRIMARY KEY, body jsonb NOT NULL, created_at timestamptz NOT NULL)`);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const app = Fastify({ logger: false });
  app.get('/__bench/stats', stats);
  app.post('/v1/checkout/sessions', async (request) => {
    const id = `cs_${randomBytes(12).toString('hex')}`;
    await pool.query(`INSERT INTO ${schema}.bench_sessions (id, body, created_at) VALUES ($1, $2, now())`, [id, JSON.stringify(request.body)]);
    return { id, object: 'checkout.session' };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return {
    port,
    key: undefined,
    schema,
    close: async () => {
      await app.close();
      await pool.end();
      await withAdmin(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}

const server = kind === 'baseline' ? await startBaseline() : await startTillpoint(kind === 'tillpoint-postgres');
process.send!({ port: server.port, key: server.key, schema: server.schema });
let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);
