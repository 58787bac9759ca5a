import type { Payment } from '../entities';
import { resourceMissing, TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import { settleAuthorization } from '../operations-in-flight-intent';
import type { Scope } from '../../shared/scope';

/** Voids an authorized payment: the hold on the shopper's card is released and nothing is charged. */
export async function cancelPayment(deps: Deps, options: { scope: Scope; id: string; actor: Actor | null }): Promise<Payment> {
  const payment = await deps.store.read((reader) => reader.payments.get(options.scope, options.id));
  if (!payment) throw resourceMissing('payment', options.id);
  if (payment.status !== 'requires_capture' || !payment.processorTransactionId) {
    throw new TillpointError('payment_not_capturable', `This payment is ${payment.status}; only an authorized payment (requires_capture) can be canceled`);
  }

  return settleAuthorization(
    deps,
    { ...payment, processorTransactionId: payment.processorTransactionId },
    {
      kind: 'void',
      amount: null,
      call: (processor, transactionId) => processor.void({ transactionId }),
      to: 'canceled',
      changes: {},
      audit: { scope: options.scope, actor: options.actor, action: 'payment.cancel' },
    },
  );
}
