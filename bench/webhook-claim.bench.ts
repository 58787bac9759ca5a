/**
 * The webhook worker's claim alone (`npm run bench:webhook-claim`): milliseconds per claim (250 at
 * most, 16 per endpoint, as the worker asks) on PostgreSQL (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test; a fresh schema, dropped at the end), in outboxes shaped
 * like the ones that made claims slow:
 *
 * - `bench:webhooks` mid-phase: 10 fast endpoints half through their 4,000 deliveries, with and
 *   without a hanging endpoint whose 16 slots are full and whose 3,984 others are all due;
 * - 1,000 enabled endpoints of which 10 have due work, the others with delivered history only, or
 *   each with one retry not yet due (outstanding, so the claim has to look at them);
 * - 1,000 endpoints all with due work.
 *
 * Each claim's leases are given back (and the table vacuumed) before the next, so every claim sees
 * the same outbox.
 * BENCH_CLAIMS claims per case (default 40), after 5 unmeasured ones; medians are printed (see
 * `time`). BENCH_EXPLAIN=1 also prints each case's plan.
 */
import { performance } from 'node:perf_hooks';
import { claimDueWebhooks } from '../src/domain/webhooks/use-cases/deliver-due-webhooks';
import { webhookDeliveryRepository } from '../src/persistence/stores/webhooks/endpoints-and-deliveries';
import { openBenchSchema } from './support/bench-schema';
import { fixed } from './support/processes';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 40);
const bench = await openBenchSchema();
const { db, tillpoint, account } = bench;

interface Shape {
  /** Endpoints and, per endpoint, deliveries: due ones, already delivered ones (the oldest), and retries due later. */
  endpoints: { id: string; due: number; delivered?: number; later?: number; leased?: number }[];
}

async function seed({ endpoints }: Shape): Promise<void> {
  await db.query('TRUNCATE webhook_delivery_attempts, webhook_deliveries, webhook_endpoints, events CASCADE');
  const most = Math.max(...endpoints.map((e) => (e.delivered ?? 0) + e.due + (e.later ?? 0)));
  await db.query(
    `INSERT INTO events (id, account_id, mode, type, object_id, data, created_at)
     SELECT 'evt_bench' || g, $1, 'test', 'checkout.session.completed', 'cs_bench' || g, '{}'::jsonb, now() - interval '1 hour'
     FROM generate_series(1, $2::int) AS g`,
    [account.id, most],
  );
  await db.query(
    `INSERT INTO webhook_endpoints (id, account_id, mode, url, description, enabled_events, secret, status, created_at, updated_at)
     SELECT id, $1, 'test', 'http://127.0.0.1:9/hooks', null, '["*"]', 'whsec_bench', 'enabled', now(), now()
     FROM unnest($2::text[]) AS id`,
    [account.id, endpoints.map((e) => e.id)],
  );
  // As the outbox is written: one delivery per event and endpoint, the endpoints' due ones interleaved in time.
  await db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, account_id, mode, status, attempts, next_attempt_at, created_at, updated_at)
     SELECT 'whd_' || s.id || '_' || g, s.id, 'evt_bench' || g, $1, 'test',
            CASE WHEN g <= s.delivered THEN 'delivered' WHEN g <= s.delivered + s.due THEN 'pending' ELSE 'retrying' END,
            CASE WHEN g <= s.delivered + s.due THEN 0 ELSE 1 END,
            CASE WHEN g <= s.delivered THEN NULL
                 WHEN g <= s.delivered + s.due THEN now() - interval '10 minutes' + g * interval '1 microsecond'
                 ELSE now() + interval '1 hour' END,
            now(), now()
     FROM unnest($2::text[], $3::int[], $4::int[], $5::int[]) AS s (id, due, delivered, later),
          generate_series(1, s.delivered + s.due + s.later) AS g`,
    [account.id, endpoints.map((e) => e.id), endpoints.map((e) => e.due), endpoints.map((e) => e.delivered ?? 0), endpoints.map((e) => e.later ?? 0)],
  );
  // The hanging endpoint's sends under way: its oldest due deliveries, leased.
  for (const e of endpoints.filter((e) => e.leased)) {
    await db.query(
      `UPDATE webhook_deliveries SET attempts = 1, lease_token = 'lease_hanging', lease_until = now() + interval '1 hour'
       WHERE id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending' ORDER BY next_attempt_at LIMIT $2)`,
      [e.id, e.leased],
    );
  }
  await db.query('VACUUM ANALYZE webhook_deliveries');
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

