import type { Deps } from '../../deps';
import type { Payment } from '../entities';
import { TillpointError } from '../../shared/errors';
import { localPaymentFailureCodes } from '../local-payment-methods';
import { endUnpaid } from './record-local-payment-report';

/**
 * What the shopper did in the bank's window: approved the payment (the test processor's test window
 * only: Braintree's bank tells Braintree itself), made it fail, or canceled (closed the window).
 */
export type LocalPaymentAnswer = 'approve' | 'fail' | 'cancel';

/**
 * The shopper's answer in the bank's window, as the checkout page reports it. Approved (test
 * mode), the payment stays `processing` until the bank's confirmation; failed or canceled, the
 * attempt ends at once (`payment.failed`, `local_payment_failed` / `local_payment_canceled`) and
 * the session takes another; should the bank still complete it, nothing is charged (the processor
 * gives the money back). A payment no longer waiting is answered as it is: a cancel never undoes a
 * payment the bank confirmed.
 */
export async function answerLocalPayment(
  deps: Deps,
  options: { sessionId: string; paymentId: string; answer: LocalPaymentAnswer },
): Promise<{ payment: Payment }> {
  const payment = await deps.store.read((reader) => reader.payments.get(null, options.paymentId));
  // Only the session's own local payments: any other id is as unknown as a missing one.
  if (!payment || payment.checkoutSessionId !== options.sessionId || !payment.processorPaymentId) {
    throw new TillpointError('resource_missing', `No such local payment: '${options.paymentId}'`, { param: 'payment' });
  }
  const processor = await deps.processors.forScope(payment);
  if (options.answer === 'approve') {
    if (!processor.answerTestLocalPayment) {
      throw new TillpointError('parameter_invalid', "Only the test processor's test window approves a local payment here; the bank tells the processor", {
        param: 'answer',
      });
    }
    if (payment.status === 'processing') await processor.answerTestLocalPayment({ processorPaymentId: payment.processorPaymentId, approve: true });
    return { payment };
  }
  if (payment.status !== 'processing') return { payment };
  // The test processor's payment ends there too: its bank never completes it.
  await processor.answerTestLocalPayment?.({ processorPaymentId: payment.processorPaymentId, approve: false });
  const failureCode = options.answer === 'fail' ? localPaymentFailureCodes.failed : localPaymentFailureCodes.canceled;
  return { payment: (await endUnpaid(deps, payment, failureCode)).payment };
}
