import type { ReceiptSent } from '../../domain/payments/use-cases/send-receipt';

/** A sent receipt as the API shows it. */
export function receiptView(sent: ReceiptSent) {
  return {
    object: 'receipt' as const,
    payment: sent.paymentId,
    email: sent.email,
    locale: sent.locale,
    sent_at: Math.floor(sent.sentAt.getTime() / 1000),
  };
}
