import { describe, expect, it } from 'vitest';
import type { Payment } from '../../src/domain/payments/entities';
import { newPayment, recordAuthorizationOutcome } from '../../src/domain/payments/rules';
import { ConcurrentTransitionError } from '../../src/domain/payments/transition';
import type { AuthorizeResult } from '../../src/domain/processors/ports';
import type { CheckoutSession } from '../../src/domain/sessions/entities';
import { testDatabases } from '../support/databases';
import {
  createSessionOf,
  merchantCall,
  recordPayButtonExposure,
  rows,
  runPayButtonExperiment,
  useIntegration,
  type IntegrationContext,
} from '../support/integration';

/**
 * A processor's answer is written one way (`payments.recordOutcome`): the payment's outcome, the
 * session's completion, both events with their webhook deliveries and the experiment conversions
 * together, and only onto a payment and a session still as they were read. A session that moved
 * meanwhile is read again and decided again; a payment that moved is left alone. (That it is one
 * statement is bench:pay's budget.)
 */
/** What a won payment leaves written: the session completed, both events, their deliveries, the conversion. */
const won = (payment: Payment) => ({
  payment: 'succeeded',
  session: { status: 'complete', payment_id: payment.id, customer_email: 'shopper@example.com' },
  events: ['checkout.session.completed', 'payment.succeeded'],
  deliveries: 2,
  converted: [true],
});

