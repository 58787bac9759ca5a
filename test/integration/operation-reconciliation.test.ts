import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/domain/deps';
import { cancelPayment } from '../../src/domain/payments/use-cases/cancel-payment';
import { capturePayment } from '../../src/domain/payments/use-cases/capture-payment';
import { createRefund } from '../../src/domain/payments/use-cases/create-refund';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { expectError, merchantCall, rows, useIntegration, type IntegrationContext } from '../support/integration';
import { paidPayment, readPayment } from '../support/payments';
import type { PaymentProcessor } from '../../src/domain/processors/ports';

type Operation = 'capture' | 'void' | 'refund';

/**
 * Fault injection at the processor's edge for follow-up operations: the answer is lost on the way
 * back (the processor acted), or the request never reaches it (it did not).
 */
function losingOperationAnswers(real: PaymentProcessor, operation: Operation, reachesProcessor: boolean): PaymentProcessor {
  const lose = (call: () => Promise<unknown>) => async () => {
    if (reachesProcessor) await call();
    return { outcome: 'unknown' as const, reason: 'timed out waiting for the gateway' };
  };
  return Object.assign(Object.create(real) as PaymentProcessor, {
    [operation]: (request: never) => lose(() => (real[operation] as (r: never) => Promise<unknown>).call(real, request))(),
  });
}

async function faultyDeps(ctx: IntegrationContext, operation: Operation, reachesProcessor: boolean): Promise<Deps> {
  const deps = ctx.h.tillpoint.deps;
  const real = await deps.processors.forScope({ accountId: ctx.accountId, mode: 'test' });
  const losing = losingOperationAnswers(real, operation, reachesProcessor);
  return {
    ...deps,
    processors: {
      forScope: async () => losing,
    },
  };
}

