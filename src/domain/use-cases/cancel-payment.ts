import type { Payment } from '../entities';
import { resourceMissing, TillpointError } from '../errors';
import { operationError } from '../operation-errors';
import type { Deps, Scope } from '../ports';
import { transitionPayment } from '../transition';

/** Voids an authorized payment: the hold on the shopper's card is released and nothing is charged. */
export async function cancelPayment(deps: Deps, options: { scope: Scope; id: string }): Promise<Payment> {
  const payment = await deps.store.transaction((tx) => tx.payments.get(options.scope, options.id));
  if (!payment) throw resourceMissing('payment', options.id);
  if (payment.status !== 'requires_capture' || !payment.processorTransactionId) {
    throw new TillpointError('payment_not_capturable', `This payment is ${payment.status}; only an authorized payment (requires_capture) can be canceled`);
  }

  const processor = await deps.processors.forScope(payment);
  const result = await processor.void({ transactionId: payment.processorTransactionId });
  if (result.outcome !== 'succeeded') throw operationError(result, 'payment_not_capturable');

  return deps.store.transaction(async (tx) => {
    const current = (await tx.payments.get(null, payment.id, { forUpdate: true }))!;
    if (current.status !== 'requires_capture') return current;
    return transitionPayment(tx, current, 'canceled', {}, deps.clock.now());
  });
}
