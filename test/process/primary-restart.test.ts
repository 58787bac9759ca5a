import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresBinaries, startCluster, type Cluster } from '../support/clusters';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer';
import { startServe, stopAll, until, type ServerProcess } from '../support/processes';
import { type Answer, createShop, json, listAll, pay, request, shoppers, type Shopper } from './shop';

/**
 * The primary restarts in the middle of a payment burst (a crash: `pg_ctl stop -m immediate`, then
 * a start), under two real `tillpoint serve` instances, reached directly and through PgBouncer in
 * transaction pooling mode. Every request in flight is answered 200 or a retryable 503
 * `database_unavailable`, none 500 and none hangs; `/readyz` says unready while the database is gone
 * and ready after; the instances reconnect by themselves; and retries complete every payment and
 * every Idempotency-Key request exactly once. The cluster is the suite's own (the shared test
 * server is never restarted).
 */
const runs = Boolean(process.env.TEST_DATABASE_URL) && postgresBinaries() !== null;

const SHOPPERS = 60;
const SESSIONS_WITH_KEYS = 30;
/**
 * Sessions the merchant opens while the primary is down (after /readyz says so): each must be refused
 * 503 at once, whatever the burst's timing, and made once by its retry.
 */
const DURING_OUTAGE = 4;
/** Every Idempotency-Key of the test: the burst's, then the outage's. */
const KEYS = SESSIONS_WITH_KEYS + DURING_OUTAGE;
/** The restart comes once this many requests have their answer. */
const RESTART_AFTER = 20;
/** How long the primary stays down. */
const DOWN_MS = 2_000;
/** No answer takes longer: a connection attempt's bound (10 s) and a loaded machine's margin. */
const ANSWER_WITHIN_MS = 15_000;

type Route = 'direct' | 'PgBouncer';