function describeReconciliation(name: string, settlementDelaySeconds: number | undefined) {
  describe.each(testDatabases)(`${name} ($name)`, (database) => {
    const ctx = useIntegration(database, { rateLimitPerSecond: { test: 10_000 }, testSettlementDelaySeconds: settlementDelaySeconds });
    const reconcile = () => runJobOnce(ctx.h.tillpoint.deps, 'operation-reconciliation');
    const scope = () => ({ accountId: ctx.accountId, mode: 'test' as const });
    const refundsOf = (paymentId: string) =>
      rows(ctx.db, 'SELECT status, amount, failure_reason, processor_refund_id FROM refunds WHERE payment_id = $1', [paymentId]);

    if (settlementDelaySeconds === undefined) {
      it('a capture the processor made but whose answer was lost becomes succeeded with the captured amount', async () => {
        const payment = await paidPayment(ctx, 5000, 'manual');
        await expect(
          capturePayment(await faultyDeps(ctx, 'capture', true), { scope: scope(), actor: null, id: payment.id, amount: 3000 }),
        ).rejects.toMatchObject({
          code: 'processor_timeout',
        });
        expect(await readPayment(ctx, payment.id)).toMatchObject({ status: 'requires_capture', amount_captured: 0 });
        // While the outcome is unknown, a second capture is refused rather than sent.
        expectError(await merchantCall(ctx.h, ctx.key, 'POST', `/v1/payments/${payment.id}/capture`, {}), 409, 'payment_not_capturable');

        expect(await reconcile()).toEqual({ resolved: 0, pending: 0 });
        ctx.h.clock.advance(61_000);
        expect(await reconcile()).toEqual({ resolved: 1, pending: 0 });
        expect(await readPayment(ctx, payment.id)).toMatchObject({ status: 'succeeded', amount_captured: 3000 });
        const events = await rows(ctx.db, "SELECT type FROM events WHERE type = 'payment.captured'");
        expect(events).toHaveLength(1);
        expect(await reconcile()).toEqual({ resolved: 0, pending: 0 });
      });

      it('a capture that never reached the processor leaves the payment authorized and capturable again', async () => {
        const payment = await paidPayment(ctx, 5000, 'manual');
        await expect(capturePayment(await faultyDeps(ctx, 'capture', false), { scope: scope(), actor: null, id: payment.id })).rejects.toMatchObject({
          code: 'processor_timeout',
        });
        ctx.h.clock.advance(61_000);
        expect(await reconcile()).toEqual({ resolved: 1, pending: 0 });
        expect(await readPayment(ctx, payment.id)).toMatchObject({ status: 'requires_capture', amount_captured: 0 });
        const retry = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/payments/${payment.id}/capture`, {});
        expect(retry.statusCode, retry.body).toBe(200);
        expect(retry.json()).toMatchObject({ status: 'succeeded', amount_captured: 5000 });
      });

      it('a void the processor made but whose answer was lost cancels the payment', async () => {
        const payment = await paidPayment(ctx, 5000, 'manual');
        await expect(cancelPayment(await faultyDeps(ctx, 'void', true), { scope: scope(), actor: null, id: payment.id })).rejects.toMatchObject({
          code: 'processor_timeout',
        });
        ctx.h.clock.advance(61_000);
        await reconcile();
        expect(await readPayment(ctx, payment.id)).toMatchObject({ status: 'canceled', amount_captured: 0 });
      });

      it('once the lease has run out, a refund the processor made becomes succeeded and one it never saw fails, freeing the amount', async () => {
        const payment = await paidPayment(ctx, 5000);
        await expect(
          createRefund(await faultyDeps(ctx, 'refund', true), { scope: scope(), actor: null, paymentId: payment.id, amount: 1000, createdBy: null }),
        ).rejects.toMatchObject({ code: 'processor_timeout' });
        await expect(
          createRefund(await faultyDeps(ctx, 'refund', false), { scope: scope(), actor: null, paymentId: payment.id, amount: 4000, createdBy: null }),
        ).rejects.toMatchObject({ code: 'processor_timeout' });
        // Both amounts are reserved: nothing remains to refund.
        expectError(await merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: payment.id, amount: 1 }), 409, 'refund_exceeds_available', {
          param: 'amount',
        });

        // Within the lease the request may still be under way: nothing is decided.
        expect(await reconcile()).toEqual({ resolved: 0, pending: 0 });
        // The processor is asked once the lease has run out, and its answer is final: no grace period.
        ctx.h.clock.advance(61_000);
        expect(await reconcile()).toEqual({ resolved: 2, pending: 0 });
        expect(await readPayment(ctx, payment.id)).toMatchObject({ amount_refunded: 1000 });
        const refunds = await refundsOf(payment.id);
        expect(refunds.map((r) => [r.status, Number(r.amount), r.failure_reason]).sort()).toEqual([
          ['failed', 4000, 'processor_timeout'],
          ['succeeded', 1000, null],
        ]);
        expect(refunds.find((r) => r.status === 'succeeded')!.processor_refund_id).toBeTruthy();
        const types = (await rows(ctx.db, "SELECT type FROM events WHERE type LIKE 'refund.%' ORDER BY type")).map((e) => e.type);
        expect(types).toEqual(['refund.failed', 'refund.succeeded']);

        // The released 4000 can be refunded, once; the processor never gives back more than captured.
        const again = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: payment.id });
        expect(again.statusCode, again.body).toBe(200);
        expect(again.json()).toMatchObject({ status: 'succeeded', amount: 4000 });
        expect(await readPayment(ctx, payment.id)).toMatchObject({ amount_captured: 5000, amount_refunded: 5000 });
      });
    } else {
      it('a full refund of an unsettled payment, voided by the processor with the answer lost, becomes succeeded', async () => {
        const payment = await paidPayment(ctx, 5000);
        // The refund is refused as unsettled and turned into a void, whose answer is lost.
        await expect(
          createRefund(await faultyDeps(ctx, 'void', true), { scope: scope(), actor: null, paymentId: payment.id, createdBy: null }),
        ).rejects.toMatchObject({ code: 'processor_timeout' });
        ctx.h.clock.advance(61_000);
        expect(await reconcile()).toEqual({ resolved: 1, pending: 0 });
        expect(await refundsOf(payment.id)).toMatchObject([
          { status: 'succeeded', processor_refund_id: payment.processor_transaction_id ?? expect.any(String) },
        ]);
        expect(await readPayment(ctx, payment.id)).toMatchObject({ amount_refunded: 5000 });
      });
    }
  });
}

describeReconciliation('reconciliation of lost capture, void and refund answers', undefined);
describeReconciliation('reconciliation of a lost void that stood in for a refund', 3600);
