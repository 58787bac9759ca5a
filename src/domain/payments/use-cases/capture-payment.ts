import type { Payment } from '../entities';
import { resourceMissing, TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import { settleAuthorization } from '../operations-in-flight-intent';
import type { Scope } from '../../shared/scope';

/**
 * Captures an authorized payment (capture_method manual), in full or in part; the processor releases
 * the rest. The processor allows one capture, so two racing requests cannot both take money.
 */
export async function capturePayment(deps: Deps, options: { scope: Scope; id: string; amount?: number; actor: Actor | null }): Promise<Payment> {
  const payment = await deps.store.read((reader) => reader.payments.get(options.scope, options.id));
  if (!payment) throw resourceMissing('payment', options.id);
  if (payment.status !== 'requires_capture' || !payment.processorTransactionId) {
    throw new TillpointError('payment_not_capturable', `This payment is ${payment.status}; only an authorized payment (requires_capture) can be captured`);
  }
  const amount = options.amount ?? payment.amount;
  if (amount < 1) throw new TillpointError('amount_too_small', 'amount must be at least 1', { param: 'amount' });
  if (amount > payment.amount) {
    throw new TillpointError('amount_too_large', `amount must be at most the authorized ${payment.amount}`, { param: 'amount' });
  }

  return settleAuthorization(
    deps,
    { ...payment, processorTransactionId: payment.processorTransactionId },
    {
      kind: 'capture',
      amount,
      call: (processor, transactionId) => processor.capture({ transactionId, amount, currency: payment.currency }),
      to: 'succeeded',
      changes: { amountCaptured: amount },
      audit: { scope: options.scope, actor: options.actor, action: 'payment.capture' },
    },
  );
}
