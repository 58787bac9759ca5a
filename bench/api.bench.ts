/**
 * The merchant API's and the checkout page's hot path, side by side with the floor, in one run
 * (`npm run bench:api`):
 *
 * 1. `POST /v1/checkout/sessions` with 10 connections (autocannon) against a bare Fastify + `pg`
 *    server doing one INSERT of the same body (the baseline), Tillpoint on PostgreSQL, and Tillpoint
 *    on PGlite. Goals: Tillpoint-PG ≥ 0.6× baseline; PGlite ≥ 0.8× Tillpoint-PG.
 * 2. 50 shoppers paying at once, 3 rounds, through `POST /api/checkout/sessions/:id/payments` with
 *    the test processor (fake-valid-visa-nonce), each shopper on a keep-alive connection of their
 *    own (support/shopper-sockets.ts), on a store that has taken 3,000 payments and whose tables
 *    are analyzed, as autovacuum does (support/hot-path.ts, `settle`). Goal on PostgreSQL: p50 ≤ 20
 *    ms, p99 ≤ 50 ms.
 *
 * Each server runs in its own process; all three are started at once and driven one after another,
 * round after round (BENCH_ROUNDS, default 3), and the ratios are the medians of each round's: the
 * machine's load, which varies, meets all three alike. Then the PostgreSQL statements sent per
 * session creation, per payment and per session read are counted against their budgets (exit code 1
 * when over). CPU per call, of each server process and of the
 * PostgreSQL backends serving it (found by application name, read from /proc), is printed too:
 * unlike req/s and latency, it hardly moves with what else the machine is doing. PostgreSQL: BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test; each server gets a fresh schema, dropped at the end).
 * BENCH_SECONDS sets the length of each load phase (default 10), BENCH_CONNECTIONS its connections
 * (default 10; the goals are set at 10); BENCH_CPU_PROF=<dir> profiles the servers with `node
 * --cpu-prof`.
 */
import { loadavg } from 'node:os';
import { closeHotPath, openSessions, pay, PAYERS, payRound, statementsSent } from './support/hot-path';
import { drive, measured, type LoadResult } from './support/session-load';
import { fixed, percentile, startChild, type Child } from './support/processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAY_ROUNDS = 3;

type Kind = 'baseline' | 'tillpoint-postgres' | 'tillpoint-pglite';
const labels: Record<Kind, string> = {
  baseline: 'baseline (Fastify + pg, one INSERT)',
  'tillpoint-postgres': 'Tillpoint on PostgreSQL',
  'tillpoint-pglite': 'Tillpoint on PGlite',
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 200)); // the request log's write-behind

/** PostgreSQL statements per session creation (ten at a time), per payment (50 at once) and per session read (ten at a time). */
async function roundTrips(port: number, key: string) {
  const ids = await openSessions(port, key, PAYERS);
  await settle();
  let before = await statementsSent(port);
  await openSessions(port, key, 200); // ten at a time, so the request log batches as under load
  await settle();
  const perCreate = ((await statementsSent(port)) - before) / 200;
  before = await statementsSent(port);
  await payRound(port, ids);
  await settle();
  const perPayment = ((await statementsSent(port)) - before) / PAYERS;
  const read = (id: string) => fetch(`http://127.0.0.1:${port}/v1/checkout/sessions/${id}`, { headers: { authorization: `Bearer ${key}` } });
  const some = ids.slice(0, 10);
  before = await statementsSent(port);
  for (let i = 0; i < 20; i++) await Promise.all(some.map(async (id) => (await read(id)).text()));
  await settle();
  const perRead = ((await statementsSent(port)) - before) / 200;
  return { perCreate, perPayment, perRead };
}

const median = (values: number[]) => percentile(values, 0.5);
/** Statements per session creation (ten at a time) and per payment (50 at once) Tillpoint may send. */
const CREATE_BUDGET = 0.25;
const PAY_BUDGET = 0.3;
/**
 * Statements per authenticated read of a session (ten at a time): the read itself and a share of
 * the request log's. The key, once found, is kept, and the rate limit is taken in leased blocks, so
 * neither sends a statement of its own per call (1.08–1.14 measured).
 */
