import { describe, expect, it } from 'vitest';
import { buildHttpServer } from '../../src/http/server';
import { openTillpoint } from '../../src/runtime/open-tillpoint';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { PUBLIC_URL } from '../support/harness';
import { createSessionOf, merchantCall, payCall, rows, tokenize, useIntegration } from '../support/integration';
import { paidPayment } from '../support/payments';

/**
 * The races a busy shop produces, on PGlite as on PostgreSQL: two instances paying one session, a
 * payment against the session's expiry (by the API and by the periodic job), a capture against a
 * cancel, refunds against each other. Each ends with one winner, and the processor agrees.
 */
describe.each(testDatabases)('races ($name)', (database) => {
  const ctx = useIntegration(database);

  const ledger = async (paymentId: string) =>
    (await rows(ctx.db, 'SELECT status, amount_captured FROM test_processor_transactions WHERE payment_id = $1', [paymentId]))[0];

  it('two instances over one database, 16 pays of one session split between them: exactly one payment', async () => {
    const other = await openTillpoint({ db: ctx.db, publicUrl: PUBLIC_URL });
    const second = await buildHttpServer({ deps: other.deps, webRoot: '/nonexistent' });
    try {
      const session = await createSessionOf(ctx, 2500);
      const nonces = await Promise.all(Array.from({ length: 16 }, () => tokenize(ctx.h, session.id)));
      const answers = await Promise.all(
        nonces.map((nonce, i) =>
          (i % 2 ? second : ctx.h.app).inject({
            method: 'POST',
            url: `/api/checkout/sessions/${session.id}/payments`,
            payload: { payment_method_type: 'card', nonce, email: 'shopper@example.com' },
          }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      for (const a of answers.filter((x) => x.statusCode !== 200)) {
        expect(['idempotency_key_in_use', 'checkout_session_completed']).toContain(a.json().error.code);
      }
      const payments = await rows(ctx.db, 'SELECT id, status FROM payments WHERE checkout_session_id = $1', [session.id]);
      expect(payments.map((p) => p.status)).toEqual(['succeeded']);
      expect(await rows(ctx.db, 'SELECT count(*)::int AS n FROM test_processor_transactions')).toEqual([{ n: 1 }]);
    } finally {
      await second.close();
    }
  });

  it('pay against expire: one of them wins, never both, with exactly one event for the session', async () => {
    for (let round = 0; round < 4; round++) {
      const session = await createSessionOf(ctx, 1500);
      const nonce = await tokenize(ctx.h, session.id);
      const [paid, expired] = await Promise.all([
        payCall(ctx.h, session.id, nonce),
        merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${session.id}/expire`),
      ]);
      const [row] = await rows(ctx.db, 'SELECT status FROM checkout_sessions WHERE id = $1', [session.id]);
      const events = await rows(ctx.db, `SELECT type FROM events WHERE object_id = $1 AND type LIKE 'checkout.session.%'`, [session.id]);
      if (row!.status === 'complete') {
        expect([paid.statusCode, expired.statusCode, expired.json().error?.code]).toEqual([200, 409, 'checkout_session_completed']);
        expect(events.map((e) => e.type)).toEqual(['checkout.session.completed']);
      } else {
        expect(row!.status).toBe('expired');
        expect(expired.statusCode).toBe(200);
        expect(paid.json().error.code).toBe('checkout_session_expired');
        expect(events.map((e) => e.type)).toEqual(['checkout.session.expired']);
        expect(await rows(ctx.db, 'SELECT id FROM payments WHERE checkout_session_id = $1', [session.id])).toEqual([]);
      }
    }
  });

  it('pay against the expiry job at the moment the session runs out: one winner', async () => {
    const session = await createSessionOf(ctx, 1600, { expires_at: Math.floor(ctx.h.clock.now().getTime() / 1000) + 31 * 60 });
    const nonce = await tokenize(ctx.h, session.id);
    ctx.h.clock.advance(31 * 60_000 + 1);
    const [paid] = await Promise.all([payCall(ctx.h, session.id, nonce), runJobOnce(ctx.h.tillpoint.deps, 'session-expiry')]);
    // Its time is up: whoever gets there first expires it; the payment is refused either way.
    expect(paid.json().error?.code).toBe('checkout_session_expired');
    expect(await rows(ctx.db, 'SELECT status FROM checkout_sessions WHERE id = $1', [session.id])).toEqual([{ status: 'expired' }]);
    expect(await rows(ctx.db, `SELECT count(*)::int AS n FROM events WHERE object_id = $1 AND type = 'checkout.session.expired'`, [session.id])).toEqual([
      { n: 1 },
    ]);
  });

  it('capture against cancel of one authorization: exactly one wins, and the processor agrees', async () => {
    for (let round = 0; round < 3; round++) {
      const payment = await paidPayment(ctx, 3000, 'manual');
      const [captured, canceled] = await Promise.all([
        merchantCall(ctx.h, ctx.key, 'POST', `/v1/payments/${payment.id}/capture`),
        merchantCall(ctx.h, ctx.key, 'POST', `/v1/payments/${payment.id}/cancel`),
      ]);
      expect([captured.statusCode, canceled.statusCode].filter((s) => s === 200)).toHaveLength(1);
      const loser = captured.statusCode === 200 ? canceled : captured;
      expect(loser.json().error.code).toBe('payment_not_capturable');
      const [row] = await rows(ctx.db, 'SELECT status, amount_captured FROM payments WHERE id = $1', [payment.id]);
      const processor = await ledger(payment.id);
      if (captured.statusCode === 200) {
        expect([row!.status, Number(row!.amount_captured)]).toEqual(['succeeded', 3000]);
        expect(['submitted_for_settlement', 'settled']).toContain(processor!.status);
      } else {
        expect(row!.status).toBe('canceled');
        expect(processor!.status).toBe('voided');
      }
      expect(await rows(ctx.db, 'SELECT payment_id FROM payment_operations_in_flight')).toEqual([]);
    }
  });

  it('a full refund against a partial one and a second full one: never more than captured, the processor agrees', async () => {
    const payment = await paidPayment(ctx, 4000);
    const answers = await Promise.all([
      merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: payment.id }),
      merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: payment.id, amount: 1500 }),
      merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: payment.id }),
    ]);
    const refunded = answers.filter((a) => a.statusCode === 200).reduce((sum, a) => sum + a.json().amount, 0);
    expect(refunded).toBeLessThanOrEqual(4000);
    for (const a of answers.filter((x) => x.statusCode !== 200)) expect(a.json().error.code).toBe('refund_exceeds_available');
    const [row] = await rows(ctx.db, 'SELECT amount_refunded FROM payments WHERE id = $1', [payment.id]);
    expect(Number(row!.amount_refunded)).toBe(refunded);
    const [made] = await rows(
      ctx.db,
      `SELECT coalesce(sum(r.amount), 0)::int AS n FROM test_processor_refunds r JOIN test_processor_transactions t ON t.id = r.transaction_id WHERE t.payment_id = $1`,
      [payment.id],
    );
    expect(made!.n).toBe(refunded);
  });
});
