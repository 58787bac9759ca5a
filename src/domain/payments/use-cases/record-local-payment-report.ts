import type { Deps } from '../../deps';
import type { Payment } from '../entities';
import type { AuthorizeResult, LocalPaymentReport, PaymentProcessor } from '../../processors/ports';
import type { Scope } from '../../shared/scope';
import { isBankDebitMethod, isLocalPaymentMethod } from '../payment-method-types';
import { LOCAL_PAYMENT_LIFETIME_MS, localPaymentFailureCodes } from '../local-payment-methods';
import { ConcurrentTransitionError, transitionPayment } from '../transition';
import { recordAuthorizationOutcome, recordChargeOutcome, type KnownAuthorizeResult } from '../rules';
import { sendReceiptInBackground } from './send-receipt';

/**
 * What a local payment report did: `recorded` the payment's outcome (`succeeded` or `failed`),
 * left it `waiting` (no answer from the sale, or a transaction not found yet: the 3-hour check
 * decides), found it `already_final` (a completion after a cancel or an expiry charges nothing:
 * the processor gives the bank's money back), or found no payment of ours (`unknown_payment`).
 */
export type LocalPaymentReportOutcome = 'recorded' | 'waiting' | 'already_final' | 'unknown_payment';

/**
 * Records what the processor reports of a local payment (Braintree's `LOCAL_PAYMENT_*`
 * notifications, or the test processor's completions): completed → the sale of the bank's nonce
 * (never two: a completion the processor already made a transaction for is looked up by our
 * payment id instead), whose answer is the payment's outcome as for any payment, with the bank it
 * was paid from; expired or reversed → failed (`local_payment_expired`). Idempotent: a report of a
 * payment no longer `processing` changes nothing.
 */
export async function recordLocalPaymentReport(
  deps: Deps,
  options: { scope: Scope; processor: PaymentProcessor; report: LocalPaymentReport },
): Promise<{ outcome: LocalPaymentReportOutcome; payment: Payment | null }> {
  const { scope, processor, report } = options;
  const payment = await deps.store.read((reader) => reader.payments.findByProcessorPaymentId(scope, processor.name, report.processorPaymentId));
  if (!payment) return { outcome: 'unknown_payment', payment: null };
  if (payment.status !== 'processing') return { outcome: 'already_final', payment };
  if (report.kind !== 'completed') return endUnpaid(deps, payment, localPaymentFailureCodes.expired);

  let result: AuthorizeResult;
  if (report.transactionId || !report.nonce) {
    const found = await processor.findByPaymentId({ paymentId: payment.id });
    if (!found.found) return { outcome: 'waiting', payment };
    result = found.authorization;
  } else {
    result = await processor.authorize({
      paymentId: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      // The bank has the money: a local payment is captured at once.
      capture: true,
      nonce: report.nonce,
      deviceData: null,
      email: payment.customerEmail,
      threeDSecureMode: 'off',
      paymentMethodType: payment.paymentMethod?.type ?? 'card',
    });
  }
  // No answer, or the nonce already used (the same report delivered twice, the first one selling):
  // the processor's transaction, found by our payment id, decides later.
  if (result.outcome === 'unknown' || result.outcome === 'invalid_payment_method' || result.outcome === 'pending') return { outcome: 'waiting', payment };
  const recorded = await recordSale(deps, payment, withBank(result, payment, report.bank));
  return recorded ? { outcome: 'recorded', payment: recorded } : { outcome: 'already_final', payment };
}

/**
 * The 3-hour rule: a local payment still waiting for its bank once `LOCAL_PAYMENT_LIFETIME_MS` has
 * passed since it started is decided by the processor's transaction for it (a sale made whose
 * answer was lost), else failed `local_payment_expired`, as Braintree gives back the money of a
 * local payment no transaction took by then. Oldest first, a batch at a time.
 */
