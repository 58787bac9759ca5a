import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { createSessionOf, expectError, merchantCall, payCall, rows, useIntegration } from '../support/integration';

const postgres = testDatabases.find((database) => database.name === 'postgres');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long the lock is held elsewhere, and how long a paying shopper may take at most while it is. */
const HELD_MS = 8_000;
const DEADLINE_MS = 2_000;

/**
 * No shopper waits for a stranger: one session's row held FOR UPDATE by another connection (an
 * operator's psql, a sweep, a stuck transaction) stalls only that session's own payment, and that
 * only for the lock timeout. PostgreSQL only: PGlite has one connection, so nothing else can hold
 * a lock while shoppers pay.
 */
describe.skipIf(!postgres)('a session locked elsewhere (postgres)', () => {
  const ctx = useIntegration(postgres!, { rateLimitPerSecond: { test: 100_000 } });

  /** The session's row held FOR UPDATE by another connection for `ms`, from when this resolves. */
  async function holdRowLock(sessionId: string, ms: number) {
    let holding = false;
    let lockTaken!: () => void;
    const taken = new Promise<void>((resolve) => (lockTaken = resolve));
    const released = ctx.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM checkout_sessions WHERE id = $1 FOR UPDATE', [sessionId]);
      holding = true;
      lockTaken();
      await sleep(ms);
      holding = false;
    });
    await taken;
    return { holding: () => holding, released };
  }

  it('150 other shoppers pay in waves of 50 within the deadline; the locked one gets a retryable 503, then pays once', { timeout: 60_000 }, async () => {
    const locked = await createSessionOf(ctx, 4200);
    const others = await Promise.all(Array.from({ length: 150 }, (_, i) => createSessionOf(ctx, 1000 + i)));

    const lock = await holdRowLock(locked.id, HELD_MS);

    const timed = async (sessionId: string) => {
      const started = performance.now();
      const res = await payCall(ctx.h, sessionId, 'fake-valid-visa-nonce');
      return { res, ms: performance.now() - started };
    };
    // The locked session's shopper pays alongside the first wave.
    const lockedAttempt = timed(locked.id);
    const durations: number[] = [];
    for (let wave = 0; wave < 3; wave++) {
      const answers = await Promise.all(others.slice(wave * 50, wave * 50 + 50).map((session) => timed(session.id)));
      for (const { res, ms } of answers) {
        expect(res.statusCode, res.body).toBe(200);
        durations.push(ms);
      }
    }
    // Every wave finished while the lock was still held: none of them waited for it.
    expect(lock.holding()).toBe(true);
    expect(Math.max(...durations)).toBeLessThan(DEADLINE_MS);

    // Within the lock timeout (2 s by default, plus a margin for a loaded machine): a clear,
    // retryable answer, and nothing written.
    const { res: refused, ms } = await lockedAttempt;
    expect(ms).toBeLessThan(2_000 + DEADLINE_MS);
    expectError(refused, 503, 'database_unavailable');
    expect(refused.headers['retry-after']).toBe('1');
    expect(await rows(ctx.db, 'SELECT id FROM payments WHERE checkout_session_id = $1', [locked.id])).toEqual([]);

    // Once the lock goes, the same shopper's retry pays, once.
    await lock.released;
    const retried = await payCall(ctx.h, locked.id, 'fake-valid-visa-nonce');
    expect(retried.statusCode, retried.body).toBe(200);
    const payments = await rows(ctx.db, 'SELECT id, status FROM payments WHERE checkout_session_id = $1', [locked.id]);
    expect(payments.map((p) => p.status)).toEqual(['succeeded']);
    const charges = await rows(ctx.db, 'SELECT count(*)::int AS n FROM test_processor_transactions WHERE payment_id = $1', [payments[0]!.id]);
    expect(charges[0]!.n).toBe(1);
    const paidOthers = await rows(ctx.db, `SELECT count(*)::int AS n FROM payments WHERE status = 'succeeded' AND checkout_session_id <> $1`, [locked.id]);
    expect(paidOthers[0]!.n).toBe(150);
  });

  it('the merchant and the shopper read the locked session at once: reading takes no lock', { timeout: 30_000 }, async () => {
    const locked = await createSessionOf(ctx, 4200);
    const lock = await holdRowLock(locked.id, 4_000);
    const started = performance.now();
    // The merchant's retrieve, and the shopper's page data (what the page renders from, and polls).
    const [merchant, shopper] = await Promise.all([
      merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${locked.id}`),
      ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${locked.id}` }),
    ]);
    const ms = performance.now() - started;
    expect(merchant.statusCode, merchant.body).toBe(200);
    expect(merchant.json()).toMatchObject({ id: locked.id, status: 'open' });
    expect(shopper.statusCode, shopper.body).toBe(200);
    expect(shopper.json()).toMatchObject({ id: locked.id, status: 'open' });
    // Answered while the lock was still held, well inside the 2 s lock timeout a lock would wait for.
    expect(lock.holding()).toBe(true);
    expect(ms).toBeLessThan(1_000);
    await lock.released;
  });
});
