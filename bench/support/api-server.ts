/**
 * One server of `npm run bench:api`, in its own process so the load generator never shares its
 * event loop. argv[2]: `tillpoint-postgres`, `tillpoint-pglite`, `baseline` (the floor of session
 * creation) or `pay-floor` (the floor of paying). Tells the parent
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

/**
 * The paying floor (`bench:pay`): bare Fastify + `pg` paying the plain way, one transaction per
 * payment on a pool of 10 (as Tillpoint's): the session's row locked, the payment inserted, the
 * session completed and the event written, then COMMIT. No processor, no flags, no webhooks: what
 * any store must do to take a payment, written the first way one would.
 */
async function startPayFloor() {
  await withAdmin(`CREATE SCHEMA ${schema}`);
  await withAdmin(`SET search_path = ${schema};
    CREATE TABLE bench_sessions (id text PRIMARY KEY, amount bigint NOT NULL, body jsonb NOT NULL, status text NOT NULL,
      payment_id text, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL);
    CREATE TABLE bench_payments (id text PRIMARY KEY, session_id text NOT NULL, amount bigint NOT NULL, email text NOT NULL,
      status text NOT NULL, created_at timestamptz NOT NULL);
    CREATE UNIQUE INDEX bench_payments_one_per_session ON bench_payments (session_id);
    CREATE TABLE bench_events (id text PRIMARY KEY, type text NOT NULL, object_id text NOT NULL, data jsonb NOT NULL, created_at timestamptz NOT NULL);`);
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` });
  const app = Fastify({ logger: false });
  app.get('/__bench/stats', stats);
  app.post('/__bench/analyze', async () => {
    await pool.query('ANALYZE bench_sessions, bench_payments, bench_events');
    return { analyzed: true };
  });
  app.post('/v1/checkout/sessions', async (request) => {
    const body = request.body as { line_items: { unit_amount: number; quantity: number }[] };
    const amount = body.line_items.reduce((sum, item) => sum + item.unit_amount * item.quantity, 0);
    const id = `cs_${randomBytes(12).toString('hex')}`;
    await pool.query(`INSERT INTO bench_sessions (id, amount, body, status, created_at, updated_at) VALUES ($1, $2, $3, 'open', now(), now())`, [
      id,
      amount,
      JSON.stringify(body),
    ]);
    return { id, object: 'checkout.session' };
  });
  app.post('/api/checkout/sessions/:id/payments', async (request, reply) => {
    const { id } = request.params as { id: string };
    const { email } = request.body as { email: string };
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query('SELECT amount, status FROM bench_sessions WHERE id = $1 FOR UPDATE', [id]);
      if (rows[0]?.status !== 'open') {
        await client.query('ROLLBACK');
        return reply.code(409).send({ error: { code: 'checkout_session_completed' } });
      }
      const paymentId = `pay_${randomBytes(12).toString('hex')}`;
      const payment = { id: paymentId, object: 'payment', amount: Number(rows[0].amount), status: 'succeeded', email };
      await client.query(`INSERT INTO bench_payments (id, session_id, amount, email, status, created_at) VALUES ($1, $2, $3, $4, 'succeeded', now())`, [
        paymentId,
        id,
        payment.amount,
        email,
      ]);
      await client.query(`UPDATE bench_sessions SET status = 'complete', payment_id = $2, updated_at = now() WHERE id = $1`, [id, paymentId]);
      await client.query(`INSERT INTO bench_events (id, type, object_id, data, created_at) VALUES ($1, 'payment.succeeded', $2, $3, now())`, [
        `evt_${randomBytes(12).toString('hex')}`,
        paymentId,
        JSON.stringify(payment),
      ]);
      await client.query('COMMIT');
      return { payment };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return {
    port,
    key: 'floor',
    schema,
    close: async () => {
      await app.close();
      await pool.end();
      await withAdmin(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}

const server = kind === 'baseline' ? await startBaseline() : kind === 'pay-floor' ? await startPayFloor() : await startTillpoint(kind === 'tillpoint-postgres');
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
