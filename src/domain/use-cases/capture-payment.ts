import type { Payment } from '../entities';
import { resourceMissing, TillpointError } from '../errors';
import { operationError } from '../operation-errors';
import type { Deps, Scope } from '../ports';
import { beginOperation } from '../operations-in-flight-intent';
import { transitionPayment } from '../transition';

/**
 * Captures an authorized payment (capture_method manual), in full or in part; the processor releases
 * the rest. The processor allows one capture, so two racing requests cannot both take money.
 */
export async function capturePayment(
  deps: Deps,
  options: { scope: Scope; id: string; amount?: number },
): Promise<Payment> {
  const payment = await deps.store.transaction((tx) => tx.payments.get(options.scope, options.id));
  if (!payment) throw resourceMissing('payment', options.id);
  if (payment.status !== 'requires_capture' || !payment.processorTransactionId) {
    throw new TillpointError('payment_not_capturable', `This payment is ${payment.status}; only an authorized payment (requires_capture) can be captured`);
  }
  const amount = options.amount ?? payment.amount;
  if (amount < 1) throw new TillpointError('amount_too_small', 'amount must be at least 1', { param: 'amount' });
  if (amount > payment.amount) {
    throw new TillpointError('amount_too_large', `amount must be at most the authorized ${payment.amount}`, { param: 'amount' });
  }

  await beginOperation(deps, payment, 'capture', amount);
  const processor = await deps.processors.forScope(payment);
  const result = await processor.capture({ transactionId: payment.processorTransactionId, amount, currency: payment.currency });
  // A lost answer keeps the operation in flight for reconciliation to resolve.
  if (result.outcome === 'unknown') throw operationError(result, 'payment_not_capturable');
  if (result.outcome !== 'succeeded') {
    await deps.store.transaction((tx) => tx.operationsInFlight.finish(payment.id));
    throw operationError(result, 'payment_not_capturable');
  }

  return deps.store.transaction(async (tx) => {
    await tx.operationsInFlight.finish(payment.id);
    const current = (await tx.payments.get(null, payment.id, { forUpdate: true }))!;
    if (current.status !== 'requires_capture') return current;
    return transitionPayment(tx, current, 'succeeded', { amountCaptured: amount }, deps.clock.now());
  });
}
