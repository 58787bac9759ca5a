import type { Payment } from '../entities';
import { resourceMissing, TillpointError } from '../errors';
import { operationError } from '../operation-errors';
import type { Deps, Scope } from '../ports';
import { beginOperation } from '../operations-in-flight-intent';
import { transitionPayment } from '../transition';

/** Voids an authorized payment: the hold on the shopper's card is released and nothing is charged. */
export async function cancelPayment(deps: Deps, options: { scope: Scope; id: string }): Promise<Payment> {
  const payment = await deps.store.transaction((tx) => tx.payments.get(options.scope, options.id));
  if (!payment) throw resourceMissing('payment', options.id);
  if (payment.status !== 'requires_capture' || !payment.processorTransactionId) {
    throw new TillpointError('payment_not_capturable', `This payment is ${payment.status}; only an authorized payment (requires_capture) can be canceled`);
  }

  await beginOperation(deps, payment, 'void', null);
  const processor = await deps.processors.forScope(payment);
  const result = await processor.void({ transactionId: payment.processorTransactionId });
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
    return transitionPayment(tx, current, 'canceled', {}, deps.clock.now());
  });
}
