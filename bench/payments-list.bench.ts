/**
 * The dashboard's filtered payment list and search on a large account: seeds 100,000 payments into
 * PGlite (and into PostgreSQL when TEST_DATABASE_URL is set), then times the list endpoint, the
 * search box (`/dashboard/api/…/search`) and `GET /v1/payments/search` as the server answers them
 * (routing, session or key, role check, SQL, JSON). Target: under 200 ms median per call. Run:
 * `npm run bench`.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createApiKey } from '../src/domain/team/use-cases/create-api-key';
import { signUp } from '../src/domain/team/use-cases/sign-up';
import { buildHttpServer } from '../src/http/server';
import { openPglite, openPostgres, type SqlClient } from '../src/persistence/sql-client';
import { openTillpoint } from '../src/runtime/open-tillpoint';

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 100_000);
const RUNS = 15;
const TARGET_MS = 200;

async function seed(client: SqlClient, accountId: string) {
  // Seeding is no request: the connection's statement timeout does not bound it.
  await client.transaction(async (db) => {
    await db.query("SELECT set_config('statement_timeout', '0', true)");
    // One session per payment; amounts, statuses, emails and cards spread so every filter has work to do.
    await db.query(
      `INSERT INTO checkout_sessions (id, account_id, mode, status, currency, line_items, amount_subtotal, amount_total,
       capture_method, payment_method_types, metadata, expires_at, created_at, updated_at, client_reference_id)
     SELECT 'cs_bench' || g, $1, CASE WHEN g % 10 = 0 THEN 'live' ELSE 'test' END, 'complete', 'USD', '[]'::jsonb,
       500 + (g * 7919) % 100000, 500 + (g * 7919) % 100000, 'automatic', '["card"]'::jsonb,
       jsonb_build_object('order', 'ord_' || g), now() + interval '1 day', now() - (g || ' minutes')::interval, now(),
       'crm_' || g
     FROM generate_series(1, $2::int) AS g`,
      [accountId, PAYMENTS],
    );
    await db.query(
      `INSERT INTO payments (id, account_id, mode, checkout_session_id, amount, currency, status, capture_method,
       customer_email, payment_method, processor, created_at, updated_at)
     SELECT 'pay_bench' || g, $1, CASE WHEN g % 10 = 0 THEN 'live' ELSE 'test' END, 'cs_bench' || g,
       500 + (g * 7919) % 100000, 'USD',
       (ARRAY['succeeded','succeeded','succeeded','failed','requires_capture','canceled'])[1 + g % 6], 'automatic',
       'shopper' || (g % 5000) || '@buyer.example',
       jsonb_build_object('type', 'card', 'brand', 'visa', 'last4', lpad(((g * 31) % 10000)::text, 4, '0')),
       'test', now() - (g || ' minutes')::interval, now()
     FROM generate_series(1, $2::int) AS g`,
      [accountId, PAYMENTS],
    );
  });
  await client.query('ANALYZE payments');
  await client.query('ANALYZE checkout_sessions');
}

async function bench(name: string, db: SqlClient) {
  const tillpoint = await openTillpoint({ db, publicUrl: 'http://bench.test', signUp: 'open', rateLimitPerSecond: { test: 1_000_000 } });
  const owner = await signUp(tillpoint.deps, {
    email: `bench-${randomBytes(4).toString('hex')}@shop.example`,
    name: 'Bench',
    password: 'a bench password',
    businessName: 'Bench Shop',
    ip: null,
  });
  const started = performance.now();
  await seed(db, owner.accountId);
  console.log(`${name}: seeded ${PAYMENTS} payments in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const app = await buildHttpServer({ deps: tillpoint.deps, webRoot: '/nonexistent' });
  const base = `/dashboard/api/accounts/${owner.accountId}/test/payments`;
  const today = new Date().toISOString().slice(0, 10);
  const weekAgo = new Date(Date.now() - 7 * 86400_000).toISOString().slice(0, 10);
  const key = await createApiKey(tillpoint.deps, {
    scope: { accountId: owner.accountId, mode: 'test' },
    actor: { type: 'user', id: 'bench', label: 'bench', ip: null },
    kind: 'secret',
  });
  const box = (q: string) => `/dashboard/api/accounts/${owner.accountId}/test/search?q=${encodeURIComponent(q)}`;
  const api = (query: string) => `/v1/payments/search?query=${encodeURIComponent(query)}`;
  const cases: Array<[string, string]> = [
    ['newest page', base],
    ['status=failed', `${base}?status=failed`],
    ['status=succeeded,requires_capture + amount 10.00–50.00', `${base}?status=succeeded,requires_capture&amount_min=1000&amount_max=5000`],
    ['last 7 days + amount ≥ 900.00', `${base}?created_from=${weekAgo}&created_to=${today}&amount_min=90000`],
    ['email', `${base}?email=shopper42@buyer.example`],
    ['card last4', `${base}?last4=0042`],
    ['payment id', `${base}?q=pay_bench50001`],
    ['page 40 by cursor', `${base}?starting_after=pay_bench1001`],
    ['rare: amount exactly 100.00 and failed', `${base}?status=failed&amount_min=10000&amount_max=10000`],
    ['search box: id prefix pay_bench5000', box('pay_bench5000')],
    ['search box: email start shopper42', box('shopper42')],
    ['search box: email domain @buyer.example', box('@buyer.example')],
    ['search box: last4 or amount 0042', box('0042')],
    ['search box: amount 100.00', box('100.00')],
    ['search box: metadata value ord_50001', box('ord_50001')],
    ['search box: client_reference_id crm_50001', box('crm_50001')],
    ['search box: nothing matches', box('no-such-thing')],
    ["API search: status:'failed' AND amount>90000", api("status:'failed' AND amount>90000")],
    ["API search: email~'shopper42' AND last4", api("email~'shopper42' AND last4:'0042'")],
    ["API search: metadata['order']:'ord_50001'", api("metadata['order']:'ord_50001'")],
  ];
  let worst = 0;
  for (const [label, url] of cases) {
    const headers = url.startsWith('/v1/') ? { authorization: `Bearer ${key.secret}` } : { cookie: `tp_session=${owner.token}` };
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers });
      times.push(performance.now() - t0);
      if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
      count = res.json().data.length;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(RUNS / 2)]!;
    const p95 = times[Math.ceil(RUNS * 0.95) - 1]!;
    worst = Math.max(worst, median);
    console.log(`${name}: ${label.padEnd(62)} median ${median.toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  (${count} rows)`);
  }
  await app.close();
  console.log(`${name}: worst median ${worst.toFixed(1)} ms — ${worst < TARGET_MS ? 'within' : 'OVER'} the ${TARGET_MS} ms target\n`);
  return worst < TARGET_MS;
}

const results: boolean[] = [];
const pglite = await openPglite(null);
results.push(await bench('pglite', pglite));
await pglite.close();

const url = process.env.TEST_DATABASE_URL;
if (url) {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres(url, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const pg = await openPostgres(url, { schema, max: 4 });
  try {
    results.push(await bench('postgres', pg));
  } finally {
    await pg.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
  }
}
process.exitCode = results.every(Boolean) ? 0 : 1;
