/**
 * Webhook delivery throughput of one instance (`npm run bench:webhooks`): one worker process as
 * `tillpoint serve` runs it, loopback receivers in another process, PostgreSQL (BENCH_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/test; a fresh schema, dropped at the end).
 *
 * 1. Ten fast endpoints and a backlog of due deliveries: deliveries per second. Goal ≥ 1,000/s.
 * 2. The same plus one endpoint that never answers (its sends run into the 10 s timeout): the
 *    fast endpoints' deliveries per second. Goal ≥ 90% of phase 1.
 *
 * Each phase measures BENCH_SECONDS (default 10) after a 2 s warm-up, in BENCH_ROUNDS rounds
 * (default 3) of both phases, their order swapped every round, so a change in the machine's load
 * meets both alike; each round's share is its two phases' ratio, and the medians are printed. The
 * CPU per delivery of the worker process and of the PostgreSQL backends serving it (found by
 * application name, read from /proc) is printed too: it hardly moves with the machine's load.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { openBenchSchema } from './support/bench-schema';
import { fixed, processCpuMs, startChild } from './support/processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FAST_ENDPOINTS = 10;
/**
 * Deliveries seeded per endpoint: more than a fast worker sends in a phase (12 s at 8,000/s), so it
 * never runs dry; a backlog that ran dry would understate the rate.
 */
const PER_ENDPOINT = Number(process.env.BENCH_DELIVERIES_PER_ENDPOINT ?? 10_000);
const bench = await openBenchSchema();
const { schema, admin, db, account } = bench;

/** A checkout.session.completed as the store writes it, about 1 KB of JSON. */
const sessionView = {
  id: 'cs_bench',
  object: 'checkout.session',
  status: 'complete',
  livemode: false,
  currency: 'usd',
  amount_subtotal: 3500,
  amount_total: 3500,
  line_items: [
    { name: 'Single-origin beans, 250 g', unit_amount: 1450, quantity: 2, amount: 2900 },
    { name: 'Filter papers', unit_amount: 600, quantity: 1, amount: 600 },
  ],
  customer_email: 'shopper@example.com',
  success_url: 'https://shop.example/thanks?session={CHECKOUT_SESSION_ID}',
  cancel_url: 'https://shop.example/cart',
  capture_method: 'automatic',
  payment_method_types: ['card'],
  metadata: { order_id: 'ord_1234' },
  url: 'http://bench.test/c/cs_bench',
  created: 1780272000,
  expires_at: 1780358400,
};

async function seed(ports: number[], phase: number): Promise<string[]> {
  await db.query('TRUNCATE webhook_delivery_attempts, webhook_deliveries, webhook_endpoints, events CASCADE');
  const endpoints = ports.map((_port, i) => `we_bench${phase}_${i}`);
  for (const [i, id] of endpoints.entries()) {
    await db.query(
      `INSERT INTO webhook_endpoints (id, account_id, mode, url, description, enabled_events, secret, status, created_at, updated_at)
       VALUES ($1, $2, 'test', $3, null, '["*"]', $4, 'enabled', now(), now())`,
      [id, account.id, `http://127.0.0.1:${ports[i]}/hooks`, `whsec_${randomBytes(16).toString('hex')}`],
    );
  }
  await db.query(
    `INSERT INTO events (id, account_id, mode, type, object_id, data, created_at)
     SELECT 'evt_bench' || g, $1, 'test', 'checkout.session.completed', 'cs_bench' || g, $2::jsonb, now() - interval '1 minute'
     FROM generate_series(1, $3::int) AS g`,
    [account.id, JSON.stringify(sessionView), PER_ENDPOINT],
  );
  await db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, account_id, mode, status, attempts, next_attempt_at, created_at, updated_at)
     SELECT 'whd_' || e.id || '_' || g, e.id, 'evt_bench' || g, $1, 'test', 'pending', 0,
            now() - interval '1 minute' + g * interval '1 microsecond', now(), now()
     FROM webhook_endpoints e, generate_series(1, $2::int) AS g`,
    [account.id, PER_ENDPOINT],
  );
  await db.query('ANALYZE webhook_deliveries');
  return endpoints;
}

async function delivered(endpoints: string[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered' AND endpoint_id = ANY($1)`, [
    endpoints,
  ]);
  return Number(rows[0]!.n);
}

const APPLICATION = 'tillpoint-bench-webhooks';

