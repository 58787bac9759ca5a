/**
 * One change to the hot path, measured A/B (`npm run bench:api-ab`): two Tillpoint servers on
 * PostgreSQL, each in its own process and schema, driven by turns, the order flipped every round.
 * 1. Session creation: `POST /v1/checkout/sessions`, 10 connections, AB_SECONDS each (default 3)
 *    for AB_ROUNDS rounds (default 8) after a warm-up, compared by the median of their rounds:
 *    req/s, and CPU per request of each server and of its PostgreSQL backends.
 * 2. Paying: AB_PAY_ROUNDS rounds (default 20; 0 skips it) of 50 shoppers paying at once, as
 *    `bench:pay` pays (each store first takes 3,000 payments and is analyzed), a round of A then a
 *    round of B: p50 and p99 of all their payments, CPU per payment.
 * A machine whose speed drifts by ±10% between runs meets both alike, which a `bench:api` before
 * and another after cannot promise.
 *
 * What differs between A and B, each optional:
 * - AB_A_DIR / AB_B_DIR: another checkout of Tillpoint (a git worktree of the change) whose
 *   `bench/support/api-server.ts` to run; default this one.
 * - AB_A_ENV / AB_B_ENV: `NAME=value …` for that server, e.g.
 *   `BENCH_LOG=0` (api-server.ts).
 * - AB_A_SQL / AB_B_SQL: SQL run in that server's schema once it is up (e.g. a constraint dropped).
 *
 * Run it with nothing else busy. Two identical servers differ by up to 5% (docs/performance.md).
 */
import path from 'node:path';
import pg from 'pg';
import { closeHotPath, cpuNow, cpuSince, PAYERS, payRound, warmedUpRounds } from './support/hot-path';
import { fixed, percentile, startChild, type Child } from './support/processes';
import { drive, measured } from './support/session-load';

const ROUNDS = Number(process.env.AB_ROUNDS ?? 8);
const SECONDS = Number(process.env.AB_SECONDS ?? 3);
const PAY_ROUNDS = Number(process.env.AB_PAY_ROUNDS ?? 20);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sides = ['A', 'B'] as const;
type Side = (typeof sides)[number];

const settingsOf = (text = '') =>
  Object.fromEntries(
    text
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );

async function start(side: Side): Promise<Child<{ port: number; key: string; schema: string }>> {
  const dir = process.env[`AB_${side}_DIR`];
  const script = dir ? path.resolve(dir, 'bench/support/api-server.ts') : 'api-server.ts';
  const server = await startChild<{ port: number; key: string; schema: string }>(script, ['tillpoint-postgres'], {
    ...settingsOf(process.env[`AB_${side}_ENV`]),
    BENCH_LABEL: side,
  });
  const sql = process.env[`AB_${side}_SQL`];
  if (sql) {
    const admin = new pg.Client({ connectionString: DATABASE_URL, application_name: 'tillpoint-bench-admin' });
    await admin.connect();
    await admin.query(`SET search_path = ${server.ready.schema}; ${sql}`);
    await admin.end();
  }
  return server;
}

const servers = new Map<Side, Child<{ port: number; key: string; schema: string }>>();
const results: Record<Side, { rps: number[]; server: number[]; database: number[] }> = {
  A: { rps: [], server: [], database: [] },
  B: { rps: [], server: [], database: [] },
};
const paying: Record<Side, { times: number[]; server: number; database: number }> = {
  A: { times: [], server: 0, database: 0 },
  B: { times: [], server: 0, database: 0 },
};
try {
  for (const side of sides) servers.set(side, await start(side));
  for (const side of sides) {
    const { port, key } = servers.get(side)!.ready;
    await drive(port, key, 2 * SECONDS); // warm-up: JIT, pools, caches
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const { port, key } = servers.get(side)!.ready;
      const r = await measured(`tillpoint-postgres-${side}`, port, key, SECONDS);
      if (r.non2xx || r.errors) throw new Error(`${side}: ${r.non2xx} answers not 2xx, ${r.errors} errors`);
      results[side].rps.push(r.rps);
      results[side].server.push(r.serverCpuMs);
      results[side].database.push(r.databaseCpuMs);
    }
  }
  if (PAY_ROUNDS > 0) {
    const rounds = new Map<Side, string[][]>();
    for (const side of sides) rounds.set(side, await warmedUpRounds([servers.get(side)!.ready.port], servers.get(side)!.ready.key, PAY_ROUNDS));
    for (let round = 0; round < PAY_ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const { port } = servers.get(side)!.ready;
        const before = await cpuNow(`tillpoint-postgres-${side}`, port);
        paying[side].times.push(...(await payRound(port, rounds.get(side)![round]!)));
        // This round's CPU over all the side's payments: the rounds' shares add up to the CPU per payment.
        const used = cpuSince(before, await cpuNow(`tillpoint-postgres-${side}`, port), PAYERS * PAY_ROUNDS);
        paying[side].server += used.serverCpuMs;
        paying[side].database += used.databaseCpuMs;
      }
    }
  }
} finally {
  // The shoppers' keep-alive connections go first: a server's close waits for its open connections.
  await closeHotPath();
  for (const server of servers.values()) await server.stop();
}

const median = (values: number[]) => percentile(values, 0.5);
for (const side of sides) {
  const r = results[side];
  console.log(
    `${side}: ${fixed(median(r.rps), 0)} req/s, CPU per request: server ${fixed(median(r.server), 3)} ms, PostgreSQL ${fixed(median(r.database), 3)} ms` +
      `   (rounds: ${r.rps.map((v) => fixed(v, 0)).join(' ')} req/s)`,
  );
}
const ratio = (of: (side: Side) => number) => fixed(of('B') / of('A'), 3);
console.log(
  `B / A: req/s ${ratio((s) => median(results[s].rps))}, server CPU ${ratio((s) => median(results[s].server))}, PostgreSQL CPU ${ratio((s) => median(results[s].database))}`,
);
if (PAY_ROUNDS > 0) {
  for (const side of sides) {
    const p = paying[side];
    console.log(
      `${side}: paying ${PAYERS} at once × ${PAY_ROUNDS}: p50 ${fixed(percentile(p.times, 0.5))} ms, p99 ${fixed(percentile(p.times, 0.99))} ms,` +
        ` CPU per payment: server ${fixed(p.server, 3)} ms, PostgreSQL ${fixed(p.database, 3)} ms`,
    );
  }
  const of = (side: Side, q: number) => percentile(paying[side].times, q);
  console.log(
    `B / A paying: p50 ${fixed(of('B', 0.5) / of('A', 0.5), 3)}, p99 ${fixed(of('B', 0.99) / of('A', 0.99), 3)},` +
      ` server CPU ${fixed(paying.B.server / paying.A.server, 3)}, PostgreSQL CPU ${fixed(paying.B.database / paying.A.database, 3)}`,
  );
}
