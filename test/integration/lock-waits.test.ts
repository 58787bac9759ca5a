import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { createSessionOf, expectError, merchantCall, payCall, rows, useIntegration, type IntegrationContext } from '../support/integration';
import { reconcileProcessingPayments } from '../../src/domain/payments/use-cases/reconcile-processing-payments';
import { holdProcessorAnswers } from '../support/payments';
import { deliverDueWebhooks } from '../../src/domain/webhooks/use-cases/deliver-due-webhooks';
import type { WebhookSender } from '../../src/domain/webhooks/ports';

const postgres = testDatabases.find((database) => database.name === 'postgres');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The lock timeout the suite's connections run with (DATABASE_LOCK_TIMEOUT_MS, by default). */
const LOCK_TIMEOUT_MS = 2_000;
/** What a loaded 2-core machine may add to an answer beyond the lock timeout. */
const MARGIN_MS = 1_500;

/** `work` in a transaction of another connection, held open for `ms` from when this resolves. */
async function holdInTransaction(ctx: IntegrationContext, sql: string, params: unknown[], ms: number) {
  let holding = false;
  let taken!: () => void;
  const lockTaken = new Promise<void>((resolve) => (taken = resolve));
  const released = ctx.db
    .transaction(async (tx) => {
      // The holder is an operator's session (psql, a migration run by hand), not a request.
      await tx.query(`SELECT set_config('lock_timeout', '0', true), set_config('statement_timeout', '0', true)`);
      await tx.query(sql, params);
      holding = true;
      taken();
      await sleep(ms);
      holding = false;
      // An ALTER TABLE is not kept: the next test's schema is the same.
      throw new Error('rolled back');
    })
    .catch((error: Error) => {
      if (error.message !== 'rolled back') throw error;
    });
  await lockTaken;
  return { holding: () => holding, released };
}

async function timed<T>(work: Promise<T>): Promise<{ res: T; ms: number }> {
  const started = performance.now();
  const res = await work;
  return { res, ms: performance.now() - started };
}

/**
 * No request waits on a lock longer than the lock timeout, and a shopper whose card was charged is
 * told so. PostgreSQL only: PGlite has one connection, so nothing else can hold a lock while a
 * request runs.
 */
