import type { Payment } from './entities';
import { TillpointError } from './errors';
import type { Deps } from './ports';

/**
 * Records that a capture or void of `payment` is about to be sent, in its own transaction that
 * re-checks the payment is still authorized. While one is in flight (or its answer was lost and
 * reconciliation has not resolved it), a second is refused: the processor's truth is not known yet.
 */
export async function beginOperation(
  deps: Deps,
  payment: Payment,
  operation: 'capture' | 'void',
  amount: number | null,
): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const current = await tx.payments.get(null, payment.id, { forUpdate: true });
    if (current?.status !== 'requires_capture') {
      throw new TillpointError('payment_not_capturable', `This payment is ${current?.status ?? 'missing'}; only an authorized payment (requires_capture) can be captured or canceled`);
    }
    const started = await tx.operationsInFlight.begin({ paymentId: payment.id, operation, amount, startedAt: deps.clock.now() });
    if (!started) {
      throw new TillpointError(
        'payment_not_capturable',
        'A capture or cancellation of this payment is already under way; its outcome is being confirmed with the processor',
      );
    }
  });
}
