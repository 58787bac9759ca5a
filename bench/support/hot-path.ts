/**
 * What `bench:api` and `bench:pay` share: the session and payment bodies, the HTTP calls, paying
 * PAYERS sessions at once, and the CPU time of a bench server (`/__bench/stats`, see
 * api-server.ts) and of the PostgreSQL backends serving it (by application name, from /proc).
 * `closeHotPath()` ends the monitoring connection and the keep-alive agent.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { percentile, processCpuMs } from './processes';
import { ShopperSockets } from './shopper-sockets';

export const PAYERS = Number(process.env.PAYERS ?? 50);
const WARM_UP_ROUNDS = 3;

export const sessionBody = JSON.stringify({
  currency: 'usd',
  line_items: [
    { name: 'Single-origin beans, 250 g', unit_amount: 1450, quantity: 2 },
    { name: 'Filter papers', unit_amount: 600, quantity: 1 },
  ],
  success_url: 'https://shop.example/thanks?session={CHECKOUT_SESSION_ID}',
  metadata: { order_id: 'ord_1234' },
});

export const agent = new http.Agent({ keepAlive: true, maxSockets: PAYERS });

export function post(port: number, path: string, body: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

export async function openSessions(port: number, key: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, () => post(port, '/v1/checkout/sessions', sessionBody, { authorization: `Bearer ${key}` })),
    );
    for (const res of batch) {
      if (res.status !== 200) throw new Error(`could not open a session: ${res.status} ${res.body}`);
      ids.push((JSON.parse(res.body) as { id: string }).id);
    }
  }
  return ids;
}

export const payBody = JSON.stringify({ payment_method_type: 'card', nonce: 'fake-valid-visa-nonce', email: 'shopper@example.com' });

/** Each server's shoppers' connections (shopper-sockets.ts), opened at its first round. */
const shoppers = new Map<number, ShopperSockets>();
const nodeClient = process.env.BENCH_CLIENT === 'node';

/**
 * One round: every session paid at the same moment; returns each payment's time in ms. With several
 * ports (instances of one Tillpoint), the payments are dealt out among them in turn. Each shopper
 * has a keep-alive connection of their own (shopper-sockets.ts; `BENCH_CLIENT=node`: Node's `http`
 * client with an agent of PAYERS sockets).
 */
export async function payRound(port: number | number[], ids: string[]): Promise<number[]> {
  const ports = Array.isArray(port) ? port : [port];
  const path = (id: string) => `/api/checkout/sessions/${id}/payments`;
  const check = (res: { status: number; body: string }) => {
    if (res.status !== 200 || !res.body.includes('"succeeded"')) throw new Error(`payment failed: ${res.status} ${res.body}`);
  };
  if (nodeClient) {
    return Promise.all(
      ids.map(async (id, i) => {
        const started = performance.now();
        const res = await post(ports[i % ports.length]!, path(id), payBody);
        const took = performance.now() - started;
        check(res);
        return took;
      }),
    );
  }
  const byPort = ports.map((p) => {
    let sockets = shoppers.get(p);
    if (!sockets) shoppers.set(p, (sockets = new ShopperSockets(p, PAYERS)));
    return { sockets, requests: [] as Buffer[] };
  });
  for (const [i, id] of ids.entries()) byPort[i % ports.length]!.requests.push(ShopperSockets.post(path(id), payBody));
  const answers = (await Promise.all(byPort.map(({ sockets, requests }) => sockets.sendAll(requests)))).flat();
  for (const answer of answers) check(answer);
  return answers.map((answer) => answer.ms);
}

async function get(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve(text));
      })
      .on('error', reject);
  });
}

interface ServerStats {
  statements: number;
  cpu: NodeJS.CpuUsage;
}
/** Statements the server has sent to PostgreSQL so far and its CPU time (bench/support/api-server.ts). */
const serverStats = async (port: number) => JSON.parse(await get(port, '/__bench/stats')) as ServerStats;
export const statementsSent = async (port: number) => (await serverStats(port)).statements;

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const monitor = new pg.Client({ connectionString: DATABASE_URL, application_name: 'tillpoint-bench-monitor' });
let monitoring: Promise<unknown> | null = null;

/** CPU time (ms) used so far by each PostgreSQL backend serving `kind`'s connections. */
async function backendCpu(kind: string): Promise<Map<number, number>> {
  monitoring ??= monitor.connect();
  await monitoring;
  const { rows } = await monitor.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [`tillpoint-bench-${kind}`]);
  return new Map(rows.map(({ pid }) => [pid, processCpuMs(pid)]));
}

/**
 * Payments a store has taken before it is measured (BENCH_HISTORY, default 3,000), through the same
 * endpoint, after which its tables are analyzed as autovacuum analyzes them in a store that has run a
 * while. PostgreSQL keeps the plan it made for a prepared statement on each connection until the
 * statistics of its tables change: planned on a table of a few hundred payments, the outcome
 * statement scanned `payments` whole (a hash join was cheapest then) and went on scanning it as it
 * grew, which a store running for more than its first minute never does. Once per database.
 */
