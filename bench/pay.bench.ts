/**
 * Paying only (`npx tsx bench/pay.bench.ts`), side by side with its floor: Tillpoint on PostgreSQL
 * (argv[2]: `tillpoint-pglite` for PGlite) and the paying floor (bare Fastify + `pg`, one plain
 * transaction per payment: support/api-server.ts, `pay-floor`), each in its own process, 50 shoppers
 * paying at once through `POST /api/checkout/sessions/:id/payments` (Tillpoint with the test
 * processor), PAY_ROUNDS rounds (default 20) after each store has taken 3,000 payments and is
 * analyzed. The rounds go by turns, the order flipped every round, so the machine's load meets
 * both alike; latency is stated as a ratio to the floor's. Then the statement budgets: the
 * PostgreSQL statements Tillpoint sends per payment, 50 at once and one alone; a budget exceeded
 * fails the run (exit code 1). With BENCH_CPU_PROF=<dir> the servers are profiled: summarize with
 * `tsx bench/support/profile-summary.ts <dir>/<file>.cpuprofile`.
 */
import { loadavg } from 'node:os';
import { closeHotPath, cpuNow, cpuSince, openSessions, PAYERS, payBesideALock, payRound, statementsSent, warmedUpRounds } from './support/hot-path';
import { fixed, percentile, startChild } from './support/processes';

const kind = process.argv[2] ?? 'tillpoint-postgres';
const ROUNDS = Number(process.env.PAY_ROUNDS ?? 20);
// PAY_INSTANCES=n (PostgreSQL): n instances of one Tillpoint on one database, as docs/operations.md
// runs several; the payments of a round are dealt out among them.
const INSTANCES = kind === 'tillpoint-postgres' ? Number(process.env.PAY_INSTANCES ?? 1) : 1;

/**
 * Statements Tillpoint may send to PostgreSQL per payment. 50 at once, paying's statements are
 * shared (ADR 0075): the session's read, the intent, the test processor's ledger line and the
 * outcome, each one statement for up to 25 payments, and the flags and processor config of the
 * payments' scopes, one read each for those that ask at once (0.26 measured). One payment alone:
 * each of those six for itself, in no transaction.
 */
const BUDGET_AT_ONCE = 0.3;
const BUDGET_ALONE = 6;

const server = await startChild<{ port: number; key: string; schema: string }>('api-server.ts', [kind]);
const floor = await startChild<{ port: number; key: string }>('api-server.ts', ['pay-floor']);
const others = [];
for (let i = 1; i < INSTANCES; i++) others.push(await startChild<{ port: number }>('api-server.ts', [kind], { BENCH_SCHEMA: server.ready.schema }));
let overBudget = false;
try {
  const { port, key } = server.ready;
  const ports = [port, ...others.map((o) => o.ready.port)];
  const sides = [
    { name: kind + (INSTANCES > 1 ? ` (${INSTANCES} instances)` : ''), kind, ports, key },
    { name: 'floor (Fastify + pg, one transaction)', kind: 'pay-floor', ports: [floor.ready.port], key: floor.ready.key },
  ];
  const rounds = await Promise.all(sides.map((side) => warmedUpRounds(side.ports, side.key, ROUNDS)));
  const times: number[][] = sides.map(() => []);
  const before = await Promise.all(sides.map((side) => cpuNow(side.kind, side.ports)));
  const statementsBefore = await statementsSent(port);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) times[i]!.push(...(await payRound(sides[i]!.ports, rounds[i]![round]!)));
  }
  const perPaymentAtOnce = INSTANCES === 1 ? ((await statementsSent(port)) - statementsBefore) / (PAYERS * ROUNDS) : NaN;
  const used = await Promise.all(sides.map(async (side, i) => cpuSince(before[i]!, await cpuNow(side.kind, side.ports), PAYERS * ROUNDS)));
  const p = sides.map((_, i) => ({ p50: percentile(times[i]!, 0.5), p99: percentile(times[i]!, 0.99), max: Math.max(...times[i]!) }));
  console.log(
    `${PAYERS} at once × ${ROUNDS} rounds, by turns (load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')})`,
  );
  for (const [i, side] of sides.entries()) {
    console.log(
      `  ${side.name.padEnd(38)} p50 ${fixed(p[i]!.p50)} ms  p99 ${fixed(p[i]!.p99)} ms  max ${fixed(p[i]!.max)} ms` +
        `  CPU/payment: server ${fixed(used[i]!.serverCpuMs, 3)} ms, PostgreSQL ${fixed(used[i]!.databaseCpuMs, 3)} ms`,
    );
  }
  console.log(`  Tillpoint / floor: p50 ${fixed(p[0]!.p50 / p[1]!.p50, 2)}×, p99 ${fixed(p[0]!.p99 / p[1]!.p99, 2)}×`);

  // One payment alone, after the request log's write-behind has settled on both sides of it.
  const [alone] = await openSessions(port, key, 1);
  const pause = () => new Promise((resolve) => setTimeout(resolve, 200));
  await pause();
  const aloneBefore = await statementsSent(port);
  await payRound(port, [alone!]);
  await pause();
  const perPaymentAlone = (await statementsSent(port)) - aloneBefore;
  const budget = (label: string, value: number, limit: number) => {
    if (Number.isNaN(value)) return `${label}: not counted with several instances`;
    const over = value > limit;
    overBudget ||= over;
    return `${label}: ${fixed(value, 2)} (budget ≤ ${limit}: ${over ? 'OVER' : 'within'})`;
  };
  console.log(
    `statements per payment: ${budget(`${PAYERS} at once`, perPaymentAtOnce, BUDGET_AT_ONCE)}; ${budget('one alone', perPaymentAlone, BUDGET_ALONE)}`,
  );

  // One session's row held FOR UPDATE elsewhere for 8 s (an operator's psql, a sweep): the other
  // shoppers, three waves of PAYERS, should not notice; the locked one's shopper is answered
  // within the lock timeout (503 database_unavailable, retryable). PAY_LOCKED=0 skips it.
  if (kind === 'tillpoint-postgres' && INSTANCES === 1 && process.env.PAY_LOCKED !== '0') {
    const { times: others, locked, wavesDoneMs } = await payBesideALock(port, key, server.ready.schema, 3, 8_000);
    console.log(
      `${kind}, one session locked 8 s, ${others.length} others in 3 waves of ${PAYERS}: p50 ${fixed(percentile(others, 0.5))} ms  p99 ${fixed(percentile(others, 0.99))} ms` +
        `  max ${fixed(Math.max(...others))} ms; waves done after ${fixed(wavesDoneMs, 0)} ms; the locked session's shopper: ${locked.status} after ${fixed(locked.ms, 0)} ms`,
    );
  }
} finally {
  // The shoppers' keep-alive connections go first: a server's close waits for its open connections.
  await closeHotPath();
  for (const other of others) await other.stop();
  await floor.stop();
  await server.stop();
}
if (overBudget) {
  console.log('a statement budget is exceeded');
  process.exitCode = 1;
}