/**
 * Per claim, medians: milliseconds as the worker sees them (a transaction: BEGIN, the claim,
 * COMMIT), PostgreSQL's execution time of the claim statement and the buffers it touched, all of
 * it and the choosing and locking of the rows before their update (EXPLAIN (ANALYZE, BUFFERS,
 * TIMING OFF) of the same claim; buffers do not move with the machine's load), and how many
 * deliveries a claim took. BENCH_EXPLAIN=1 prints the last plan.
 */
async function time(inFlight: Map<string, number>) {
  const wall: number[] = [];
  const execution: number[] = [];
  const buffers: number[] = [];
  const selecting: number[] = [];
  let claimed = 0;
  let plan = '';
  const explaining = webhookDeliveryRepository({
    query: async (text, params) => {
      const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) ${text}`, params);
      plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      return { rows: [], rowCount: 0 } as never;
    },
    exec: async () => undefined,
  });
  for (let i = 0; i < CLAIMS + 5; i++) {
    const started = performance.now();
    const claim = await claimDueWebhooks(tillpoint.deps, { limit: 250, perEndpoint: 16, inFlight });
    const ms = performance.now() - started;
    claimed = claim.deliveries.length;
    // Given back, so the next claim sees the same outbox.
    await db.query(`UPDATE webhook_deliveries SET attempts = attempts - 1, lease_token = NULL, lease_until = NULL WHERE id = ANY($1::text[])`, [
      claim.deliveries.map((d) => d.id),
    ]);
    const now = new Date();
    await explaining.claimDue({ now, leaseUntil: new Date(now.getTime() + 15_000), leaseToken: 'lease_explain', limit: 250, perEndpoint: 16, inFlight });
    await db.query(`UPDATE webhook_deliveries SET attempts = attempts - 1, lease_token = NULL, lease_until = NULL WHERE lease_token = 'lease_explain'`);
    // The give-backs' old row versions vacuumed away, so no claim pays for the ones before it.
    await db.query('VACUUM webhook_deliveries');
    if (i < 5) continue;
    wall.push(ms);
    execution.push(Number(/Execution Time: ([\d.]+)/.exec(plan)![1]));
    buffers.push(Number(/Buffers: shared hit=(\d+)/.exec(plan)?.[1] ?? 0));
    selecting.push(Number(/LockRows[^\n]*\n\s+Buffers: shared hit=(\d+)/.exec(plan)?.[1] ?? 0));
  }
  if (process.env.BENCH_EXPLAIN) console.log(plan);
  return { ms: median(wall), execution: median(execution), buffers: median(buffers), selecting: median(selecting), claimed };
}

const cases: { name: string; shape: Shape; inFlight: Map<string, number> }[] = [];
const fast = Array.from({ length: 10 }, (_, i) => `we_fast_${i}`);
cases.push({
  name: 'bench:webhooks mid-phase, 10 fast endpoints (2,000 of 4,000 delivered each)',
  shape: { endpoints: fast.map((id) => ({ id, delivered: 2000, due: 2000 })) },
  inFlight: new Map(fast.map((id) => [id, 8])),
});
cases.push({
  name: 'the same + 1 hanging endpoint (16 in flight, 3,984 due)',
  shape: { endpoints: [...fast.map((id) => ({ id, delivered: 2000, due: 2000 })), { id: 'we_hanging', due: 4000, leased: 16 }] },
  inFlight: new Map([...fast.map((id): [string, number] => [id, 8]), ['we_hanging', 16]]),
});
const many = Array.from({ length: 1000 }, (_, i) => `we_many_${String(i).padStart(4, '0')}`);
cases.push({
  name: '1,000 endpoints, 10 with 1,000 due, 990 with 5 delivered',
  shape: { endpoints: many.map((id, i) => (i % 100 === 0 ? { id, due: 1000 } : { id, due: 0, delivered: 5 })) },
  inFlight: new Map(),
});
cases.push({
  name: '1,000 endpoints, 10 with 1,000 due, 990 with one retry due in an hour',
  shape: { endpoints: many.map((id, i) => (i % 100 === 0 ? { id, due: 1000 } : { id, due: 0, delivered: 5, later: 1 })) },
  inFlight: new Map(),
});
cases.push({
  name: '1,000 endpoints, each with 20 due',
  shape: { endpoints: many.map((id) => ({ id, due: 20 })) },
  inFlight: new Map(),
});

try {
  for (const c of cases) {
    await seed(c.shape);
    const { ms, execution, buffers, selecting, claimed } = await time(c.inFlight);
    console.log(
      `${c.name}:\n  ${claimed} claimed; ${fixed(ms, 1)} ms per claim (transaction), statement ${fixed(execution, 2)} ms, ` +
        `${buffers} buffers (choosing and locking the rows: ${selecting})`,
    );
  }
} finally {
  await bench.drop();
}