/** CPU time (ms) used so far by the worker process and by each PostgreSQL backend serving it. */
async function cpuNow(workerPid: number) {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [APPLICATION]);
  return { worker: processCpuMs(workerPid), database: new Map(rows.map(({ pid }) => [pid, processCpuMs(pid)])) };
}

interface Phase {
  /** The fast endpoints' deliveries per second. */
  rate: number;
  /** CPU ms per delivery of the worker process and of its PostgreSQL backends. */
  workerCpu: number;
  databaseCpu: number;
}

/** Starts a worker on the seeded outbox and measures the fast endpoints' deliveries. */
async function measure(fastEndpoints: string[], hanging: boolean): Promise<Phase> {
  const worker = await startChild<object>('webhook-instance.ts', [schema], { PGAPPNAME: APPLICATION });
  try {
    await sleep(2000);
    const before = await delivered(fastEndpoints);
    const cpuBefore = await cpuNow(worker.process.pid!);
    const started = performance.now();
    await sleep(SECONDS * 1000);
    const after = await delivered(fastEndpoints);
    const cpuAfter = await cpuNow(worker.process.pid!);
    const elapsed = (performance.now() - started) / 1000;
    if (after >= fastEndpoints.length * PER_ENDPOINT) console.log('(!) the backlog ran dry: raise BENCH_DELIVERIES_PER_ENDPOINT');
    let databaseMs = 0;
    for (const [pid, ms] of cpuAfter.database) databaseMs += ms - (cpuBefore.database.get(pid) ?? 0);
    const deliveries = after - before;
    return {
      rate: deliveries / elapsed,
      workerCpu: (cpuAfter.worker - cpuBefore.worker) / deliveries,
      databaseCpu: databaseMs / deliveries,
    };
  } finally {
    // A graceful stop would wait out the hanging sends' 10 s timeout (done when profiling: a killed
    // process writes no profile); the schema goes anyway.
    await worker.stop(hanging && !process.env.BENCH_CPU_PROF ? 'SIGKILL' : 'SIGTERM');
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const cpu = (phase: Phase) => `CPU per delivery: worker ${fixed(phase.workerCpu, 3)} ms, PostgreSQL ${fixed(phase.databaseCpu, 3)} ms`;

const receivers = await startChild<{ fast: number[]; hanging: number }>('webhook-receivers.ts', [String(FAST_ENDPOINTS)]);
try {
  const fastOnly: Phase[] = [];
  const withHanging: Phase[] = [];
  const shares: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const phases = round % 2 === 1 ? (['fast', 'hanging'] as const) : (['hanging', 'fast'] as const);
    for (const phase of phases) {
      if (phase === 'fast') {
        fastOnly.push(await measure(await seed(receivers.ready.fast, 1), false));
      } else {
        const all = await seed([...receivers.ready.fast, receivers.ready.hanging], 2);
        withHanging.push(await measure(all.slice(0, FAST_ENDPOINTS), true));
      }
    }
    const [fast, hang] = [fastOnly.at(-1)!, withHanging.at(-1)!];
    shares.push(hang.rate / fast.rate);
    console.log(
      `round ${round} (${phases.join(' first, then ')}): fast only ${fixed(fast.rate, 0)}/s (${cpu(fast)}); ` +
        `with one that never answers ${fixed(hang.rate, 0)}/s (${cpu(hang)}) = ${fixed((hang.rate / fast.rate) * 100, 0)}%`,
    );
  }
  const fastRate = median(fastOnly.map((p) => p.rate));
  console.log(
    `${FAST_ENDPOINTS} fast endpoints:                     ${fixed(fastRate, 0).padStart(6)} deliveries/s  (goal ≥ 1,000/s: ${fastRate >= 1000 ? 'met' : 'NOT met'})`,
  );
  const share = median(shares);
  console.log(
    `${FAST_ENDPOINTS} fast + 1 that never answers, fast ones: ${fixed(median(withHanging.map((p) => p.rate)), 0).padStart(6)} deliveries/s  ` +
      `= ${fixed(share * 100, 0)}% (median of the rounds' shares: ${shares.map((x) => fixed(x * 100, 0)).join(', ')}%) (goal ≥ 90%: ${share >= 0.9 ? 'met' : 'NOT met'})`,
  );
} finally {
  await receivers.stop();
  await bench.drop();
}
