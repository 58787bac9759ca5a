import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/domain/deps';
import { payCheckoutSession } from '../../src/domain/payments/use-cases/pay-checkout-session';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { createSessionOf, merchantCall, payCall, rows, tokenize, useIntegration } from '../support/integration';
import { readPayment } from '../support/payments';
import type { AuthorizeRequest, PaymentProcessor } from '../../src/domain/processors/ports';

/**
 * Fault injection at the processor's edge: the gateway's answer is lost on the way back (a timeout
 * after the charge was made), or the request never reaches it (a timeout before).
 */
function losingAnswers(real: PaymentProcessor, reachesProcessor: boolean): PaymentProcessor {
  return Object.assign(Object.create(real) as PaymentProcessor, {
    async authorize(request: AuthorizeRequest) {
      if (reachesProcessor) await real.authorize(request);
      return { outcome: 'unknown' as const, reason: 'timed out waiting for the gateway' };
    },
  });
}

describe.each(testDatabases)('reconciliation of payments left processing ($name)', (database) => {
  const ctx = useIntegration(database);

  async function payWithLostAnswer(amount: number, reachesProcessor: boolean, captureMethod = 'automatic') {
    const session = await createSessionOf(ctx, amount, { capture_method: captureMethod });
    const nonce = await tokenize(ctx.h, session.id);
    const deps = ctx.h.tillpoint.deps;
    const real = await deps.processors.forScope({ accountId: ctx.accountId, mode: 'test' });
    const losing = losingAnswers(real, reachesProcessor);
    const faulty: Deps = {
      ...deps,
      processors: {
        forScope: async () => losing,
      },
    };
    await expect(payCheckoutSession(faulty, { sessionId: session.id, paymentMethodType: 'card', nonce, email: 'ada@example.com' })).rejects.toMatchObject({
      code: 'processor_timeout',
    });
    const [payment] = await rows(ctx.db, 'SELECT id, status FROM payments WHERE checkout_session_id = $1', [session.id]);
    expect(payment!.status).toBe('processing');
    return { session, paymentId: String(payment!.id) };
  }

  const reconcile = () => runJobOnce(ctx.h.tillpoint.deps, 'reconciliation');
  const sessionOf = async (id: string) => (await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${id}`)).json();

  it('a charge made but unanswered is found and recorded as succeeded, completing the session', async () => {
    const { session, paymentId } = await payWithLostAnswer(5000, true);
    // Young payments may still have their request in flight: left alone.
    expect(await reconcile()).toEqual({ resolved: 0, pending: 0 });
    ctx.h.clock.advance(61_000);
    expect(await reconcile()).toEqual({ resolved: 1, pending: 0 });
    expect(await readPayment(ctx, paymentId)).toMatchObject({
      status: 'succeeded',
      amount_captured: 5000,
      payment_method: { type: 'card', brand: 'visa', last4: '1111' },
    });
    expect(await sessionOf(session.id)).toMatchObject({ status: 'complete', payment: paymentId });
    const events = await rows(ctx.db, 'SELECT type FROM events ORDER BY type');
    expect(events.map((e) => e.type)).toEqual(['checkout.session.completed', 'payment.succeeded']);
    // Running again changes nothing.
    expect(await reconcile()).toEqual({ resolved: 0, pending: 0 });
  });

  it('a manual-capture authorization found later becomes requires_capture', async () => {
    const { paymentId } = await payWithLostAnswer(5000, true, 'manual');
    ctx.h.clock.advance(61_000);
    await reconcile();
    expect(await readPayment(ctx, paymentId)).toMatchObject({ status: 'requires_capture', amount_captured: 0 });
  });

  it('a declined charge found later fails the payment with its decline code, and the session can be paid again', async () => {
    const { session, paymentId } = await payWithLostAnswer(200_100, true);
    ctx.h.clock.advance(61_000);
    await reconcile();
    expect(await readPayment(ctx, paymentId)).toMatchObject({
      status: 'failed',
      failure_code: 'card_declined',
      decline_code: 'insufficient_funds',
    });
    expect(await sessionOf(session.id)).toMatchObject({ status: 'open' });
  });

  it('a charge the processor never saw fails once its lease has run out, freeing the session for a retry', async () => {
    const { session, paymentId } = await payWithLostAnswer(5000, false);
    // Within its lease the request may still be under way: left processing.
    ctx.h.clock.advance(59_000);
    expect(await reconcile()).toEqual({ resolved: 0, pending: 0 });
    expect(await readPayment(ctx, paymentId)).toMatchObject({ status: 'processing' });
    ctx.h.clock.advance(2_000);
    expect(await reconcile()).toEqual({ resolved: 1, pending: 0 });
    expect(await readPayment(ctx, paymentId)).toMatchObject({ status: 'failed', failure_code: 'processor_timeout' });

    const retry = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
    expect(retry.statusCode, retry.body).toBe(200);
    expect(await sessionOf(session.id)).toMatchObject({ status: 'complete' });
    // It is asked about again for the rest of the ten minutes, and then no more.
    ctx.h.clock.advance(10 * 60_000);
    await reconcile();
    await reconcile();
    expect(await rows(ctx.db, 'SELECT payment_id FROM payment_late_answer_checks')).toEqual([]);
  });

  it('a charge the processor makes after its payment failed as unknown is undone: never two charges for one session', async () => {
    const { session, paymentId } = await payWithLostAnswer(5000, false);
    ctx.h.clock.advance(61_000);
    expect(await reconcile()).toEqual({ resolved: 1, pending: 0 });
    expect(await sessionOf(session.id)).toMatchObject({ status: 'open' });
    // The shopper pays again, and wins.
    expect((await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id))).statusCode).toBe(200);
    // Then the gateway finishes the first request after all: a second charge for the session.
    const processor = await ctx.h.tillpoint.deps.processors.forScope({ accountId: ctx.accountId, mode: 'test' });
    const late = await processor.authorize({
      paymentId,
      amount: 5000,
      currency: 'usd',
      capture: true,
      nonce: 'fake-valid-nonce',
      deviceData: null,
      email: 'ada@example.com',
    });
    expect(late).toMatchObject({ outcome: 'approved' });
    const charged = async () =>
      (
        await rows(
          ctx.db,
          'SELECT t.payment_id, t.status, t.amount_captured, coalesce((SELECT sum(r.amount) FROM test_processor_refunds r WHERE r.transaction_id = t.id), 0)::int AS refunded FROM test_processor_transactions t JOIN payments p ON p.id = t.payment_id WHERE p.checkout_session_id = $1',
          [session.id],
        )
      ).filter((t) => t.status !== 'voided' && t.status !== 'processor_declined' && Number(t.refunded) < Number(t.amount_captured));
    expect(await charged()).toHaveLength(2);
    // Not yet time to ask again.
    await reconcile();
    expect(await charged()).toHaveLength(2);
    ctx.h.clock.advance(61_000);
    await reconcile();
    expect((await charged()).map((t) => t.payment_id)).not.toContain(paymentId);
    expect(await charged()).toHaveLength(1);
    expect(await readPayment(ctx, paymentId)).toMatchObject({ status: 'failed' });
    expect(await rows(ctx.db, 'SELECT payment_id FROM payment_late_answer_checks')).toEqual([]);
  });
});
