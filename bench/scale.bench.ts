/**
 * Capacity as a shop sees it (`npm run bench:scale`): real `tillpoint serve` instances on one
 * PostgreSQL through PgBouncer in transaction pooling mode (both started here, in temporary folders
 * on ports of their own), the test processor answering after SANDBOX_LATENCY_MS (300 ms by default,
 * normally distributed), and shoppers paying at a rising rate — open loop: a payment is sent at its
 * time whether or not the earlier ones have been answered, and timed from then — until the p99 is 2×
 * the processor's latency or a payment fails. For 1, 2 and 3 instances: the highest rate below that
 * (payments per second, in all and per instance), how it grows with instances, and the CPU per
 * payment of the servers, PostgreSQL and PgBouncer. Then one instance at half its rate, through
 * PgBouncer and directly, in turns: latency and CPU per payment each way.
 *
 * A floor is measured beside them: one instance's `GET /healthz` answers per second (20 at a time),
 * which is what this machine gives an HTTP request right now; the rates are also stated in it.
 *
 * Settings (environment): SANDBOX_LATENCY_MS (300), SCALE_INSTANCES ("1,2,3"), SCALE_STEP_SECONDS (6),
 * SCALE_START_RATE (10 payments/s), SCALE_RATE_FACTOR (1.25), SCALE_AB_ROUNDS (3).
 */
import http from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startCluster, type Cluster } from '../test/support/clusters';
import { startPgBouncer, type PgBouncer } from '../test/support/pgbouncer';
import { cli, startServe, stopAll, type ServerProcess } from '../test/support/processes';
import { fixed, percentile, processCpuMs } from './support/processes';

const LATENCY_MS = Number(process.env.SANDBOX_LATENCY_MS ?? 300);
const INSTANCES = (process.env.SCALE_INSTANCES ?? '1,2,3').split(',').map(Number);
const STEP_SECONDS = Number(process.env.SCALE_STEP_SECONDS ?? 6);
const START_RATE = Number(process.env.SCALE_START_RATE ?? 10);
const RATE_FACTOR = Number(process.env.SCALE_RATE_FACTOR ?? 1.25);
const AB_ROUNDS = Number(process.env.SCALE_AB_ROUNDS ?? 3);
/** The p99 that ends the climb: twice the processor's latency. */
const P99_LIMIT_MS = 2 * Math.max(LATENCY_MS, 1);

const agent = new http.Agent({ keepAlive: true, maxSockets: 2_000 });

function call(base: string, method: string, url: string, body?: string, key?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const request = http.request(
      `${base}${url}`,
      {
        method,
        agent,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(key ? { authorization: `Bearer ${key}` } : {}) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', (error) => resolve({ status: 0, body: String(error) }));
    request.end(body);
  });
}

const sessionBody = JSON.stringify({ currency: 'usd', line_items: [{ name: 'Single-origin beans, 250 g', unit_amount: 1450, quantity: 2 }] });
const payBody = JSON.stringify({ payment_method_type: 'card', nonce: 'fake-valid-visa-nonce', email: 'shopper@example.com' });

/** `count` open sessions, made 10 at a time across `bases`. */
async function openSessions(bases: string[], key: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 10) {
    const made = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, (_, j) => call(bases[(i + j) % bases.length]!, 'POST', '/v1/checkout/sessions', sessionBody, key)),
    );
    for (const res of made) {
      if (res.status !== 200) throw new Error(`could not open a session: ${res.status} ${res.body}`);
      ids.push((JSON.parse(res.body) as { id: string }).id);
    }
  }
  return ids;
}

