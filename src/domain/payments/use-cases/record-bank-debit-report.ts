import type { Deps } from '../../deps';
import type { Payment } from '../entities';
import type { BankDebitReport, PaymentProcessor } from '../../processors/ports';
import type { Scope } from '../../shared/scope';
import { newEvent } from '../../shared/events';
import { paymentSnapshot } from '../../shared/event-payloads';
import { isBankDebitMethod } from '../payment-method-types';
import { achReturnOf, achReturnReasons, bankDebitFailureCodes } from '../bank-debits';
import { ConcurrentTransitionError } from '../transition';
import { endUnpaid, recordSale } from './record-local-payment-report';
import { settleInvoiceOfPayment } from '../../billing/use-cases/invoices-and-clocks';

/**
 * What a bank debit report did: `recorded` the settlement (succeeded), the decline (failed) or the
 * return (`ach_return`, `payment.returned`); found it `already_final` (news already recorded, or
 * about a payment no longer waiting); or found no bank debit of ours (`unknown_payment`).
 */
export type BankDebitReportOutcome = 'recorded' | 'already_final' | 'unknown_payment';

/**
 * Records what the processor reports of a bank debit (Braintree's `TRANSACTION_SETTLED` and
 * `TRANSACTION_SETTLEMENT_DECLINED`, or the test processor's): settled → `succeeded` (the
 * session complete, the receipt sent) as any sale's approval is written; declined while
 * `processing` → `failed` (`bank_debit_declined`, the return code as the processor response), and
 * the session takes another attempt; declined after it `succeeded` → a return (ADR 0107): the
 * payment stays `succeeded`, gains `ach_return` and `payment.returned`, and nothing remains to
 * refund. Idempotent: news already recorded changes nothing.
 */
export async function recordBankDebitReport(
  deps: Deps,
  options: { scope: Scope | null; processor: PaymentProcessor; report: BankDebitReport },
): Promise<{ outcome: BankDebitReportOutcome; payment: Payment | null }> {
  const decided = await recordReport(deps, options);
  // A subscription invoice's debit (ADR 0108): its invoice is paid, or its failure recorded with the
  // next try planned, now rather than at the billing job's next run. The run stays the safety net:
  // an invoice this could not settle is settled by it, once.
  if (decided.outcome === 'recorded' && decided.payment?.invoiceId && decided.payment.status !== 'processing') {
    await settleInvoiceOfPayment(deps, decided.payment).catch(() => undefined);
  }
  return decided;
}

async function recordReport(
  deps: Deps,
  options: { scope: Scope | null; processor: PaymentProcessor; report: BankDebitReport },
): Promise<{ outcome: BankDebitReportOutcome; payment: Payment | null }> {
  const { processor, report } = options;
  const payment = await findDebit(deps, options.scope, processor.name, report);
  if (!payment) return { outcome: 'unknown_payment', payment: null };

  if (report.kind === 'settled') {
    if (payment.status !== 'processing') return { outcome: 'already_final', payment };
    const recorded = await recordSale(deps, payment, {
      outcome: 'approved',
      captured: true,
      transactionId: report.transactionId,
      paymentMethod: payment.paymentMethod ?? { type: 'us_bank_account', brand: null, last4: null, expMonth: null, expYear: null, fingerprint: null },
      response: payment.processorResponse ?? { code: '1000', text: 'Settled' },
      riskDecision: payment.riskDecision,
    });
    return recorded ? { outcome: 'recorded', payment: recorded } : { outcome: 'already_final', payment };
  }

  const code = report.returnCode?.toUpperCase() ?? null;
  if (payment.status === 'processing') {
    const response = { code: code ?? 'settlement_declined', text: (code && achReturnReasons[code]) ?? 'Settlement declined' };
    return endUnpaid(deps, payment, bankDebitFailureCodes.settlementDeclined, { processorResponse: response }).then(({ outcome, payment: ended }) => ({
      outcome: outcome === 'recorded' ? 'recorded' : 'already_final',
      payment: ended,
    }));
  }
  if (payment.status !== 'succeeded' || payment.achReturn) return { outcome: 'already_final', payment };
  return recordReturn(deps, payment, code ?? 'R00');
}

/** The bank debit a report names: by our payment id (the transaction's order id), else by the processor's transaction id. */
async function findDebit(deps: Deps, scope: Scope | null, processor: string, report: BankDebitReport): Promise<Payment | null> {
  const found = await deps.store.read(async (reader) => {
    if (report.paymentId) return reader.payments.get(scope, report.paymentId);
    return scope ? reader.payments.findByProcessorTransactionId(scope, processor, report.transactionId) : null;
  });
  const type = found?.paymentMethod?.type;
  // Only a bank debit of this processor, by its own transaction: any other payment is not news of ours.
  if (!found || found.processor !== processor || !type || !isBankDebitMethod(type)) return null;
  if (found.processorTransactionId && found.processorTransactionId !== report.transactionId) return null;
  return found;
}

/**
 * A settled debit the bank took back: the payment keeps `succeeded` (its history happened) and
 * records the return with its `payment.returned` event, in one transaction. No refund is made:
 * the bank gave the money back itself, so a refund after it is refused (create-refund.ts).
 */
async function recordReturn(deps: Deps, payment: Payment, code: string): Promise<{ outcome: BankDebitReportOutcome; payment: Payment }> {
  const now = deps.clock.now();
  try {
    const returned = await deps.store.transaction(async (tx) => {
      const current = await tx.payments.get(null, payment.id, { forUpdate: true });
      if (current?.status !== 'succeeded' || current.achReturn) throw new ConcurrentTransitionError(payment.id);
      const next: Payment = { ...current, achReturn: achReturnOf(code, now), updatedAt: now };
      if (!(await tx.payments.update(next, 'succeeded'))) throw new ConcurrentTransitionError(payment.id);
      await tx.events.insert(newEvent(next, 'payment.returned', paymentSnapshot(next), now));
      return next;
    });
    return { outcome: 'recorded', payment: returned };
  } catch (error) {
    if (!(error instanceof ConcurrentTransitionError)) throw error;
    const current = await deps.store.read((reader) => reader.payments.get(null, payment.id));
    return { outcome: 'already_final', payment: current ?? payment };
  }
}

/** The test processor's bank debit news due by now (settlements, declines, returns), each recorded as Braintree's notifications are. */
export async function receiveTestBankDebits(
  deps: Deps,
  options: { onError?: (transactionId: string, error: unknown) => void } = {},
): Promise<{ recorded: number }> {
  let recorded = 0;
  for (const report of (await deps.processors.testBankDebitReports?.()) ?? []) {
    try {
      const payment = report.paymentId ? await deps.store.read((reader) => reader.payments.get(null, report.paymentId!)) : null;
      if (!payment) continue;
      const processor = await deps.processors.forScope(payment);
      if (processor.name !== 'test') continue;
      const scope = { accountId: payment.accountId, mode: payment.mode };
      if ((await recordBankDebitReport(deps, { scope, processor, report })).outcome === 'recorded') recorded += 1;
    } catch (error) {
      options.onError?.(report.transactionId, error);
    }
  }
  return { recorded };
}
