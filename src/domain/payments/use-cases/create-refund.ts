import { auditWrite } from '../../team/audit';
import { refunds, type Refund, type RefundReason } from '../entities';
import { blankOf } from '../../shared/resource-shape';
import { TillpointError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { operationError } from '../operation-errors';
import type { OperationResult } from '../../processors/ports';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import { transitionRefund } from '../transition';
import type { Scope } from '../../shared/scope';
import { recordRefundSucceeded } from '../rules';

/** A payment can be refunded for this long after it was made (design.md §9). */
export const REFUND_WINDOW_MS = 180 * 24 * 60 * 60 * 1000;

export interface CreateRefundOptions {
  scope: Scope;
  paymentId: string;
  /** Minor units; default: everything captured and not yet refunded or being refunded. */
  amount?: number;
  reason?: RefundReason;
  /** The API key id (or user id) asking. */
  createdBy: string | null;
  /** Who the refund is audited against (written with its success); null for none. */
  actor: Actor | null;
}

/**
 * Refunds a succeeded payment, fully or in part, as many times as money remains.
 *
 * 1. In one transaction that locks the payment row, check what is left (captured − refunded −
 *    pending refunds) and insert the refund as `pending`: the amount is reserved, so concurrent
 *    refunds can never together exceed the capture.
 * 2. Ask the processor, holding no transaction. Braintree refunds only settled transactions: when it
 *    answers `not_settled`, a refund of everything that remains becomes a void of the transaction,
 *    and a partial one is refused (`payment_not_settled`) until settlement.
 * 3. Record the outcome: succeeded adds to the payment's `amount_refunded`; failed releases the
 *    reservation. An unknown outcome leaves the refund `pending`, its amount still reserved, so no
 *    retry can refund the money twice. The audit line is written with the success, in its transaction.
 */
export async function createRefund(deps: Deps, options: CreateRefundOptions): Promise<Refund> {
  const reserved = await deps.store.transaction(async (tx) => {
    const payment = await tx.payments.get(options.scope, options.paymentId, { forUpdate: true });
    if (!payment) throw new TillpointError('resource_missing', `No such payment: '${options.paymentId}'`, { param: 'payment' });
    const now = deps.clock.now();
    if (payment.status !== 'succeeded' || !payment.processorTransactionId) {
      throw new TillpointError('payment_not_refundable', `This payment is ${payment.status}; only a succeeded payment can be refunded`);
    }
    if (payment.achReturn) {
      // The bank took the debit back already (ADR 0107): a refund would pay the shopper twice.
      throw new TillpointError(
        'payment_not_refundable',
        `This bank debit was returned by the shopper's bank (${payment.achReturn.code} ${payment.achReturn.reason}): the money went back already`,
      );
    }
    if (now.getTime() - payment.createdAt.getTime() > REFUND_WINDOW_MS) {
      throw new TillpointError('payment_not_refundable', 'This payment is older than the 180-day refund window');
    }
    const available = payment.amountCaptured - payment.amountRefunded - (await tx.refunds.pendingAmount(payment.id));
    const amount = options.amount ?? available;
    if (amount < 1 || amount > available) {
      throw new TillpointError(
        'refund_exceeds_available',
        available > 0 ? `amount must be between 1 and ${available}, what remains to refund on this payment` : 'Nothing remains to refund on this payment',
        { param: 'amount' },
      );
    }
    const refund: Refund = {
      ...blankOf(refunds),
      id: newId('re'),
      accountId: payment.accountId,
      mode: payment.mode,
      paymentId: payment.id,
      amount,
      currency: payment.currency,
      reason: options.reason ?? null,
      status: 'pending',
      createdBy: options.createdBy,
      createdAt: now,
      updatedAt: now,
    };
    await tx.refunds.insert(refund);
    return { refund, payment };
  });

  const { refund, payment } = reserved;
  const transactionId = payment.processorTransactionId!;
  const processor = await deps.processors.forScope(payment);
  let result: OperationResult = await processor.refund({
    transactionId,
    amount: refund.amount,
    currency: refund.currency,
    refundId: refund.id,
  });
  if (result.outcome === 'refused' && result.reason === 'not_settled') {
    // Nothing can have been refunded before settlement, so "everything that remains" is the capture.
    const full = refund.amount === payment.amountCaptured - payment.amountRefunded;
    if (!full) {
      return recordFailure(
        deps,
        refund,
        'payment_not_settled',
        new TillpointError('payment_not_settled', 'This payment has not settled yet: refund all of it (which voids it) or refund part of it after settlement'),
      );
    }
    result = await processor.void({ transactionId });
    if (result.outcome === 'refused') {
      // It settled between the two calls: now a refund is what the processor accepts.
      result = await processor.refund({ transactionId, amount: refund.amount, currency: refund.currency, refundId: refund.id });
    }
  }

  if (result.outcome === 'succeeded') {
    const processorRefundId = result.transactionId;
    return deps.store.transaction(async (tx) => {
      const at = deps.clock.now();
      await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'refund.create', target: refund.id, at });
      return recordRefundSucceeded(tx, refund, processorRefundId, at);
    });
  }
  if (result.outcome === 'unknown') throw operationError(result, 'payment_not_refundable');
  const error = operationError(result, 'payment_not_refundable');
  return recordFailure(deps, refund, error.code, error);
}

/** Marks the refund failed (releasing its reserved amount) and answers the error. */
async function recordFailure(deps: Deps, refund: Refund, reason: string, error: TillpointError): Promise<never> {
  await deps.store.transaction((tx) => transitionRefund(tx, refund, 'failed', { failureReason: reason }, deps.clock.now()));
  throw error;
}
