import { describe, expect, it } from 'vitest';
import type { ServerProcess } from '../support/processes';
import { type Answer, useBurstShop, jobInterval, json, listAll, pay, shopDatabases, shoppers } from './shop';

/**
 * `kill -9` of a real `tillpoint serve` while 400 shoppers pay, then a restart at once: once it
 * runs, within the lease and one reconciliation interval every payment is final; Tillpoint's
 * payments and the test processor's ledger agree; no session is charged twice; and a shopper whose
 * payment the processor never saw pays the same session again.
 *
 * The server that is killed keeps the default 60 s lease, so no payment is reconciled while its
 * request still runs. The restarted one, which only sees payments whose requests died with the
 * first, has its lease set short by configuration (RECONCILE_AFTER_SECONDS): the same
 * reconciliation, asking the processor, within seconds instead of a minute. The 15 s interval of
 * the job is the default.
 */
const SHOPPERS = 400;
/** The kill comes once this many shoppers have their answer: mid-burst. */
const KILL_AFTER_ANSWERS = 100;
/** The restarted server's lease: longer than any of its own few payments takes to answer. */
const RESTART_LEASE_SECONDS = 3;
/** The reconciliation job's interval. */
const RECONCILE_EVERY_MS = jobInterval('reconciliation');
/** What the restarted server's reconciliation takes to go through all of them: seconds, far more on a loaded machine. */
const RECONCILE_WORK_MS = 60_000;
/**
 * The promise, once a server runs again: the rest of the lease, one interval of the job, and the
 * work. (With the default 60 s lease and a restart of seconds, within 2 minutes of the crash.)
 */
const FINAL_WITHIN_MS = RESTART_LEASE_SECONDS * 1000 + RECONCILE_EVERY_MS + RECONCILE_WORK_MS;

type Row = Record<string, any>;

