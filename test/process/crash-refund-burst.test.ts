import { describe, expect, it } from 'vitest';
import type { ServerProcess } from '../support/processes';
import { type Answer, useBurstShop, jobInterval, json, listAll, pay, request, shopDatabases, shoppers } from './shop';

/**
 * `kill -9` of a real `tillpoint serve` while merchants refund, then a restart at once: once it
 * runs, within the lease and one reconciliation interval every refund is final — the ones the
 * processor made `succeeded`, the ones it never saw `failed` with their amount free again — and
 * Tillpoint's refunds agree with the test processor's ledger.
 *
 * The server that is killed keeps the default 60 s lease, so no refund is reconciled while its
 * request still runs. The restarted one, which only sees refunds whose requests died with the
 * first, has its lease set short by configuration (RECONCILE_AFTER_SECONDS); the job's 15 s
 * interval and the 10-minute not-found grace are the defaults.
 */
const PAYMENTS = 100;
const AMOUNT = 10_000;
/** Two refunds of this on every payment, all at once. */
const REFUND = 100;
/** The kill comes once this many refunds have their answer. */
const KILL_AFTER_ANSWERS = 60;
/**
 * Should that kill have cut no refund before the processor made it (the refunds reserved first may
 * all have been made before the first answer), the next ones come sooner: at these shares of the
 * time the first answer took.
 */
const SOONER = [0.5, 0.25, 0.75];
/** The restarted server's lease: longer than any of its own few refunds takes to answer. */
const RESTART_LEASE_SECONDS = 3;
/** The operation-reconciliation job's interval. */
const RECONCILE_EVERY_MS = jobInterval('operation-reconciliation');
/** What the restarted server's reconciliation takes to go through all of them: seconds, far more on a loaded machine. */
const RECONCILE_WORK_MS = 60_000;
/**
 * The promise, once a server runs again: the rest of the lease, one interval of the job, and the
 * work. (With the default 60 s lease and a restart of seconds, within 2 minutes of the crash.)
 */
const FINAL_WITHIN_MS = RESTART_LEASE_SECONDS * 1000 + RECONCILE_EVERY_MS + RECONCILE_WORK_MS;

type Row = Record<string, any>;