describe.skipIf(!runs).each<Route>(['direct', 'PgBouncer'])('primary restart mid-burst (postgres, %s)', (route) => {
  let cluster: Cluster;
  let bouncer: PgBouncer | null = null;
  let dataDir = '';
  let env: Record<string, string> = {};
  let key = '';
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    cluster = await startCluster();
    if (route === 'PgBouncer') {
      // Through a transaction pooler a statement outside a transaction runs under the role's bounds.
      const admin = new pg.Client(cluster.url);
      await admin.connect();
      await admin.query("ALTER ROLE postgres SET statement_timeout = '5s'; ALTER ROLE postgres SET lock_timeout = '2s'");
      await admin.query("ALTER ROLE postgres SET idle_in_transaction_session_timeout = '10s'");
      await admin.end();
      bouncer = await startPgBouncer({ server: cluster.url, poolSize: 10 });
    }
    dataDir = mkdtempSync(path.join(tmpdir(), 'tp-restart-'));
    env = {
      DATABASE_URL: bouncer ? bouncer.url(cluster.url) : cluster.url,
      ...(bouncer ? { DATABASE_DIRECT_URL: cluster.url } : {}),
      DATA_DIR: dataDir,
      RATE_LIMIT_TEST_PER_SECOND: '100000',
      // A payment cut before the processor's answer is reconciled soon after.
      RECONCILE_AFTER_SECONDS: '3',
    };
    key = await createShop(env);
    servers.push(await startServe(env), await startServe(env));
  }, 300_000);

  afterAll(async () => {
    await stopAll(servers);
    await bouncer?.stop();
    await cluster?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const timed = async (work: Promise<Answer>) => {
    const started = performance.now();
    const answer = await work;
    return { answer, ms: performance.now() - started };
  };
  const readyz = async (base: string) => (await request(base, 'GET', '/readyz')).status;
  const errorCode = (answer: Answer) => {
    try {
      return String((JSON.parse(answer.body) as { error?: { code?: string } }).error?.code);
    } catch {
      return null;
    }
  };

  it('in-flight requests succeed or answer 503 database_unavailable, /readyz follows the database, and retries complete each payment and key once', {
    timeout: 600_000,
  }, async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const ready: Shopper[] = await shoppers(a.base, key, SHOPPERS);
    const pids = servers.map((server) => server.child.pid);

    // The burst: shoppers pay and the merchant opens sessions with Idempotency-Keys, on both instances.
    let answered = 0;
    const count = <T>(work: Promise<T>) =>
      work.then((result) => {
        answered += 1;
        return result;
      });
    const sessionBody = (i: number) => ({
      currency: 'usd',
      line_items: [{ name: 'Beans', unit_amount: 1200, quantity: 1 }],
      metadata: { order: `order-${i}` },
    });
    const createSession = (base: string, i: number) =>
      request(base, 'POST', '/v1/checkout/sessions', { key, body: sessionBody(i), headers: { 'idempotency-key': `order-${route}-${i}` } });
    const payments = ready.map((shopper, i) => count(timed(pay(i % 2 ? b.base : a.base, shopper))));
    const creations = Array.from({ length: SESSIONS_WITH_KEYS }, (_, i) => count(timed(createSession(i % 2 ? a.base : b.base, i))));

    while (answered < RESTART_AFTER) await new Promise((resolve) => setTimeout(resolve, 5));
    await cluster.stop('immediate');
    const unready = await until(async () => (await readyz(a.base)) === 503 && (await readyz(b.base)) === 503, 10_000);
    const outage = await Promise.all(Array.from({ length: DURING_OUTAGE }, (_, j) => timed(createSession(j % 2 ? a.base : b.base, SESSIONS_WITH_KEYS + j))));
    await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
    await cluster.start();
    const readyAgain = await until(async () => (await readyz(a.base)) === 200 && (await readyz(b.base)) === 200, 60_000);

    const first = [...(await Promise.all(payments)), ...(await Promise.all(creations)), ...outage];
    expect(unready, '/readyz answered 503 on both instances while the primary was down').toBe(true);
    expect(readyAgain, '/readyz answered 200 on both instances after the primary came back').toBe(true);
    const statuses = first.map(({ answer }) => (answer.status === 200 ? '200' : `${answer.status} ${errorCode(answer) ?? answer.error}`));
    const tally = Object.fromEntries([...new Set(statuses)].map((status) => [status, statuses.filter((s) => s === status).length]));
    console.info(`primary restart (${route}): first answers ${JSON.stringify(tally)}; slowest ${Math.round(Math.max(...first.map((f) => f.ms)))} ms`);
    const unexpected = Object.keys(tally).filter((status) => status !== '200' && status !== '503 database_unavailable');
    // What the servers logged for an unexpected answer: the cause to mend, not only its status.
    if (unexpected.length > 0)
      for (const server of servers)
        console.error(
          server
            .stdout()
            .split('\n')
            .filter((line) => line.includes('"level":50'))
            .join('\n'),
        );
    expect(unexpected).toEqual([]);
    // Whatever the burst's timing (it may be answered in full before the stop), a call while the
    // primary is down is refused as retryable, at once.
    expect(outage.map(({ answer }) => `${answer.status} ${errorCode(answer)}`)).toEqual(outage.map(() => '503 database_unavailable'));
    for (const { ms } of first) expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    // A 503 tells the caller when to try again.
    for (const { answer } of first) if (answer.status === 503) expect(answer.headers['retry-after']).toBeDefined();

    // Retries, as a shopper's page and a merchant's client make them, until each is done.
    const paid = new Set<string>();
    ready.forEach((shopper, i) => {
      if (first[i]!.answer.status === 200) paid.add(shopper.sessionId);
    });
    const made = new Set<number>();
    for (let i = 0; i < KEYS; i++) if (first[SHOPPERS + i]!.answer.status === 200) made.add(i);
    const deadline = Date.now() + 120_000;
    while ((paid.size < SHOPPERS || made.size < KEYS) && Date.now() < deadline) {
      await Promise.all([
        ...ready
          .filter((shopper) => !paid.has(shopper.sessionId))
          .map(async (shopper, i) => {
            const base = i % 2 ? a.base : b.base;
            const { nonce } = await json(base, 'POST', `/api/checkout/sessions/${shopper.sessionId}/card-tokens`, {
              body: { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' },
            });
            const again = await pay(base, { sessionId: shopper.sessionId, nonce: String(nonce) });
            // Paid now, or by the attempt the restart cut (reconciled since): done either way.
            if (again.status === 200 || errorCode(again) === 'checkout_session_completed') paid.add(shopper.sessionId);
            else expect(['503 database_unavailable', '409 idempotency_key_in_use']).toContain(`${again.status} ${errorCode(again)}`);
          }),
        ...Array.from({ length: KEYS }, (_, i) => i)
          .filter((i) => !made.has(i))
          .map(async (i) => {
            const again = await createSession(i % 2 ? b.base : a.base, i);
            if (again.status === 200) made.add(i);
            else expect(['503 database_unavailable', '409 idempotency_key_in_use']).toContain(`${again.status} ${errorCode(again)}`);
          }),
      ]);
      if (paid.size < SHOPPERS || made.size < KEYS) await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(paid.size).toBe(SHOPPERS);
    expect(made.size).toBe(KEYS);

    // A charge approved while the database was out of reach was answered 200 at once and is recorded
    // in the background (up to 31.5 s of tries, then reconciliation): every payment is final within it.
    let allPayments: Array<Record<string, any>> = [];
    const settled = await until(async () => {
      allPayments = await listAll(a.base, '/v1/payments', key);
      return allPayments.every((payment) => payment.status !== 'processing');
    }, 90_000);
    expect(settled, 'every payment left processing once the database was back').toBe(true);

    // Exactly once: one succeeded payment and one charge per shopper's session, one session per key.
    const succeeded = allPayments.filter((payment) => payment.status === 'succeeded');
    const bySession = new Map<string, number>();
    for (const payment of succeeded) bySession.set(String(payment.checkout_session), (bySession.get(String(payment.checkout_session)) ?? 0) + 1);
    expect(ready.map((shopper) => bySession.get(shopper.sessionId) ?? 0)).toEqual(ready.map(() => 1));
    const db = new pg.Client(cluster.url);
    await db.connect();
    try {
      const charges = await db.query<{ session: string; n: number }>(
        `SELECT p.checkout_session_id AS session, count(*)::int AS n FROM test_processor_transactions t JOIN payments p ON p.id = t.payment_id
          WHERE t.status NOT IN ('voided', 'processor_declined') GROUP BY 1`,
      );
      expect(charges.rows.filter((row) => row.n !== 1)).toEqual([]);
      expect(charges.rows.length).toBe(SHOPPERS);
      const orders = await db.query<{ order: string; n: number }>(
        `SELECT metadata->>'order' AS order, count(*)::int AS n FROM checkout_sessions WHERE metadata ? 'order' GROUP BY 1`,
      );
      expect(orders.rows.length).toBe(KEYS);
      expect(orders.rows.filter((row) => row.n !== 1)).toEqual([]);
    } finally {
      await db.end();
    }

    // The same processes served throughout: they reconnected by themselves.
    expect(servers.map((server) => server.child.exitCode)).toEqual([null, null]);
    expect(servers.map((server) => server.child.pid)).toEqual(pids);
  });
});