describe.each(shopDatabases)('kill -9 mid-burst, restart ($name)', ({ make }) => {
  const shop = useBurstShop(make);
  const serve = (env?: Record<string, string>) => shop.serve(env);

  const payments = (base: string) => listAll(base, '/v1/payments', shop.key);

  /** Payments left `processing` that the processor never saw: read while no server runs. */
  async function unseenByProcessor(): Promise<number> {
    const db = await shop.database.open();
    try {
      const { rows } = await db.query<Row>(
        `SELECT count(*)::int AS n FROM payments p
          WHERE p.status = 'processing'
            AND NOT EXISTS (SELECT 1 FROM test_processor_transactions t WHERE t.payment_id = p.id)`,
      );
      return Number(rows[0]!.n);
    } finally {
      await db.close();
    }
  }

  /** 400 shoppers pay at once; the server is killed once 100 have their answer. */
  async function burstAndKill(server: ServerProcess): Promise<{ killedAt: number; cut: number }> {
    const ready = await shoppers(server.base, shop.key, SHOPPERS);
    let answered = 0;
    const burst = ready.map((shopper) =>
      pay(server.base, shopper).then((answer: Answer) => {
        answered += 1;
        return answer;
      }),
    );
    while (answered < KILL_AFTER_ANSWERS) await new Promise((resolve) => setTimeout(resolve, 5));
    server.child.kill('SIGKILL');
    const killedAt = Date.now();
    const answers = await Promise.all(burst);
    expect(await server.exited).toBe(null);
    return { killedAt, cut: answers.filter((answer) => answer.status === null).length };
  }

  it(`every payment is final within ${FINAL_WITHIN_MS / 1000} s of the restart, none charged twice, and a cut shopper pays again`, {
    timeout: 600_000,
  }, async () => {
    // A kill lands where it lands: between the payment's intent and the processor's call, or after
    // it. The test needs at least one of the first kind, so it bursts and kills again (up to three
    // times) until the database holds one.
    let server = await serve();
    let killedAt = 0;
    let cut = 0;
    let unseenAtKill = 0;
    let restartedAt = 0;
    for (let round = 1; round <= 3 && unseenAtKill === 0; round += 1) {
      ({ killedAt, cut } = await burstAndKill(server));
      unseenAtKill = await unseenByProcessor();
      // A server that bursts again keeps the default lease; the last one reconciles with a short one.
      server = await serve(unseenAtKill > 0 ? { RECONCILE_AFTER_SECONDS: String(RESTART_LEASE_SECONDS) } : {});
      restartedAt = Date.now();
    }
    expect(unseenAtKill, 'no kill cut a payment before the processor saw it').toBeGreaterThan(0);
    const second = server;
    const left = (await payments(second.base)).filter((payment) => payment.status === 'processing').length;
    // The crash cut payments in flight: otherwise the test shows nothing.
    expect(left).toBeGreaterThan(0);
    let finalAt: number | null = null;
    while (Date.now() - restartedAt < FINAL_WITHIN_MS + 30_000) {
      if ((await payments(second.base)).every((payment) => payment.status !== 'processing')) {
        finalAt = Date.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    console.info(
      `kill -9 after ${KILL_AFTER_ANSWERS} of ${SHOPPERS} answers: ${cut} shoppers cut, ${left} payments left processing (${unseenAtKill} unseen by the processor); ` +
        `restart ${Math.round((restartedAt - killedAt) / 1000)} s after the kill; all final ${finalAt === null ? 'never' : `${Math.round((finalAt - killedAt) / 1000)} s after the kill, ${Math.round((finalAt - restartedAt) / 1000)} s after the restart`}`,
    );
    expect(finalAt, 'payments still processing').not.toBeNull();
    expect(finalAt! - restartedAt).toBeLessThanOrEqual(FINAL_WITHIN_MS);

    // Shoppers whose payment the processor never saw find their session open and pay again.
    const all = await payments(second.base);
    const unseen = all.filter((payment) => payment.status === 'failed' && payment.failure_code === 'processor_timeout');
    expect(unseen.length).toBeGreaterThan(0);
    for (const payment of unseen.slice(0, 5)) {
      const sessionId = String(payment.checkout_session);
      const { nonce } = await json(second.base, 'POST', `/api/checkout/sessions/${sessionId}/card-tokens`, {
        body: { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' },
      });
      const again = await pay(second.base, { sessionId, nonce: String(nonce) });
      expect(again.status, again.body).toBe(200);
    }

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // Tillpoint and the processor agree, and no session is charged twice.
    const db = await shop.database.open();
    try {
      const rows = async (sql: string) => (await db.query<Row>(sql)).rows;
      const stored = await rows('SELECT id, status, amount, amount_captured, checkout_session_id FROM payments');
      const ledger = new Map(
        (
          await rows(
            `SELECT t.payment_id, t.status, t.amount_captured,
                    coalesce((SELECT sum(r.amount) FROM test_processor_refunds r WHERE r.transaction_id = t.id), 0)::int AS refunded
               FROM test_processor_transactions t`,
          )
        ).map((t) => [String(t.payment_id), t]),
      );
      const charged = (t: Row | undefined) =>
        !!t && t.status !== 'voided' && t.status !== 'processor_declined' && Number(t.refunded) < Number(t.amount_captured || 1);
      const disagreements: string[] = [];
      const chargesPerSession = new Map<string, number>();
      for (const payment of stored) {
        const t = ledger.get(String(payment.id));
        if (charged(t)) chargesPerSession.set(payment.checkout_session_id, (chargesPerSession.get(payment.checkout_session_id) ?? 0) + 1);
        const agrees =
          payment.status === 'succeeded'
            ? charged(t) && Number(t!.amount_captured) === Number(payment.amount_captured)
            : payment.status === 'failed'
              ? !charged(t)
              : false;
        if (!agrees) disagreements.push(`${payment.id} is ${payment.status}; the processor has ${JSON.stringify(t ?? null)}`);
      }
      expect(disagreements).toEqual([]);
      expect([...chargesPerSession].filter(([, n]) => n > 1)).toEqual([]);
      const complete = await rows(
        `SELECT s.id FROM checkout_sessions s JOIN payments p ON p.id = s.payment_id WHERE s.status = 'complete' AND p.status = 'succeeded'`,
      );
      expect(complete.length).toBe([...chargesPerSession.values()].length);
    } finally {
      await db.close();
    }
  });
});