describe.skipIf(!postgres)('lock waits (postgres)', () => {
  const ctx = useIntegration(postgres!, { rateLimitPerSecond: { test: 100_000 } });

  it('with a webhook endpoint row held FOR UPDATE, 50 shoppers pay at once and one alone: 200 and recorded, none waiting for the lock', {
    timeout: 60_000,
  }, async () => {
    const endpoint = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/webhook_endpoints', { url: 'https://shop.example/hooks', enabled_events: ['*'] });
    expect(endpoint.statusCode, endpoint.body).toBe(200);
    const endpointId = endpoint.json().id as string;
    const sessions = await Promise.all(Array.from({ length: 51 }, (_, i) => createSessionOf(ctx, 1000 + i)));
    const lock = await holdInTransaction(ctx, 'SELECT id FROM webhook_endpoints WHERE id = $1 FOR UPDATE', [endpointId], 8_000);

    const together = await Promise.all(sessions.slice(0, 50).map((s) => timed(payCall(ctx.h, s.id, 'fake-valid-visa-nonce'))));
    const alone = await timed(payCall(ctx.h, sessions[50]!.id, 'fake-valid-visa-nonce'));
    for (const { res } of [...together, alone]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe('succeeded');
    }
    expect(lock.holding()).toBe(true);
    expect(Math.max(...together.map((t) => t.ms), alone.ms)).toBeLessThan(LOCK_TIMEOUT_MS / 2);

    // Recorded at once, each event with its delivery to the locked endpoint.
    const paid = await rows(ctx.db, `SELECT count(*)::int AS n FROM payments WHERE status = 'succeeded'`);
    expect(paid[0]!.n).toBe(51);
    const delivered = await rows(
      ctx.db,
      `SELECT count(*)::int AS n FROM events ev JOIN webhook_deliveries d ON d.event_id = ev.id AND d.endpoint_id = $1 WHERE ev.type = 'payment.succeeded'`,
      [endpointId],
    );
    expect(delivered[0]!.n).toBe(51);
    await lock.released;
  });

  it('with payments locked by an ALTER TABLE, 150 shoppers and a merchant read are answered within the lock timeout, nothing charged', {
    timeout: 60_000,
  }, async () => {
    const sessions = await Promise.all(Array.from({ length: 150 }, (_, i) => createSessionOf(ctx, 2000 + i)));
    const lock = await holdInTransaction(ctx, 'ALTER TABLE payments ADD COLUMN lock_wait_probe int', [], 10_000);

    const [payments, merchant] = await Promise.all([
      Promise.all(sessions.map((s) => timed(payCall(ctx.h, s.id, 'fake-valid-visa-nonce')))),
      timed(merchantCall(ctx.h, ctx.key, 'GET', '/v1/payments')),
    ]);
    expect(lock.holding()).toBe(true);
    // The merchant's read waits the lock timeout once.
    expect(merchant.ms).toBeLessThan(LOCK_TIMEOUT_MS + MARGIN_MS);
    expectError(merchant.res, 503, 'database_unavailable');
    // No shopper waits the lock timeout twice (a shared statement's wait, then its own again), let
    // alone the whole hold; what they take beyond one lock timeout is 150 requests' own work on a
    // loaded machine.
    for (const { res, ms } of payments) {
      expect(ms).toBeLessThan(2 * LOCK_TIMEOUT_MS);
      expectError(res, 503, 'database_unavailable');
    }
    await lock.released;
    // No intent was written, so nothing was charged, and each shopper may pay again.
    expect(await rows(ctx.db, 'SELECT id FROM test_processor_transactions')).toEqual([]);
    const again = await payCall(ctx.h, sessions[0]!.id, 'fake-valid-visa-nonce');
    expect(again.statusCode, again.body).toBe(200);
  });

  it('a shopper charged while an ALTER TABLE locks payments for 3 s is told it is paid within the lock timeout; the payment is recorded soon after the release, with one receipt', {
    timeout: 60_000,
  }, async () => {
    const session = await createSessionOf(ctx, 3100);
    await ctx.db.query('UPDATE accounts SET send_receipts = true WHERE id = $1', [ctx.accountId]);
    const receipts: string[] = [];
    const access = ctx.h.tillpoint.deps.access;
    const mailer = access.mailer;
    access.mailer = { send: async (message) => void receipts.push(message.to) };
    // The processor is asked once the intent is written; the ALTER TABLE comes while it answers.
    const { asked: processorAsked, answer, restore } = holdProcessorAnswers(ctx.h);
    try {
      const paying = timed(payCall(ctx.h, session.id, 'fake-valid-visa-nonce'));
      await processorAsked;
      const lock = await holdInTransaction(ctx, 'ALTER TABLE payments ADD COLUMN lock_wait_probe int', [], 3_000);
      const answered = performance.now();
      answer();
      const { res } = await paying;
      const ms = performance.now() - answered;
      expect(lock.holding()).toBe(true);
      expect(ms).toBeLessThan(LOCK_TIMEOUT_MS + MARGIN_MS);
      // Charged, and told so: never a 503 that invites paying again.
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'succeeded', redirect_url: expect.any(String) });
      // Not recorded yet: the lock is still held.
      const [payment] = await rows(ctx.db, 'SELECT id, status FROM payments WHERE checkout_session_id = $1', [session.id]);
      expect(payment!.status).toBe('processing');
      expect(receipts).toEqual([]);
      await lock.released;
      const releasedAt = performance.now();

      // Recorded in the background a few seconds after the release (not by reconciliation, 75 s on):
      // paid once, the session complete, one receipt.
      let status = 'processing';
      while (status === 'processing' && performance.now() - releasedAt < 10_000) {
        await sleep(50);
        status = (await rows(ctx.db, 'SELECT status FROM payments WHERE id = $1', [payment!.id]))[0]!.status as string;
      }
      const recordedAfter = performance.now() - releasedAt;
      expect(status).toBe('succeeded');
      expect(recordedAfter).toBeLessThan(LOCK_TIMEOUT_MS + MARGIN_MS);
      expect(await rows(ctx.db, 'SELECT status FROM checkout_sessions WHERE id = $1', [session.id])).toEqual([{ status: 'complete' }]);
      expect(await rows(ctx.db, 'SELECT status FROM test_processor_transactions WHERE payment_id = $1', [payment!.id])).toHaveLength(1);
      expect(await rows(ctx.db, `SELECT count(*)::int AS n FROM events WHERE type = 'payment.succeeded'`)).toEqual([{ n: 1 }]);
      await ctx.h.tillpoint.deps.background.idle();
      expect(receipts).toEqual(['shopper@example.com']);

      // Reconciliation later finds it final and leaves it alone: still one event, no second receipt.
      ctx.h.clock.advance(61_000);
      await reconcileProcessingPayments(ctx.h.tillpoint.deps);
      await ctx.h.tillpoint.deps.background.idle();
      expect(await rows(ctx.db, `SELECT count(*)::int AS n FROM events WHERE type = 'payment.succeeded'`)).toEqual([{ n: 1 }]);
      expect(receipts).toHaveLength(1);
    } finally {
      restore();
      access.mailer = mailer;
    }
  });
});