describe.each(testDatabases)('a payment outcome in one statement ($name)', (database) => {
  const ctx = useIntegration(database);

  const approved: Extract<AuthorizeResult, { outcome: 'approved' }> = {
    outcome: 'approved',
    captured: true,
    transactionId: 'tx_outcome',
    paymentMethod: { type: 'card', brand: 'visa', last4: '1111', expMonth: 12, expYear: 2034, fingerprint: 'fp' },
    response: { code: '1000', text: 'Approved' },
  };

  /** An open session with a webhook endpoint, a recorded exposure and a `processing` payment. */
  async function processingPayment(c: IntegrationContext): Promise<{ session: CheckoutSession; payment: Payment }> {
    const { deps } = c.h.tillpoint;
    expect((await merchantCall(c.h, c.key, 'POST', '/v1/webhook_endpoints', { url: 'https://hooks.example.com/in', enabled_events: ['*'] })).statusCode).toBe(
      200,
    );
    await runPayButtonExperiment(c.h, c.key);
    const created = await createSessionOf(c, 2500);
    await recordPayButtonExposure(c.h, created.id);
    const session = (await deps.store.read((r) => r.checkoutSessions.get(null, created.id)))!;
    const now = deps.clock.now();
    const payment = newPayment(session, 'shopper@example.com', 'test', now);
    expect(await deps.store.once((db) => db.payments.insertForSession(payment, session))).toBe('inserted');
    return { session, payment };
  }

  const written = async (c: IntegrationContext, session: CheckoutSession, payment: Payment) => ({
    payment: (await rows(c.db, 'SELECT status FROM payments WHERE id = $1', [payment.id]))[0]!.status,
    session: (await rows(c.db, 'SELECT status, payment_id, customer_email FROM checkout_sessions WHERE id = $1', [session.id]))[0],
    events: (await rows(c.db, 'SELECT type FROM events WHERE object_id IN ($1, $2) ORDER BY type', [payment.id, session.id])).map((e) => e.type),
    deliveries: Number(
      (
        await rows(c.db, 'SELECT count(*) AS n FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.object_id IN ($1, $2)', [
          payment.id,
          session.id,
        ])
      )[0]!.n,
    ),
    converted: (await rows(c.db, 'SELECT converted_at FROM experiment_exposures WHERE checkout_session_id = $1', [session.id])).map(
      (x) => x.converted_at !== null,
    ),
  });

  it('a won payment completes its session with both events, their deliveries and the conversion', async () => {
    const { session, payment } = await processingPayment(ctx);
    const paid = await recordAuthorizationOutcome(ctx.h.tillpoint.deps, { session, payment, paymentMethodType: 'card', result: approved });
    expect('error' in paid).toBe(false);
    expect(await written(ctx, session, payment)).toEqual(won(payment));
  });

  it('the outcome says what moved, and writes nothing then: the payment, or the session', async () => {
    const { session, payment } = await processingPayment(ctx);
    const { deps } = ctx.h.tillpoint;
    const at = deps.clock.now();
    const outcome = (expected: CheckoutSession, expectedStatus: Payment['status']) => ({
      payment: { ...payment, status: 'succeeded' as const, updatedAt: at },
      expectedStatus,
      event: null,
      session: {
        next: { ...expected, status: 'complete' as const, paymentId: payment.id, completedAt: at, updatedAt: at },
        expected,
        event: null,
        convertsExposuresAt: at,
      },
    });
    const moved = { ...session, updatedAt: new Date(session.updatedAt.getTime() - 1000) };
    expect(await deps.store.once((db) => db.payments.recordOutcome(outcome(moved, 'processing')))).toBe('session_changed');
    expect(await deps.store.once((db) => db.payments.recordOutcome(outcome(session, 'requires_capture')))).toBe('payment_moved');
    expect(await written(ctx, session, payment)).toEqual({
      payment: 'processing',
      session: { status: 'open', payment_id: null, customer_email: null },
      events: [],
      deliveries: 0,
      converted: [false],
    });
    expect(await deps.store.once((db) => db.payments.recordOutcome(outcome(session, 'processing')))).toBe('recorded');
  });

  it('a statement that must write rows together fails whole, in words, when they would part (tillpoint_check)', async () => {
    expect(await rows(ctx.db, `SELECT tillpoint_check(true, 'never said') AS ok`)).toEqual([{ ok: true }]);
    await expect(ctx.db.query(`SELECT tillpoint_check(n <> 2, 'row ' || n || ' would part') FROM generate_series(1, 3) AS n`)).rejects.toThrow(
      'row 2 would part',
    );
  });

  it("a won payment leaves its session's row as the completion it returned, every column", async () => {
    const { session, payment } = await processingPayment(ctx);
    const { deps } = ctx.h.tillpoint;
    const paid = await recordAuthorizationOutcome(deps, { session, payment, paymentMethodType: 'card', result: approved });
    if ('error' in paid) throw paid.error;
    const stored = await deps.store.read((r) => r.checkoutSessions.get(null, session.id));
    expect(stored).toEqual(paid.session);
    expect(stored).toMatchObject({ status: 'complete', paymentId: payment.id, customerEmail: 'shopper@example.com', completedAt: paid.session!.updatedAt });
  });

  it("an outcome that would change a session's column beyond the completion's is refused, and nothing is written", async () => {
    const { session, payment } = await processingPayment(ctx);
    const { deps } = ctx.h.tillpoint;
    const at = deps.clock.now();
    const next: CheckoutSession = { ...session, status: 'complete', paymentId: payment.id, completedAt: at, updatedAt: at, metadata: { order_id: 'changed' } };
    const outcome = {
      payment: { ...payment, status: 'succeeded' as const, updatedAt: at },
      expectedStatus: 'processing' as const,
      event: null,
      session: { next, expected: session, event: null, convertsExposuresAt: at },
    };
    await expect(deps.store.once((db) => db.payments.recordOutcome(outcome))).rejects.toThrow(/session's metadata/);
    expect(await written(ctx, session, payment)).toEqual({
      payment: 'processing',
      session: { status: 'open', payment_id: null, customer_email: null },
      events: [],
      deliveries: 0,
      converted: [false],
    });
  });

  it('the same answer recorded twice at once (the request and reconciliation): one wins, the session completes once', async () => {
    const { session, payment } = await processingPayment(ctx);
    const { deps } = ctx.h.tillpoint;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () => recordAuthorizationOutcome(deps, { session, payment, paymentMethodType: 'card', result: approved })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((x) => x.status === 'rejected')) expect(o.reason).toBeInstanceOf(ConcurrentTransitionError);
    expect(await written(ctx, session, payment)).toEqual(won(payment));
  });

  it('an approval after the payment was recorded declined writes nothing: the session stays open, unconverted', async () => {
    const { session, payment } = await processingPayment(ctx);
    const { deps } = ctx.h.tillpoint;
    const declined = await recordAuthorizationOutcome(deps, {
      session,
      payment,
      result: {
        outcome: 'declined',
        declineCode: 'insufficient_funds',
        transactionId: 'tx_d',
        paymentMethod: null,
        response: { code: '2001', text: 'Insufficient Funds' },
      },
    });
    expect('error' in declined && declined.error.code).toBe('card_declined');
    await expect(recordAuthorizationOutcome(deps, { session, payment, result: approved })).rejects.toBeInstanceOf(ConcurrentTransitionError);
    expect(await written(ctx, session, payment)).toEqual({
      payment: 'failed',
      session: { status: 'open', payment_id: null, customer_email: null },
      events: ['payment.failed'],
      deliveries: 1,
      converted: [false],
    });
  });

  it('a session that expired while its payment was at the processor is not completed', async () => {
    const { session, payment } = await processingPayment(ctx);
    await ctx.db.query(`UPDATE checkout_sessions SET status = 'expired', updated_at = now() WHERE id = $1`, [session.id]);
    await expect(recordAuthorizationOutcome(ctx.h.tillpoint.deps, { session, payment, result: approved })).rejects.toThrow();
    expect(await written(ctx, session, payment)).toEqual({
      payment: 'processing',
      session: { status: 'expired', payment_id: null, customer_email: null },
      events: [],
      deliveries: 0,
      converted: [false],
    });
  });

  it('a session changed since it was read is completed from its current row, not the copy read', async () => {
    const { session, payment } = await processingPayment(ctx);
    await ctx.db.query(`UPDATE checkout_sessions SET customer_email = 'known@example.com', updated_at = now() WHERE id = $1`, [session.id]);
    const paid = await recordAuthorizationOutcome(ctx.h.tillpoint.deps, { session, payment, result: approved });
    expect('error' in paid).toBe(false);
    const after = await written(ctx, session, payment);
    expect(after.session).toEqual({ status: 'complete', payment_id: payment.id, customer_email: 'known@example.com' });
    const [event] = await rows(ctx.db, `SELECT data FROM events WHERE object_id = $1 AND type = 'checkout.session.completed'`, [session.id]);
    expect(event!.data.customer_email).toBe('known@example.com');
  });
});