export async function expireLocalPayments(
  deps: Deps,
  options: { batchSize?: number; onError?: (paymentId: string, error: unknown) => void } = {},
): Promise<{ expired: number; recorded: number }> {
  const counts = { expired: 0, recorded: 0 };
  const before = new Date(deps.clock.now().getTime() - LOCAL_PAYMENT_LIFETIME_MS);
  const waiting = await deps.store.read((reader) => reader.payments.listAwaitingBankCreatedBefore(before, options.batchSize ?? 100));
  for (const payment of waiting) {
    try {
      const processor = await deps.processors.forScope(payment);
      const found = await processor.findByPaymentId({ paymentId: payment.id });
      if (found.found && found.authorization.outcome !== 'pending') {
        if (await recordSale(deps, payment, withBank(found.authorization, payment, null))) counts.recorded += 1;
        continue;
      }
      if ((await endUnpaid(deps, payment, localPaymentFailureCodes.expired)).outcome === 'recorded') counts.expired += 1;
    } catch (error) {
      options.onError?.(payment.id, error);
    }
  }
  return counts;
}

/** The test processor's completions due by now (its bank confirming approved payments), each recorded as Braintree's notifications are. */
export async function receiveTestLocalPayments(
  deps: Deps,
  options: { onError?: (processorPaymentId: string, error: unknown) => void } = {},
): Promise<{ recorded: number }> {
  let recorded = 0;
  for (const { scope, report } of (await deps.processors.testLocalPaymentReports?.()) ?? []) {
    try {
      const processor = await deps.processors.forScope(scope);
      if (processor.name !== 'test') continue;
      if ((await recordLocalPaymentReport(deps, { scope, processor, report })).outcome === 'recorded') recorded += 1;
    } catch (error) {
      options.onError?.(report.processorPaymentId, error);
    }
  }
  return { recorded };
}

/**
 * Ends a waiting payment unpaid (`payment.failed` with `failureCode`, and `changes`): a local
 * payment the shopper canceled, whose bank's window failed, or that expired; a bank debit declined
 * before it settled. Its session takes another attempt.
 */
export async function endUnpaid(
  deps: Deps,
  payment: Payment,
  failureCode: string,
  changes: Partial<Payment> = {},
): Promise<{ outcome: LocalPaymentReportOutcome; payment: Payment }> {
  try {
    const ended = await deps.store.transaction(async (tx) => {
      const current = await tx.payments.get(null, payment.id, { forUpdate: true });
      if (current?.status !== 'processing') throw new ConcurrentTransitionError(payment.id);
      return transitionPayment(tx, current, 'failed', { ...changes, failureCode }, deps.clock.now());
    });
    return { outcome: 'recorded', payment: ended };
  } catch (error) {
    if (!(error instanceof ConcurrentTransitionError)) throw error;
    const current = await deps.store.read((reader) => reader.payments.get(null, payment.id));
    return { outcome: 'already_final', payment: current ?? payment };
  }
}

/** The sale's answer with the local payment's own method and bank (the sale tells neither). */
function withBank<R extends AuthorizeResult>(result: R, payment: Payment, bank: NonNullable<Payment['paymentMethod']>['bank'] | null): R {
  if ((result.outcome !== 'approved' && result.outcome !== 'declined') || !result.paymentMethod) return result;
  const type = payment.paymentMethod?.type;
  const paidAs = type && isLocalPaymentMethod(type) ? type : result.paymentMethod.type;
  return { ...result, paymentMethod: { ...result.paymentMethod, type: paidAs, bank: bank ?? result.paymentMethod.bank ?? null } };
}

/**
 * Writes a sale's answer onto the waiting payment (and its session, when it won) the one way
 * outcomes are written; the receipt goes out once it is recorded. Null when another wrote it first.
 * A local payment's, and a bank debit's once it settled (`recordBankDebitReport`).
 */
export async function recordSale(deps: Deps, payment: Payment, result: KnownAuthorizeResult): Promise<Payment | null> {
  try {
    let recorded: Payment;
    if (payment.checkoutSessionId) {
      const sessionId = payment.checkoutSessionId;
      const session = await deps.store.read((reader) => reader.checkoutSessions.get(null, sessionId));
      if (!session) return null;
      const type = payment.paymentMethod?.type;
      const ownType = type && (isLocalPaymentMethod(type) || isBankDebitMethod(type));
      recorded = (await recordAuthorizationOutcome(deps, { session, payment, result, ...(ownType ? { paymentMethodType: type } : {}) })).payment;
    } else {
      recorded = (await recordChargeOutcome(deps, { payment, result })).payment;
    }
    if (recorded.status === 'succeeded') sendReceiptInBackground(deps, { payment: recorded });
    return recorded;
  } catch (error) {
    if (error instanceof ConcurrentTransitionError) return null;
    throw error;
  }
}
