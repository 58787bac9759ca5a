/**
 * Paying only (`npx tsx bench/pay.bench.ts`): Tillpoint on PostgreSQL (argv[2]: `tillpoint-pglite`
 * for PGlite), 50 shoppers paying at once through `POST /api/checkout/sessions/:id/payments` with
 * the test processor, PAY_ROUNDS rounds (default 20), and the CPU per payment of the server and of
 * its PostgreSQL backends. With BENCH_CPU_PROF=<dir> the server is profiled while it does little
 * but take payments (sessions are opened before, in one go): summarize with
 * `tsx bench/support/profile-summary.ts <dir>/<file>.cpuprofile`.
 */
import { loadavg } from 'node:os';
import { closeHotPath, pay, payBesideALock, PAYERS } from './support/hot-path';
import { fixed, percentile, startChild } from './support/processes';

const kind = process.argv[2] ?? 'tillpoint-postgres';
const ROUNDS = Number(process.env.PAY_ROUNDS ?? 20);
// PAY_INSTANCES=n (PostgreSQL): n instances of one Tillpoint on one database, as docs/operations.md
// runs several; the payments of a round are dealt out among them.
const INSTANCES = kind === 'tillpoint-postgres' ? Number(process.env.PAY_INSTANCES ?? 1) : 1;

const server = await startChild<{ port: number; key: string; schema: string }>('api-server.ts', [kind]);
const others = [];
for (let i = 1; i < INSTANCES; i++) others.push(await startChild<{ port: number }>('api-server.ts', [kind], { BENCH_SCHEMA: server.ready.schema }));
try {
  const { port, key } = server.ready;
  const p = await pay(kind, [port, ...others.map((o) => o.ready.port)], key, ROUNDS);
  console.log(
    `${kind}${INSTANCES > 1 ? ` (${INSTANCES} instances)` : ''}, ${PAYERS} at once × ${ROUNDS}: p50 ${fixed(p.p50)} ms  p99 ${fixed(p.p99)} ms` +
      `  CPU/payment: server ${fixed(p.serverCpuMs, 3)} ms, PostgreSQL ${fixed(p.databaseCpuMs, 3)} ms` +
      // Latency in units of one payment's CPU: comparable across machines of different speed.
      `  (p50 ${fixed(p.p50 / (p.serverCpuMs + p.databaseCpuMs))} ×, p99 ${fixed(p.p99 / (p.serverCpuMs + p.databaseCpuMs))} × that CPU)` +
      `  (load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')})`,
  );
  // One session's row held FOR UPDATE elsewhere for 8 s (an operator's psql, a sweep): the other
  // shoppers, three waves of PAYERS, should not notice; the locked one's shopper is answered
  // within the lock timeout (503 database_unavailable, retryable). PAY_LOCKED=0 skips it.
  if (kind === 'tillpoint-postgres' && INSTANCES === 1 && process.env.PAY_LOCKED !== '0') {
    const { times, locked, wavesDoneMs } = await payBesideALock(port, key, server.ready.schema, 3, 8_000);
    console.log(
      `${kind}, one session locked 8 s, ${times.length} others in 3 waves of ${PAYERS}: p50 ${fixed(percentile(times, 0.5))} ms  p99 ${fixed(percentile(times, 0.99))} ms` +
        `  max ${fixed(Math.max(...times))} ms; waves done after ${fixed(wavesDoneMs, 0)} ms; the locked session's shopper: ${locked.status} after ${fixed(locked.ms, 0)} ms`,
    );
  }
} finally {
  // The shoppers' keep-alive connections go first: a server's close waits for its open connections.
  await closeHotPath();
  for (const other of others) await other.stop();
  await server.stop();
}
