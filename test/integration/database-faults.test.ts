import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { buildHttpServer } from '../../src/http/server';
import { openPostgres, type SqlClient } from '../../src/persistence/sql-client';
import { openTillpoint, type Tillpoint } from '../../src/runtime/open-tillpoint';
import { runJobOnce } from '../../src/runtime/scheduler';
import { expectError, testCard } from '../support/integration';
import { startSmtpReceiver } from '../support/smtp-receiver';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * Database faults on PostgreSQL, through a TCP proxy the test controls (the shared server is never
 * stopped; only this suite's own backends, found by their application_name, are terminated):
 * answers are 200 or a clear 503 database_unavailable, nothing is half-written, reconciliation
 * resolves what was left `processing`, and the same server recovers without a restart.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgresUrl)('database faults (postgres, through a proxy)', () => {
  const schema = `f_${randomBytes(6).toString('hex')}`;
  const applicationName = `tillpoint_fault_${randomBytes(4).toString('hex')}`;
  let proxy: TcpProxy;
  let admin: SqlClient;
  let db: SqlClient;
  let tillpoint: Tillpoint;
  let app: FastifyInstance;
  let key = '';
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    const target = new URL(postgresUrl!);
    proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const port = await proxy.start();
    admin = await openPostgres(postgresUrl!, { max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    const viaProxy = new URL(postgresUrl!);
    viaProxy.host = `127.0.0.1:${port}`;
    viaProxy.searchParams.set('application_name', applicationName);
    db = await openPostgres(viaProxy.toString(), { schema, max: 6 });
    // Reconciliation without waiting: it is only run here once every request has been answered.
    tillpoint = await openTillpoint({
      db,
      publicUrl: 'http://checkout.test',
      rateLimitPerSecond: { test: 100_000 },
      reconciliation: { afterMs: 0, notFoundGraceMs: 0 },
      smtp: { url: smtp.url, from: 'receipts@checkout.test' },
    });
    app = await buildHttpServer({ deps: tillpoint.deps, webRoot: '/nonexistent' });
    key = (await createAccount(tillpoint.deps, { name: 'Fault Shop' })).testSecretKey;
  });

  afterAll(async () => {
    await app?.close();
    await tillpoint?.close();
    await proxy?.stop();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
    await smtp?.close();
  });

  const all = async (sql: string) => (await admin.query<Record<string, any>>(sql.replaceAll('$schema', schema))).rows;

  /** Terminates this suite's own backends (never anyone else's). */
  const terminateOurBackends = async () =>
    (
      await admin.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
        [applicationName],
      )
    ).rows[0]!.n;

  /** One shopper's whole path: a session opened by the merchant, a card tokenized, the payment. */
  async function shopperPays(email = 'shopper@example.com'): Promise<LightMyRequestResponse[]> {
    const answers: LightMyRequestResponse[] = [];
    const session = await app.inject({
      method: 'POST',
      url: '/v1/checkout/sessions',
      headers: { authorization: `Bearer ${key}` },
      payload: { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 1000, quantity: 1 }] },
    });
    answers.push(session);
    if (session.statusCode !== 200) return answers;
    const id = session.json().id;
    const token = await app.inject({ method: 'POST', url: `/api/checkout/sessions/${id}/card-tokens`, payload: testCard });
    answers.push(token);
    if (token.statusCode !== 200) return answers;
    answers.push(
      await app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${id}/payments`,
        payload: { payment_method_type: 'card', nonce: token.json().nonce, email },
      }),
    );
    return answers;
  }

  /** Every answer is a success or the clear 503; returns how many were 503. */
  function expectClearAnswers(answers: LightMyRequestResponse[]): number {
    let unavailable = 0;
    for (const answer of answers) {
      if (answer.statusCode === 200) continue;
      expectError(answer, 503, 'database_unavailable');
      unavailable += 1;
    }
    return unavailable;
  }

  /** Reconciles, then checks nothing is half-written and Tillpoint agrees with the processor. */
  async function expectConsistent() {
    await runJobOnce(tillpoint.deps, 'reconciliation');
    const payments = await all(
      `SELECT p.id, p.status, p.amount_captured, s.status AS session_status, s.payment_id AS session_payment, t.status AS processor_status, t.amount_captured AS processor_captured
         FROM $schema.payments p JOIN $schema.checkout_sessions s ON s.id = p.checkout_session_id
         LEFT JOIN $schema.test_processor_transactions t ON t.payment_id = p.id`,
    );
    for (const p of payments) {
      if (p.status === 'succeeded') {
        expect(p).toMatchObject({ session_status: 'complete', session_payment: p.id, processor_status: 'settled' });
        expect(Number(p.processor_captured)).toBe(Number(p.amount_captured));
      } else {
        expect(p.status, JSON.stringify(p)).toBe('failed');
        expect(p.processor_status).toBeNull();
        expect(p.session_status).toBe('open');
      }
    }
    // No processor transaction without its payment, no session complete without a payment that won.
    expect(await all(`SELECT t.id FROM $schema.test_processor_transactions t LEFT JOIN $schema.payments p ON p.id = t.payment_id WHERE p.id IS NULL`)).toEqual(
      [],
    );
    expect(
      await all(
        `SELECT s.id FROM $schema.checkout_sessions s LEFT JOIN $schema.payments p ON p.id = s.payment_id WHERE s.status = 'complete' AND (p.status IS NULL OR p.status <> 'succeeded')`,
      ),
    ).toEqual([]);
    // Every state change kept its event.
    expect(
      await all(
        `SELECT p.id FROM $schema.payments p WHERE p.status = 'succeeded' AND NOT EXISTS (SELECT 1 FROM $schema.events e WHERE e.object_id = p.id AND e.type = 'payment.succeeded')`,
      ),
    ).toEqual([]);
    return payments;
  }

  it('a transaction whose connection is terminated fails as 503 database_unavailable, commits nothing, and the pool recovers', async () => {
    const marker = `pay_fault_${randomBytes(4).toString('hex')}`;
    const error = await db
      .transaction(async (tx) => {
        await tx.query(`INSERT INTO install_settings (key, value) VALUES ($1, 'half')`, [marker]);
        expect(await terminateOurBackends()).toBeGreaterThan(0);
        await tx.query(`INSERT INTO install_settings (key, value) VALUES ($1, 'other half')`, [`${marker}_2`]);
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'database_unavailable' });
    expect(await all(`SELECT key FROM $schema.install_settings WHERE key LIKE '${marker}%'`)).toEqual([]);
    // The same client, no restart: the broken connection was dropped, a new one works.
    expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('payments whose backends are terminated mid-flight answer 200 or 503, and leave nothing half-written', async () => {
    let answered = false;
    let terminated = 0;
    const killer = (async () => {
      while (!answered) {
        terminated += await terminateOurBackends();
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();
    const answers = (await Promise.all(Array.from({ length: 16 }, () => shopperPays()))).flat();
    answered = true;
    await killer;
    expect(terminated).toBeGreaterThan(0);
    expectClearAnswers(answers);
    await expectConsistent();
    // Recovered without a restart.
    const after = await shopperPays();
    expect(after.map((a) => a.statusCode)).toEqual([200, 200, 200]);
  });

  it('a payment whose outcome the database committed but whose answer was lost: the shopper is told it is paid, and gets one receipt', async () => {
    await all(`UPDATE $schema.accounts SET send_receipts = true`);
    const receipts = () => smtp.received.filter((m) => m.to.includes('lost-answer@example.com'));
    // The outcome's statement (it writes the payment.succeeded event) reaches the server, which
    // commits it; its answer is lost with the connection. The background retries find the payment
    // already moved, by that very statement.
    const lost = proxy.loseAnswerTo('payment.succeeded');
    const answers = await shopperPays('lost-answer@example.com');
    await lost;
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers[2]!.json()).toMatchObject({ status: 'succeeded' });
    const sessionId = String(answers[0]!.json().id);
    const payments = await all(`SELECT id, status FROM $schema.payments WHERE checkout_session_id = '${sessionId}'`);
    expect(payments.map((p) => p.status)).toEqual(['succeeded']);
    // Once the background's tries (and the receipt they send) are over: one receipt, one event.
    await tillpoint.deps.background.idle();
    expect(receipts(), 'its receipt').toHaveLength(1);
    expect(await all(`SELECT count(*)::int AS n FROM $schema.events WHERE object_id = '${payments[0]!.id}' AND type = 'payment.succeeded'`)).toEqual([
      { n: 1 },
    ]);
    await all(`UPDATE $schema.accounts SET send_receipts = false`);
  });

  it('a database down for 10 s during payments: clear 503s, nothing half-written, payments again once it is back', { timeout: 60_000 }, async () => {
    const answers: Array<{ at: number; answer: LightMyRequestResponse }> = [];
    const started = Date.now();
    let restoredAt = Infinity;
    let paidAfter = 0;
    const lane = async () => {
      while (paidAfter < 3 && Date.now() - started < 45_000) {
        const path = await shopperPays();
        for (const answer of path) answers.push({ at: Date.now(), answer });
        if (Date.now() > restoredAt && path.length === 3 && path.every((a) => a.statusCode === 200)) paidAfter += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const outage = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await proxy.cut();
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      await proxy.restore();
      restoredAt = Date.now();
    })();
    await Promise.all([lane(), lane(), outage]);

    expect(paidAfter).toBeGreaterThanOrEqual(3);
    const unavailable = expectClearAnswers(answers.map((a) => a.answer));
    expect(unavailable).toBeGreaterThan(0);
    expect(answers.some((a) => a.at < restoredAt - 10_000 && a.answer.statusCode === 200)).toBe(true);
    const payments = await expectConsistent();
    expect(payments.filter((p) => p.status === 'succeeded').length).toBeGreaterThanOrEqual(3);
  });
});
