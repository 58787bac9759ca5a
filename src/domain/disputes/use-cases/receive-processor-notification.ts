import type { Deps } from '../../deps';
import { TillpointError } from '../../shared/errors';
import type { Scope } from '../../shared/scope';
import { recordProcessorDispute, type RecordedDispute } from './record-processor-dispute';
import { recordLocalPaymentReport, type LocalPaymentReportOutcome } from '../../payments/use-cases/record-local-payment-report';
import { recordBankDebitReport, type BankDebitReportOutcome } from '../../payments/use-cases/record-bank-debit-report';

/**
 * What a notification did: recorded a dispute, recorded news of a local payment (iDEAL…), or was of
 * a kind that has nothing to record (`check`…).
 */
export type ReceivedNotification = {
  kind: string;
  recorded: RecordedDispute | null;
  localPayment?: LocalPaymentReportOutcome;
  bankDebit?: BankDebitReportOutcome;
};

/**
 * Receives a notification the scope's processor posted (Braintree's webhooks): the processor's SDK
 * verifies its signature and reads it; a dispute notification is recorded as any report of the
 * processor is, and so is a local payment's (`recordLocalPaymentReport`) and a bank debit's (`recordBankDebitReport`). Refused: a scope whose processor sends none, a notification that does not verify, a
 * dispute of a transaction that is no payment here.
 */
export async function receiveProcessorNotification(
  deps: Deps,
  options: { scope: Scope; processor: string; signature: string; payload: string },
): Promise<ReceivedNotification> {
  const processor = await deps.processors.forScope(options.scope).catch(() => null);
  if (!processor || processor.name !== options.processor || !processor.parseNotification) {
    throw new TillpointError('resource_missing', `This account has no ${options.processor} processor in ${options.scope.mode} mode`, { param: 'account' });
  }
  const notification = await processor.parseNotification({ signature: options.signature, payload: options.payload });
  if (!notification.verified) {
    throw new TillpointError('parameter_invalid', `The notification does not verify: ${notification.reason}`, { param: 'bt_signature' });
  }
  if (notification.localPayment) {
    // A local payment's news (completed, expired, reversed); one that is not ours is acknowledged
    // and left alone (another integration on the same Braintree account).
    const recorded = await recordLocalPaymentReport(deps, { scope: options.scope, processor, report: notification.localPayment });
    return { kind: notification.kind, recorded: null, localPayment: recorded.outcome };
  }
  if (notification.bankDebit) {
    // A bank debit's settlement, decline or return; one that is not ours is acknowledged and left alone.
    const recorded = await recordBankDebitReport(deps, { scope: options.scope, processor, report: notification.bankDebit });
    return { kind: notification.kind, recorded: null, bankDebit: recorded.outcome };
  }
  if (!notification.dispute) return { kind: notification.kind, recorded: null };
  const recorded = await recordProcessorDispute(deps, { scope: options.scope, processor: processor.name, report: notification.dispute });
  if (recorded.outcome === 'unknown_payment') {
    throw new TillpointError('resource_missing', `No payment of this account is transaction '${notification.dispute.transactionId}'`, { param: 'bt_payload' });
  }
  return { kind: notification.kind, recorded };
}
