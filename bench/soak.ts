/**
 * A bounded soak: mixed traffic on two real `tillpoint serve` processes over one PostgreSQL schema
 * — shoppers paying (automatic and manual capture), merchants capturing, cancelling, refunding,
 * listing and expiring, webhooks delivered to a local receiver — sampling each instance's RSS and
 * the p99 latency of the minute, then saying whether they stayed flat.
 *
 * Run: `npm run bench:soak`. Settings (environment):
 *   SOAK_MINUTES        how long (default 30)
 *   SOAK_SAMPLE_SECONDS one sample every … (default 60)
 *   SOAK_CONCURRENCY    shoppers at once (default 4)
 *   DATABASE_URL / TEST_DATABASE_URL  the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test);
 *                       the soak works in a schema of its own and drops it at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createAccount } from '../src/domain/team/use-cases/create-account';
import { openPostgres } from '../src/persistence/sql-client';
import { openTillpoint } from '../src/runtime/open-tillpoint';
import { freePort } from '../test/support/processes';
import { percentile } from './support/processes';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 60) * 1000;
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 4);
const postgresUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Resident memory of a process, in MB (Linux /proc). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function main() {
  const schema = `soak_${randomBytes(5).toString('hex')}`;
  const admin = await openPostgres(postgresUrl, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = await openPostgres(postgresUrl, { schema, max: 2 });
  const tillpoint = await openTillpoint({ db, publicUrl: 'http://soak.test' });
  const key = (await createAccount(tillpoint.deps, { name: 'Soak Shop' })).testSecretKey;

  let webhooks = 0;
  const receiver = createHttpServer((request, response) => {
    request.resume();
    request.on('end', () => {
      webhooks += 1;
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://localhost:${(receiver.address() as { port: number }).port}/hooks`;

  const databaseUrl = `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const instances: Array<{ child: ChildProcess; base: string }> = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const child = spawn(process.execPath, ['bin/tillpoint.js', 'serve'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        DATA_DIR: path.join(tmpdir(), `${schema}-${i}`),
        LOG_LEVEL: 'warn',
        PUBLIC_URL: '',
        RATE_LIMIT_TEST_PER_SECOND: '100000',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    for (const deadline = Date.now() + 120_000; ; ) {
      if (child.exitCode !== null) throw new Error(`instance ${i} exited with ${child.exitCode}`);
      if (
        await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (Date.now() > deadline) throw new Error(`instance ${i} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    instances.push({ child, base });
  }

  let latencies: number[] = [];
  let requests = 0;
  let serverErrors = 0;
  let turn = 0;
  const call = async (method: string, url: string, body?: unknown, auth = true): Promise<{ status: number; json: Record<string, string> }> => {
    const { base } = instances[turn++ % instances.length]!;
    const started = performance.now();
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(auth ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = await res.json().catch(() => null);
    latencies.push(performance.now() - started);
    requests += 1;
    if (res.status >= 500) serverErrors += 1;
    return { status: res.status, json };
  };

  await call('POST', '/v1/webhook_endpoints', { url: receiverUrl, enabled_events: ['*'] });

  /** One shopper and the merchant's follow-up: about ten requests of every kind. */
  const journey = async (n: number) => {
    const manual = n % 3 === 0;
    const session = await call('POST', '/v1/checkout/sessions', {
      currency: 'usd',
      capture_method: manual ? 'manual' : 'automatic',
      line_items: [{ name: 'Soak beans', unit_amount: 1000 + (n % 50) * 10, quantity: 1 + (n % 3) }],
    });
    if (session.status !== 200) return;
    const id = session.json.id;
    await call('GET', `/api/checkout/sessions/${id}`, undefined, false);
    if (n % 7 === 0) {
      await call('POST', `/v1/checkout/sessions/${id}/expire`);
      return;
    }
    const token = await call(
      'POST',
      `/api/checkout/sessions/${id}/card-tokens`,
      { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' },
      false,
    );
    if (token.status !== 200) return;
    await call('POST', `/api/checkout/sessions/${id}/payments`, { payment_method_type: 'card', nonce: token.json.nonce, email: `s${n}@buyer.example` }, false);
    const paymentId = (await call('GET', `/v1/checkout/sessions/${id}`)).json?.payment;
    if (!paymentId) return;
    if (manual) await call('POST', `/v1/payments/${paymentId}/${n % 2 ? 'capture' : 'cancel'}`);
    else if (n % 2 === 0) await call('POST', '/v1/refunds', { payment: paymentId, amount: 500 });
    await call('GET', '/v1/payments?limit=20');
    await call('GET', '/v1/events?limit=20');
  };

  const endAt = Date.now() + MINUTES * 60_000;
  let journeys = 0;
  const workers = Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < endAt) await journey(journeys++).catch(() => undefined);
  });

  interface Sample {
    minute: number;
    requests: number;
    p99: number;
    rss: number[];
  }
  const samples: Sample[] = [];
  console.log(`soak: ${MINUTES} min, 2 instances over PostgreSQL (schema ${schema}), ${CONCURRENCY} shoppers at once`);
  console.log('sample  requests  p99 ms  rss MB (a, b)');
  const sampler = setInterval(() => {
    const sample: Sample = {
      minute: samples.length + 1,
      requests: latencies.length,
      p99: percentile(latencies, 0.99),
      rss: instances.map((instance) => rssMb(instance.child.pid!)),
    };
    latencies = [];
    samples.push(sample);
    console.log(
      `${String(sample.minute).padStart(6)}  ${String(sample.requests).padStart(8)}  ${sample.p99.toFixed(0).padStart(6)}  ${sample.rss.map((r) => r.toFixed(0)).join(', ')}`,
    );
  }, SAMPLE_MS);
  await Promise.all(workers);
  clearInterval(sampler);

  // Flat: after the first sample (warm-up), RSS grows less than 15 % and the p99 of the second half
  // is within 1.5× that of the first half.
  const steady = samples.slice(1);
  const verdict: string[] = [];
  if (steady.length >= 2) {
    const totalRss = (s: Sample) => s.rss.reduce((a, b) => a + b, 0);
    const rssGrowth = totalRss(steady.at(-1)!) / totalRss(steady[0]!) - 1;
    const half = Math.floor(steady.length / 2);
    const median = (values: number[]) => percentile(values, 0.5);
    const p99Ratio = median(steady.slice(half).map((s) => s.p99)) / median(steady.slice(0, half || 1).map((s) => s.p99));
    verdict.push(
      `RSS ${totalRss(steady[0]!).toFixed(0)} → ${totalRss(steady.at(-1)!).toFixed(0)} MB (${(rssGrowth * 100).toFixed(1)} %): ${rssGrowth < 0.15 ? 'flat' : 'GROWING'}`,
      `p99 second half / first half: ${p99Ratio.toFixed(2)}×: ${p99Ratio < 1.5 ? 'flat' : 'RISING'}`,
    );
  } else verdict.push('too short to judge flatness: run at least 3 samples');

  const { rows } = await admin.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM ${schema}.payments GROUP BY status ORDER BY status`,
  );
  console.log(`\n${journeys} journeys, ${requests} requests, ${serverErrors} answered 5xx, ${webhooks} webhooks received`);
  console.log(`payments: ${rows.map((r) => `${r.status} ${r.n}`).join(', ')}`);
  for (const line of verdict) console.log(line);

  for (const { child } of instances) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  receiver.close();
  await tillpoint.close();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.close();
}

await main();