const HISTORY = Number(process.env.BENCH_HISTORY ?? 3000);
const settled = new Set<number>();

async function settle(ports: number[], key: string): Promise<void> {
  const port = ports[0]!;
  if (settled.has(port) || HISTORY <= 0) return;
  settled.add(port);
  const ids = await openSessions(port, key, HISTORY);
  for (let n = 0; n < ids.length; n += PAYERS) await payRound(ports, ids.slice(n, n + PAYERS));
  const res = await post(port, '/__bench/analyze', '{}');
  if (res.status !== 200) throw new Error(`could not analyze: ${res.status} ${res.body}`);
}

/**
 * Sessions for `rounds` rounds of PAYERS payments at once, after the store's history (`settle`) and
 * WARM_UP_ROUNDS paid and not counted: JIT, and PostgreSQL's plans. Each connection of the pool (10)
 * plans a prepared statement afresh its first five times before it keeps one plan, and paying's
 * statements for many payments at once take long to plan; a server that has run a while has them.
 * Returns each round's ids.
 */
export async function warmedUpRounds(ports: number[], key: string, rounds: number): Promise<string[][]> {
  await settle(ports, key);
  const ids = await openSessions(ports[0]!, key, PAYERS * (rounds + WARM_UP_ROUNDS));
  const round = (n: number) => ids.slice(n * PAYERS, (n + 1) * PAYERS);
  for (let n = 0; n < WARM_UP_ROUNDS; n++) await payRound(ports, round(n));
  return Array.from({ length: rounds }, (_, n) => round(WARM_UP_ROUNDS + n));
}

/**
 * `rounds` rounds of PAYERS payments at once (warmed up first): latency and CPU per payment.
 * With several ports (instances of one Tillpoint on one database), the payments are dealt out among
 * them and the CPU is theirs together.
 */
export async function pay(kind: string, port: number | number[], key: string, rounds: number) {
  const ports = Array.isArray(port) ? port : [port];
  const measured = await warmedUpRounds(ports, key, rounds);
  const times: number[] = [];
  const before = await cpuNow(kind, ports);
  for (const ids of measured) times.push(...(await payRound(ports, ids)));
  const used = cpuSince(before, await cpuNow(kind, ports), PAYERS * rounds);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), max: Math.max(...times), ...used };
}

export const cpuNow = async (kind: string, port: number | number[]) => {
  const ports = Array.isArray(port) ? port : [port];
  const [servers, database] = await Promise.all([Promise.all(ports.map(serverStats)), backendCpu(kind)]);
  // Several instances: their statements and CPU together.
  const server = servers.reduce((sum, s) => ({
    statements: sum.statements + s.statements,
    cpu: { user: sum.cpu.user + s.cpu.user, system: sum.cpu.system + s.cpu.system },
  }));
  return { server, database };
};

/** CPU ms per call of the server and of its PostgreSQL backends between two readings. */
export function cpuSince(before: Awaited<ReturnType<typeof cpuNow>>, after: Awaited<ReturnType<typeof cpuNow>>, calls: number) {
  const serverMs = (after.server.cpu.user + after.server.cpu.system - before.server.cpu.user - before.server.cpu.system) / 1000;
  let databaseMs = 0;
  for (const [pid, ms] of after.database) databaseMs += ms - (before.database.get(pid) ?? 0);
  return { serverCpuMs: serverMs / calls, databaseCpuMs: databaseMs / calls };
}

/**
 * The isolation case: one session's row held FOR UPDATE by another connection for `heldMs` while
 * `waves` waves of PAYERS other shoppers pay their own sessions, one wave after another. Returns
 * the others' times and the locked session's shopper's answer (status, ms), who pays alongside the
 * first wave. PostgreSQL only.
 */
export async function payBesideALock(port: number, key: string, schema: string, waves: number, heldMs: number) {
  const [locked, ...ids] = await openSessions(port, key, 1 + waves * PAYERS);
  const holder = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${schema}`, application_name: 'tillpoint-bench-lock' });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT id FROM checkout_sessions WHERE id = $1 FOR UPDATE', [locked]);
  const released = new Promise((resolve) => setTimeout(resolve, heldMs)).then(async () => {
    await holder.query('COMMIT');
    await holder.end();
  });
  const started = performance.now();
  const lockedAnswer = post(port, `/api/checkout/sessions/${locked}/payments`, payBody).then((res) => ({
    status: res.status,
    ms: performance.now() - started,
  }));
  const times: number[] = [];
  for (let wave = 0; wave < waves; wave++) times.push(...(await payRound(port, ids.slice(wave * PAYERS, (wave + 1) * PAYERS))));
  const wavesDoneMs = performance.now() - started;
  const answer = await lockedAnswer;
  await released;
  return { times, locked: answer, wavesDoneMs };
}

export async function closeHotPath() {
  for (const sockets of shoppers.values()) sockets.close();
  shoppers.clear();
  if (monitoring) await monitor.end();
  agent.destroy();
}
