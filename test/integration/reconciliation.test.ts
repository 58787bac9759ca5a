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
        sessionToPay: async (id) => {
          const found = await deps.processors.sessionToPay(id);
          return found && { ...found, processor: async () => losing };
        },
      },
    };
    await expect(
      payCheckoutSession(faulty, { sessionId: session.id, paymentMethodType: 'card', nonce, email: 'ada@example.com' }),
    ).rejects.toMatchObject({ code: 'processor_timeout' });
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

  it('a charge the processor never saw fails after the grace period, freeing the session for a retry', async () => {
    const { session, paymentId } = await payWithLostAnswer(5000, false);
    ctx.h.clock.advance(5 * 60_000);
    expect(await reconcile()).toEqual({ resolved: 0, pending: 1 });
    expect(await readPayment(ctx, paymentId)).toMatchObject({ status: 'processing' });
    ctx.h.clock.advance(5 * 60_000);
    expect(await reconcile()).toEqual({ resolved: 1, pending: 0 });
    expect(await readPayment(ctx, paymentId)).toMatchObject({ status: 'failed', failure_code: 'processor_timeout' });

    const retry = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
    expect(retry.statusCode, retry.body).toBe(200);
    expect(await sessionOf(session.id)).toMatchObject({ status: 'complete' });
  });
});
