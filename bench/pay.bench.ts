/**
 * Paying only (`npx tsx bench/pay.bench.ts`): Tillpoint on PostgreSQL (argv[2]: `tillpoint-pglite`
 * for PGlite), 50 shoppers paying at once through `POST /api/checkout/sessions/:id/payments` with
 * the test processor, PAY_ROUNDS rounds (default 20), and the CPU per payment of the server and of
 * its PostgreSQL backends. With BENCH_CPU_PROF=<dir> the server is profiled while it does little
 * but take payments (sessions are opened before, in one go): summarize with
 * `tsx bench/support/profile-summary.ts <dir>/<file>.cpuprofile`.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { fixed, percentile, startChild } from './support/processes';

const kind = process.argv[2] ?? 'tillpoint-postgres';
const ROUNDS = Number(process.env.PAY_ROUNDS ?? 20);
const PAYERS = 50;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const agent = new http.Agent({ keepAlive: true, maxSockets: PAYERS });

function request(port: number, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method, agent, headers: body ? { 'content-type': 'application/json', ...headers } : headers },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const sessionBody = JSON.stringify({
  currency: 'usd',
  line_items: [
    { name: 'Single-origin beans, 250 g', unit_amount: 1450, quantity: 2 },
    { name: 'Filter papers', unit_amount: 600, quantity: 1 },
  ],
  success_url: 'https://shop.example/thanks?session={CHECKOUT_SESSION_ID}',
  metadata: { order_id: 'ord_1234' },
});
const payBody = JSON.stringify({ payment_method_type: 'card', nonce: 'fake-valid-visa-nonce', email: 'shopper@example.com' });

const monitor = new pg.Client({ connectionString: DATABASE_URL, application_name: 'tillpoint-bench-monitor' });
await monitor.connect();
async function databaseCpuMs(): Promise<Map<number, number>> {
  const { rows } = await monitor.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [`tillpoint-bench-${kind}`]);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // ended meanwhile
    }
  }
  return cpu;
}

const server = await startChild<{ port: number; key: string }>('api-server.ts', [kind]);
try {
  const { port, key } = server.ready;
  const ids: string[] = [];
  for (let i = 0; i < PAYERS * (ROUNDS + 1); i += 10) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, () => request(port, 'POST', '/v1/checkout/sessions', sessionBody, { authorization: `Bearer ${key}` })),
    );
    for (const res of batch) ids.push((JSON.parse(res.body) as { id: string }).id);
  }
  const payRound = (round: number) =>
    Promise.all(
      ids.slice(round * PAYERS, (round + 1) * PAYERS).map(async (id) => {
        const started = performance.now();
        const res = await request(port, 'POST', `/api/checkout/sessions/${id}/payments`, payBody);
        if (res.status !== 200 || !res.body.includes('"succeeded"')) throw new Error(`payment failed: ${res.status} ${res.body}`);
        return performance.now() - started;
      }),
    );
  await payRound(0); // warm-up
  const stats = async () => JSON.parse((await request(port, 'GET', '/__bench/stats')).body) as { cpu: NodeJS.CpuUsage };
  const before = { server: await stats(), db: await databaseCpuMs() };
  const times: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) times.push(...(await payRound(round)));
  const after = { server: await stats(), db: await databaseCpuMs() };
  const payments = PAYERS * ROUNDS;
  const serverMs = (after.server.cpu.user + after.server.cpu.system - before.server.cpu.user - before.server.cpu.system) / 1000 / payments;
  let dbMs = 0;
  for (const [pid, ms] of after.db) dbMs += ms - (before.db.get(pid) ?? 0);
  console.log(
    `${kind}, ${PAYERS} at once × ${ROUNDS}: p50 ${fixed(percentile(times, 0.5))} ms  p99 ${fixed(percentile(times, 0.99))} ms` +
      `  CPU/payment: server ${fixed(serverMs, 3)} ms, PostgreSQL ${fixed(dbMs / payments, 3)} ms` +
      `  (load average ${loadavg().map((n) => n.toFixed(2)).join(', ')})`,
  );
} finally {
  await server.stop();
  await monitor.end();
  agent.destroy();
}