const READ_BUDGET = 1.25;
let overBudget = false;
const kinds: Kind[] = ['baseline', 'tillpoint-postgres', 'tillpoint-pglite'];
const servers = new Map<Kind, Child<{ port: number; key?: string }>>();
const load: Record<Kind, LoadResult[]> = { baseline: [], 'tillpoint-postgres': [], 'tillpoint-pglite': [] };
const paying: Record<Kind, Array<{ p50: number; p99: number; max: number; serverCpuMs: number; databaseCpuMs: number }>> = {
  baseline: [],
  'tillpoint-postgres': [],
  'tillpoint-pglite': [],
};
const cpu: Record<Kind, Array<{ server: number; database: number }>> = { baseline: [], 'tillpoint-postgres': [], 'tillpoint-pglite': [] };
try {
  // All three up at once; each round drives them one after another, so a change in the machine's
  // load meets all three alike, and the ratios are taken round by round.
  for (const kind of kinds) {
    const server = await startChild<{ port: number; key?: string }>('api-server.ts', [kind]);
    servers.set(kind, server);
    await drive(server.ready.port, server.ready.key, 2); // warm-up: JIT, pools, caches
  }
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(
      `round ${round} of ${ROUNDS} (load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')})`,
    );
    for (const kind of kinds) {
      const { port, key } = servers.get(kind)!.ready;
      const r = await measured(kind, port, key, SECONDS);
      load[kind].push(r);
      cpu[kind].push({ server: r.serverCpuMs, database: r.databaseCpuMs });
      console.log(
        `  ${labels[kind].padEnd(38)} ${fixed(r.rps, 0).padStart(6)} req/s  p50 ${fixed(r.p50)} ms  p99 ${fixed(r.p99)} ms` +
          `  CPU/request: server ${fixed(r.serverCpuMs, 3)} ms, PostgreSQL ${fixed(r.databaseCpuMs, 3)} ms` +
          (r.non2xx || r.errors ? `  (!) ${r.non2xx} non-2xx, ${r.errors} errors` : ''),
      );
      if (kind !== 'baseline') {
        const p = await pay(kind, port, key!, PAY_ROUNDS);
        paying[kind].push(p);
        console.log(
          `  ${''.padEnd(38)} paying, ${PAYERS} at once × ${PAY_ROUNDS}: p50 ${fixed(p.p50)} ms  p99 ${fixed(p.p99)} ms  max ${fixed(p.max)} ms` +
            `  CPU/payment: server ${fixed(p.serverCpuMs, 3)} ms, PostgreSQL ${fixed(p.databaseCpuMs, 3)} ms`,
        );
      }
    }
  }
  const pgServer = servers.get('tillpoint-postgres')!.ready;
  const trips = await roundTrips(pgServer.port, pgServer.key!);
  console.log('');
  // The budgets: session creations ten at a time share their statement with their audit lines
  // (ADR 0075); payments' budget is bench:pay's; a read sends nothing for its key or rate limit.
  overBudget = trips.perCreate > CREATE_BUDGET || trips.perPayment > PAY_BUDGET || trips.perRead > READ_BUDGET;
  console.log(
    `PostgreSQL statements per session creation: ${fixed(trips.perCreate, 2)} (budget ≤ ${CREATE_BUDGET}); per payment (50 at once): ${fixed(trips.perPayment, 2)} (budget ≤ ${PAY_BUDGET})` +
      `; per session read: ${fixed(trips.perRead, 2)} (budget ≤ ${READ_BUDGET})` +
      (overBudget ? ': a budget is exceeded' : ''),
  );
} finally {
  // The shoppers' keep-alive connections go first: a server's close waits for its open connections.
  await closeHotPath();
  for (const server of servers.values()) await server.stop();
}

const check = (ok: boolean) => (ok ? 'met' : 'NOT met');
const ratios = (a: Kind, b: Kind) => load[a].map((r, i) => r.rps / load[b][i]!.rps);
const pgVsBaseline = median(ratios('tillpoint-postgres', 'baseline'));
const pgliteVsPg = median(ratios('tillpoint-pglite', 'tillpoint-postgres'));
const pgPay = { p50: median(paying['tillpoint-postgres'].map((p) => p.p50)), p99: median(paying['tillpoint-postgres'].map((p) => p.p99)) };
const list = (values: number[], digits: number) => values.map((v) => fixed(v, digits)).join(', ');
console.log(
  `(medians over ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}; load average now ${loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')})`,
);
console.log(
  `session creation, Tillpoint-PG / baseline: ${fixed(pgVsBaseline, 2)}×  [${list(ratios('tillpoint-postgres', 'baseline'), 2)}]  (goal ≥ 0.6×: ${check(pgVsBaseline >= 0.6)})`,
);
console.log(
  `session creation, PGlite / Tillpoint-PG:   ${fixed(pgliteVsPg, 2)}×  [${list(ratios('tillpoint-pglite', 'tillpoint-postgres'), 2)}]  (goal ≥ 0.8×: ${check(pgliteVsPg >= 0.8)})`,
);
for (const kind of kinds) {
  console.log(
    `CPU per session creation, ${labels[kind]}: server ${fixed(median(cpu[kind].map((c) => c.server)), 3)} ms, PostgreSQL ${fixed(median(cpu[kind].map((c) => c.database)), 3)} ms`,
  );
}
for (const kind of ['tillpoint-postgres', 'tillpoint-pglite'] as Kind[]) {
  console.log(
    `CPU per payment, ${labels[kind]}: server ${fixed(median(paying[kind].map((p) => p.serverCpuMs)), 3)} ms, PostgreSQL ${fixed(median(paying[kind].map((p) => p.databaseCpuMs)), 3)} ms`,
  );
}
// Latency in units of one payment's CPU (server + PostgreSQL): comparable across machines of
// different speed, where milliseconds are not: a ratio survives a faster or busier machine.
const paymentCpu = median(paying['tillpoint-postgres'].map((p) => p.serverCpuMs)) + median(paying['tillpoint-postgres'].map((p) => p.databaseCpuMs));
console.log(
  `paying on PostgreSQL: p50 ${fixed(pgPay.p50)} ms (goal ≤ 20: ${check(pgPay.p50 <= 20)}), p99 ${fixed(pgPay.p99)} ms (goal ≤ 50: ${check(pgPay.p99 <= 50)})` +
    `; that is ${fixed(pgPay.p50 / paymentCpu)} and ${fixed(pgPay.p99 / paymentCpu)} × the CPU of one payment (${fixed(paymentCpu, 3)} ms)`,
);
if (overBudget) process.exitCode = 1;
