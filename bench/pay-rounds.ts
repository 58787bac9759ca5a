/**
 * Where a burst of payments spends its time (`npx tsx bench/pay-rounds.ts [tillpoint-pglite]`):
 * PAY_ROUNDS rounds (default 40) of 50 shoppers paying at once, as `bench:pay` drives them, and per
 * round: its wall time, how busy the whole machine was meanwhile (from /proc/stat), when its first
 * and last payment finished, and the CPU of the server, of its PostgreSQL backends and of this load
 * generator. With EXTRA_SECONDS=n, sessions are opened for n seconds first (a bigger table).
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { closeHotPath, cpuNow, cpuSince, PAYERS, payRound, warmedUpRounds } from './support/hot-path';
import { fixed, startChild } from './support/processes';
import { drive } from './support/session-load';

const kind = process.argv[2] ?? 'tillpoint-postgres';
const ROUNDS = Number(process.env.PAY_ROUNDS ?? 40);
const EXTRA_SECONDS = Number(process.env.EXTRA_SECONDS ?? 0);

/** Jiffies the machine was busy, and in all, so far. */
function machine(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - fields[3]! - fields[4]!, total };
}

const server = await startChild<{ port: number; key: string }>('api-server.ts', [kind]);
try {
  const { port, key } = server.ready;
  if (EXTRA_SECONDS > 0) await drive(port, key, EXTRA_SECONDS);
  const measured = await warmedUpRounds([port], key, ROUNDS);
  let wall = 0;
  let busy = 0;
  let total = 0;
  let first = 0;
  let last = 0;
  const before = await cpuNow(kind, port);
  const client = process.cpuUsage();
  for (const ids of measured) {
    const m0 = machine();
    const t0 = performance.now();
    const times = await payRound(port, ids);
    wall += performance.now() - t0;
    const m1 = machine();
    busy += m1.busy - m0.busy;
    total += m1.total - m0.total;
    first += Math.min(...times);
    last += Math.max(...times);
  }
  const used = cpuSince(before, await cpuNow(kind, port), ROUNDS);
  const generator = process.cpuUsage(client);
  console.log(
    `${kind}, ${PAYERS} at once × ${ROUNDS}, per round: wall ${fixed(wall / ROUNDS)} ms, machine ${fixed((100 * busy) / total, 0)}% busy,` +
      ` first payment done at ${fixed(first / ROUNDS)} ms, last at ${fixed(last / ROUNDS)} ms;` +
      ` CPU: server ${fixed(used.serverCpuMs)} ms, PostgreSQL ${fixed(used.databaseCpuMs)} ms, load generator ${fixed((generator.user + generator.system) / 1000 / ROUNDS)} ms`,
  );
} finally {
  // The shoppers' keep-alive connections go first: a server's close waits for its open connections.
  await closeHotPath();
  await server.stop();
}
