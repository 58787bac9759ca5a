/**
 * Paying only (`npx tsx bench/pay.bench.ts`): Tillpoint on PostgreSQL (argv[2]: `tillpoint-pglite`
 * for PGlite), 50 shoppers paying at once through `POST /api/checkout/sessions/:id/payments` with
 * the test processor, PAY_ROUNDS rounds (default 20), and the CPU per payment of the server and of
 * its PostgreSQL backends. With BENCH_CPU_PROF=<dir> the server is profiled while it does little
 * but take payments (sessions are opened before, in one go): summarize with
 * `tsx bench/support/profile-summary.ts <dir>/<file>.cpuprofile`.
 */
import { loadavg } from 'node:os';
import { closeHotPath, pay, PAYERS } from './support/hot-path';
import { fixed, startChild } from './support/processes';

const kind = process.argv[2] ?? 'tillpoint-postgres';
const ROUNDS = Number(process.env.PAY_ROUNDS ?? 20);

const server = await startChild<{ port: number; key: string }>('api-server.ts', [kind]);
try {
  const { port, key } = server.ready;
  const p = await pay(kind, port, key, ROUNDS);
  console.log(
    `${kind}, ${PAYERS} at once × ${ROUNDS}: p50 ${fixed(p.p50)} ms  p99 ${fixed(p.p99)} ms` +
      `  CPU/payment: server ${fixed(p.serverCpuMs, 3)} ms, PostgreSQL ${fixed(p.databaseCpuMs, 3)} ms` +
      // Latency in units of one payment's CPU: comparable across machines of different speed.
      `  (p50 ${fixed(p.p50 / (p.serverCpuMs + p.databaseCpuMs))} ×, p99 ${fixed(p.p99 / (p.serverCpuMs + p.databaseCpuMs))} × that CPU)` +
      `  (load average ${loadavg().map((n) => n.toFixed(2)).join(', ')})`,
  );
} finally {
  await server.stop();
  await closeHotPath();
}