describe.each(shopDatabases)('kill -9 mid-refunds, restart ($name)', ({ make }) => {
  const shop = useBurstShop(make);
  const serve = (env?: Record<string, string>) => shop.serve(env);

  const refunds = (base: string) => listAll(base, '/v1/refunds', shop.key);

  /** Refunds left `pending` that the processor never made, and those it made: read while no server runs. */
  async function pendingAtKill(): Promise<{ unseen: number; made: number }> {
    const db = await shop.database.open();
    try {
      const { rows } = await db.query<Row>(
        `SELECT count(*) FILTER (WHERE t.id IS NULL)::int AS unseen, count(t.id)::int AS made
           FROM refunds r LEFT JOIN test_processor_refunds t ON t.refund_id = r.id
          WHERE r.status = 'pending'`,
      );
      return { unseen: Number(rows[0]!.unseen), made: Number(rows[0]!.made) };
    } finally {
      await db.close();
    }
  }

  /**
   * 100 payments, then two refunds on each at once; the server is killed once `kill.answers` refunds
   * have their answer, or `kill.afterMs` after they were sent. Answers when, and how long the first
   * answer took.
   */
  async function refundsAndKill(server: ServerProcess, kill: { answers: number } | { afterMs: number }): Promise<{ killedAt: number; firstAnswerMs: number }> {
    const ready = await shoppers(server.base, shop.key, PAYMENTS, { amount: AMOUNT });
    const paid: string[] = [];
    for (let i = 0; i < ready.length; i += 16) {
      const ids = await Promise.all(
        ready.slice(i, i + 16).map(async (shopper) => {
          const answer = await pay(server.base, shopper);
          expect(answer.status, answer.body).toBe(200);
          return String((await json(server.base, 'GET', `/v1/checkout/sessions/${shopper.sessionId}`, { key: shop.key })).payment);
        }),
      );
      paid.push(...ids);
    }
    let answered = 0;
    const sentAt = Date.now();
    let firstAnswerMs = 0;
    const burst = paid.flatMap((payment) =>
      [0, 1].map(() =>
        request(server.base, 'POST', '/v1/refunds', { key: shop.key, body: { payment, amount: REFUND } }).then((answer: Answer) => {
          if (answered === 0) firstAnswerMs = Date.now() - sentAt;
          answered += 1;
          return answer;
        }),
      ),
    );
    const due = () => ('answers' in kill ? answered >= kill.answers : Date.now() - sentAt >= kill.afterMs);
    while (!due()) await new Promise((resolve) => setTimeout(resolve, 1));
    server.child.kill('SIGKILL');
    const killedAt = Date.now();
    await Promise.all(burst);
    expect(await server.exited).toBe(null);
    return { killedAt, firstAnswerMs };
  }

  it(`every refund is final within ${FINAL_WITHIN_MS / 1000} s of the restart, the unmade ones released, and the processor agrees`, {
    timeout: 600_000,
  }, async () => {
    // The test needs refunds cut before the processor made them: it refunds and kills again, sooner
    // (up to three times), until the database holds one.
    let server = await serve();
    let killedAt = 0;
    let atKill = { unseen: 0, made: 0 };
    let restartedAt = 0;
    let kill: { answers: number } | { afterMs: number } = { answers: KILL_AFTER_ANSWERS };
    let firstAnswerMs = 0;
    for (let round = 0; round <= SOONER.length && atKill.unseen === 0; round += 1) {
      if (round > 0) kill = { afterMs: Math.round(firstAnswerMs * SOONER[round - 1]!) };
      const killed = await refundsAndKill(server, kill);
      killedAt = killed.killedAt;
      if (round === 0) firstAnswerMs = killed.firstAnswerMs;
      atKill = await pendingAtKill();
      console.info(`kill -9 at ${JSON.stringify(kill)} (first answer after ${killed.firstAnswerMs} ms): refunds pending ${JSON.stringify(atKill)}`);
      // A server that refunds again keeps the default lease; the last one reconciles with a short one.
      server = await serve(atKill.unseen > 0 ? { RECONCILE_AFTER_SECONDS: String(RESTART_LEASE_SECONDS) } : {});
      restartedAt = Date.now();
    }
    expect(atKill.unseen, 'no kill cut a refund before the processor made it').toBeGreaterThan(0);
    const second = server;

    let finalAt: number | null = null;
    while (Date.now() - restartedAt < FINAL_WITHIN_MS + 30_000) {
      if ((await refunds(second.base)).every((refund) => refund.status !== 'pending')) {
        finalAt = Date.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    console.info(
      `kill -9 ${'answers' in kill ? `after ${kill.answers} of ${PAYMENTS * 2} refund answers` : `${kill.afterMs} ms into ${PAYMENTS * 2} refunds`}: ${atKill.unseen + atKill.made} refunds left pending ` +
        `(${atKill.made} made by the processor, ${atKill.unseen} not); restart ${Math.round((restartedAt - killedAt) / 1000)} s after the kill; ` +
        `all final ${finalAt === null ? 'never' : `${Math.round((finalAt - killedAt) / 1000)} s after the kill, ${Math.round((finalAt - restartedAt) / 1000)} s after the restart`}`,
    );
    expect(finalAt, 'refunds still pending').not.toBeNull();
    expect(finalAt! - restartedAt).toBeLessThanOrEqual(FINAL_WITHIN_MS);

    // A failed refund's amount is free again: the rest of its payment refunds.
    const failed = (await refunds(second.base)).filter((refund) => refund.status === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(atKill.unseen);
    expect(failed.every((refund) => refund.failure_reason === 'processor_timeout')).toBe(true);
    for (const paymentId of [...new Set(failed.map((refund) => String(refund.payment)))].slice(0, 5)) {
      const payment = await json(second.base, 'GET', `/v1/payments/${paymentId}`, { key: shop.key });
      const rest = await request(second.base, 'POST', '/v1/refunds', { key: shop.key, body: { payment: paymentId } });
      expect(rest.status, rest.body).toBe(200);
      expect(JSON.parse(rest.body)).toMatchObject({ status: 'succeeded', amount: AMOUNT - Number(payment.amount_refunded) });
    }

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // Tillpoint's refunds and payments agree with the processor's ledger.
    const db = await shop.database.open();
    try {
      const rows = async (sql: string) => (await db.query<Row>(sql)).rows;
      const disagreements = await rows(
        `SELECT r.id, r.status, t.id AS made FROM refunds r LEFT JOIN test_processor_refunds t ON t.refund_id = r.id
          WHERE (r.status = 'succeeded') <> (t.id IS NOT NULL) OR r.status = 'pending'`,
      );
      expect(disagreements).toEqual([]);
      const amounts = await rows(
        `SELECT p.id, p.amount_refunded, coalesce(sum(t.amount), 0)::int AS ledger
           FROM payments p JOIN test_processor_transactions tx ON tx.payment_id = p.id
           LEFT JOIN test_processor_refunds t ON t.transaction_id = tx.id
          GROUP BY p.id, p.amount_refunded HAVING p.amount_refunded <> coalesce(sum(t.amount), 0)`,
      );
      expect(amounts).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
