import { auditWrite } from '../team/audit';
import type { Payment } from './entities';
import { TillpointError } from '../shared/errors';
import { operationError } from './operation-errors';
import type { Deps } from '../deps';
import type { OperationResult, PaymentProcessor } from '../processors/ports';
import type { Actor } from '../team/entities';
import { transitionPayment } from './transition';
import type { Scope } from '../shared/scope';

/**
 * Records that a capture or void of `payment` is about to be sent, in its own transaction that
 * re-checks the payment is still authorized. While one is in flight (or its answer was lost and
 * reconciliation has not resolved it), a second is refused: the processor's truth is not known yet.
 */
export async function beginOperation(deps: Deps, payment: Payment, operation: 'capture' | 'void', amount: number | null): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const current = await tx.payments.get(null, payment.id, { forUpdate: true });
    if (current?.status !== 'requires_capture') {
      throw new TillpointError(
        'payment_not_capturable',
        `This payment is ${current?.status ?? 'missing'}; only an authorized payment (requires_capture) can be captured or canceled`,
      );
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

/**
 * Captures or voids an authorized payment the one safe way: record the intent, call the processor
 * with no transaction open, then record the outcome. A lost answer leaves the intent in flight for
 * reconciliation; a refusal clears it and answers `payment_not_capturable` (or the processor error).
 * The audit line is written with the outcome, in its transaction.
 */
export async function settleAuthorization(
  deps: Deps,
  payment: Payment & { processorTransactionId: string },
  operation: {
    kind: 'capture' | 'void';
    amount: number | null;
    call: (processor: PaymentProcessor, transactionId: string) => Promise<OperationResult>;
    to: 'succeeded' | 'canceled';
    changes: Partial<Payment>;
    audit: { scope: Scope; actor: Actor | null; action: string };
  },
): Promise<Payment> {
  await beginOperation(deps, payment, operation.kind, operation.amount);
  const processor = await deps.processors.forScope(payment);
  const result = await operation.call(processor, payment.processorTransactionId);
  if (result.outcome === 'unknown') throw operationError(result, 'payment_not_capturable');
  if (result.outcome !== 'succeeded') {
    await deps.store.transaction((tx) => tx.operationsInFlight.finish(payment.id));
    throw operationError(result, 'payment_not_capturable');
  }
  return deps.store.transaction(async (tx) => {
    // Lock order everywhere: the payment row, then its in-flight row (as beginOperation does), so a
    // racing capture and this outcome queue instead of deadlocking.
    const current = (await tx.payments.get(null, payment.id, { forUpdate: true }))!;
    await tx.operationsInFlight.finish(payment.id);
    const at = deps.clock.now();
    await auditWrite(tx, { ...operation.audit, target: payment.id, at });
    if (current.status !== 'requires_capture') return current;
    return transitionPayment(tx, current, operation.to, operation.changes, at);
  });
}