/**
 * A delivery names its endpoint without a foreign key (so an event's fan-out never waits on an
 * endpoint row): deleting an endpoint deletes its deliveries itself, and a delivery fanned out to
 * an endpoint as it was deleted is dropped by the next claim.
 */
describe.each(testDatabases)('deleting a webhook endpoint ($name)', (database) => {
  const ctx = useIntegration(database);
  const sent: string[] = [];
  const sender: WebhookSender = {
    send: async (request) => {
      sent.push(request.url);
      return { ok: true, status: 200, body: '', durationMs: 1 };
    },
  };

  it("deletes its deliveries and their attempts, and leaves other endpoints' alone", async () => {
    const make = async (url: string) => {
      const res = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/webhook_endpoints', { url, enabled_events: ['*'] });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as string;
    };
    const gone = await make('https://shop.example/gone');
    const kept = await make('https://shop.example/kept');
    const session = await createSessionOf(ctx, 1200);
    expect((await payCall(ctx.h, session.id, 'fake-valid-visa-nonce')).statusCode).toBe(200);
    while ((await deliverDueWebhooks(ctx.h.tillpoint.deps, { sender })) > 0);
    const attempts = await rows(
      ctx.db,
      'SELECT d.endpoint_id, count(*)::int AS n FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id GROUP BY d.endpoint_id ORDER BY 1',
    );
    expect(attempts.map((a) => a.endpoint_id).sort()).toEqual([gone, kept].sort());

    const deleted = await merchantCall(ctx.h, ctx.key, 'DELETE', `/v1/webhook_endpoints/${gone}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await rows(ctx.db, 'SELECT id FROM webhook_deliveries WHERE endpoint_id = $1', [gone])).toEqual([]);
    const left = await rows(ctx.db, 'SELECT DISTINCT d.endpoint_id FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id');
    expect(left).toEqual([{ endpoint_id: kept }]);
    expect(
      await rows(
        ctx.db,
        'SELECT count(*)::int AS n FROM webhook_delivery_attempts a WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id)',
      ),
    ).toEqual([{ n: 0 }]);
    // Deleting it again: missing.
    expectError(await merchantCall(ctx.h, ctx.key, 'DELETE', `/v1/webhook_endpoints/${gone}`), 404, 'resource_missing', { param: 'id' });
  });

  it('drops a delivery fanned out to an endpoint as it was deleted, and still sends the others', async () => {
    const res = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/webhook_endpoints', { url: 'https://shop.example/kept', enabled_events: ['*'] });
    const kept = res.json().id as string;
    const session = await createSessionOf(ctx, 1300);
    expect((await payCall(ctx.h, session.id, 'fake-valid-visa-nonce')).statusCode).toBe(200);
    // What the fan-out writes when it read the endpoint just before its deletion committed.
    await ctx.db.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, account_id, mode, status, attempts, next_attempt_at, created_at, updated_at)
       SELECT 'whd_orphan', 'we_deletedmeanwhile', id, account_id, mode, 'pending', 0, created_at, created_at, created_at FROM events LIMIT 1`,
    );
    sent.length = 0;
    await deliverDueWebhooks(ctx.h.tillpoint.deps, { sender });
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent)).toEqual(new Set(['https://shop.example/kept']));
    expect(await rows(ctx.db, `SELECT id FROM webhook_deliveries WHERE id = 'whd_orphan'`)).toEqual([]);
    expect(await rows(ctx.db, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered'`, [kept])).toEqual([
      { n: sent.length },
    ]);
  });
});