/** The CPU ms used so far by PostgreSQL (the postmaster and every backend of the cluster). */
function postgresCpu(cluster: Cluster): Map<number, number> {
  const postmaster = Number(readFileSync(path.join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const used = new Map<number, number>([[postmaster, processCpuMs(postmaster)]]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.split(') ')[1]!.split(' ')[1]) === postmaster) used.set(Number(entry), processCpuMs(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return used;
}

const cpuDelta = (before: Map<number, number>, after: Map<number, number>) => {
  let ms = 0;
  for (const [pid, value] of after) ms += value - (before.get(pid) ?? 0);
  return ms;
};

interface Step {
  rate: number;
  sent: number;
  failed: number;
  p50: number;
  p99: number;
  serverCpuMs: number;
  postgresCpuMs: number;
  bouncerCpuMs: number;
  /** PostgreSQL's CPU over the step's wall time: the share of one core it kept busy. */
  postgresCores: number;
}

/**
 * Shoppers pay `rate` payments per second for STEP_SECONDS across `servers`, each payment sent at its
 * time (open loop) and timed from then. The CPU counted is the step's: the sessions are opened before.
 */
async function step(servers: ServerProcess[], key: string, rate: number, cluster: Cluster, bouncer: PgBouncer | null): Promise<Step> {
  const count = Math.max(1, Math.round(rate * STEP_SECONDS));
  const sessions = await openSessions(
    servers.map((server) => server.base),
    key,
    count,
  );
  const pids = servers.map((server) => server.child.pid!);
  const serverBefore = pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
  const postgresBefore = postgresCpu(cluster);
  const bouncerBefore = bouncer ? processCpuMs(bouncer.pid) : 0;
  const began = performance.now();
  const times: number[] = [];
  let failed = 0;
  const sent: Array<Promise<void>> = [];
  let next = 0;
  while (next < count) {
    const now = performance.now() - began;
    while (next < count && (next * 1000) / rate <= now) {
      const i = next++;
      const due = began + (i * 1000) / rate;
      const server = servers[i % servers.length]!;
      sent.push(
        call(server.base, 'POST', `/api/checkout/sessions/${sessions[i]}/payments`, payBody).then((res) => {
          times.push(performance.now() - due);
          if (res.status !== 200 || !res.body.includes('"succeeded"')) failed += 1;
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await Promise.all(sent);
  const wallMs = performance.now() - began;
  const postgresMs = cpuDelta(postgresBefore, postgresCpu(cluster));
  return {
    rate,
    sent: count,
    failed,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    serverCpuMs: (pids.reduce((sum, pid) => sum + processCpuMs(pid), 0) - serverBefore) / count,
    postgresCpuMs: postgresMs / count,
    bouncerCpuMs: bouncer ? (processCpuMs(bouncer.pid) - bouncerBefore) / count : 0,
    postgresCores: postgresMs / wallMs,
  };
}

/** `GET /healthz` answers per second of one instance, 20 at a time for 3 s: the machine's floor now. */
async function healthzPerSecond(server: ServerProcess): Promise<number> {
  const until = performance.now() + 3_000;
  let answered = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (performance.now() < until) {
        await call(server.base, 'GET', '/healthz');
        answered += 1;
      }
    }),
  );
  return answered / 3;
}

const describeStep = (s: Step) =>
  `${fixed(s.rate)}/s: p50 ${fixed(s.p50, 0)} ms, p99 ${fixed(s.p99, 0)} ms (${fixed(s.p99 / Math.max(LATENCY_MS, 1), 2)}× latency)` +
  `${s.failed ? `, ${s.failed} failed` : ''}; CPU/payment server ${fixed(s.serverCpuMs, 2)} ms, PostgreSQL ${fixed(s.postgresCpuMs, 2)} ms, PgBouncer ${fixed(s.bouncerCpuMs, 2)} ms; ` +
  `busy: servers ${fixed((s.rate * s.serverCpuMs) / 10, 0)} %, PostgreSQL ${fixed(s.postgresCores * 100, 0)} % of a core`;

const folder = mkdtempSync(path.join(tmpdir(), 'tp-scale-'));
let cluster: Cluster | null = null;
let bouncer: PgBouncer | null = null;
const servers: ServerProcess[] = [];
try {
  cluster = await startCluster({ settings: { max_connections: '200' } });
  // Through the pooler, a statement outside a transaction runs under the role's bounds (docs/scaling.md).
  const admin = new pg.Client(cluster.url);
  await admin.connect();
  await admin.query(
    "ALTER ROLE postgres SET statement_timeout = '5s'; ALTER ROLE postgres SET lock_timeout = '2s'; ALTER ROLE postgres SET idle_in_transaction_session_timeout = '10s'",
  );
  await admin.end();
  bouncer = await startPgBouncer({ server: cluster.url, poolSize: 20, settings: { max_client_conn: '400' } });
  const common = { DATA_DIR: folder, SANDBOX_LATENCY_MS: String(LATENCY_MS), RATE_LIMIT_TEST_PER_SECOND: '100000', LOG_LEVEL: 'warn' };
  const pooled = { ...common, DATABASE_URL: bouncer.url(cluster.url), DATABASE_DIRECT_URL: cluster.url };
  const direct = { ...common, DATABASE_URL: cluster.url };
  const made = await cli(['account', 'create', '--name', 'Scale Shop', '--json'], pooled);
  if (made.code !== 0) throw new Error(`account create failed: ${made.stderr}`);
  const key = (JSON.parse(made.stdout.trim().split('\n').pop()!) as { test_secret_key: string }).test_secret_key;
  for (let i = 0; i < Math.max(...INSTANCES); i++) servers.push(await startServe(pooled));

  const floor = await healthzPerSecond(servers[0]!);
  console.log(
    `bench:scale: SANDBOX_LATENCY_MS=${LATENCY_MS}, steps of ${STEP_SECONDS} s from ${START_RATE}/s ×${RATE_FACTOR} until p99 ≥ ${P99_LIMIT_MS} ms; ` +
      `floor: one instance answers ${fixed(floor, 0)} GET /healthz per second (load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')})`,
  );

  const sustained = new Map<number, Step>();
  let previous: Step | null = null;
  for (const n of INSTANCES) {
    const driven = servers.slice(0, n);
    // More instances start the climb below where fewer left off.
    let rate = Math.max(START_RATE, previous ? previous.rate * 0.6 : 0);
    let best: Step | null = null;
    for (;;) {
      let s = await step(driven, key, rate, cluster, bouncer);
      console.log(`  ${n} instance${n > 1 ? 's' : ''}, ${describeStep(s)}`);
      // The machine is shared: a step over the limit is run once more before the climb ends there.
      if (s.failed > 0 || s.p99 >= P99_LIMIT_MS) {
        s = await step(driven, key, rate, cluster, bouncer);
        console.log(`  ${n} instance${n > 1 ? 's' : ''}, again: ${describeStep(s)}`);
        if (s.failed > 0 || s.p99 >= P99_LIMIT_MS) break;
      }
      best = s;
      rate *= RATE_FACTOR;
    }
    if (best) sustained.set(n, best);
    previous = best ?? previous;
  }
  const one = sustained.get(INSTANCES[0]!);
  console.log('sustainable (p99 below 2× the processor latency, none failed):');
  for (const [n, s] of sustained) {
    console.log(
      `  ${n} instance${n > 1 ? 's' : ''}: ${fixed(s.rate)} payments/s (${fixed(s.rate / n)} per instance, ${fixed((s.rate / floor) * 100, 1)} % of the /healthz floor), ` +
        `${one ? `${fixed(s.rate / one.rate, 2)}× ${INSTANCES[0]} instance's` : ''}; ${describeStep(s)}`,
    );
  }

  // Through PgBouncer and directly, in turns, at half of one instance's sustainable rate.
  if (one) {
    const directServer = await startServe(direct);
    servers.push(directServer);
    const rate = one.rate / 2;
    const ways: Record<'PgBouncer' | 'direct', Step[]> = { PgBouncer: [], direct: [] };
    for (let round = 0; round < AB_ROUNDS; round++) {
      ways.PgBouncer.push(await step([servers[0]!], key, rate, cluster, bouncer));
      ways.direct.push(await step([directServer], key, rate, cluster, null));
    }
    const median = (steps: Step[], field: keyof Step) =>
      percentile(
        steps.map((s) => Number(s[field])),
        0.5,
      );
    const [a, b] = [ways.PgBouncer, ways.direct];
    console.log(
      `one instance at ${fixed(rate)}/s, ${AB_ROUNDS} rounds each way (medians): PgBouncer/direct p50 ${fixed(median(a, 'p50') / median(b, 'p50'), 3)}×, ` +
        `p99 ${fixed(median(a, 'p99') / median(b, 'p99'), 3)}×, server CPU/payment ${fixed(median(a, 'serverCpuMs') / median(b, 'serverCpuMs'), 2)}×, ` +
        `PostgreSQL CPU/payment ${fixed(median(a, 'postgresCpuMs') / median(b, 'postgresCpuMs'), 2)}× (plus PgBouncer ${fixed(median(a, 'bouncerCpuMs'), 2)} ms)`,
    );
    for (const [way, steps] of Object.entries(ways)) for (const s of steps) console.log(`  ${way}: ${describeStep(s)}`);
  }
} finally {
  agent.destroy();
  await stopAll(servers);
  await bouncer?.stop();
  await cluster?.remove();
  rmSync(folder, { recursive: true, force: true });
}
