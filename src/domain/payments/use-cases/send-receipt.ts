import type { Payment } from '../entities';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { CheckoutSession } from '../../sessions/entities';
import type { Scope } from '../../shared/scope';
import { resourceMissing, TillpointError } from '../../shared/errors';
import { DEFAULT_LOCALE, negotiateLocale } from '../../shared/locale';
import { auditWrite } from '../../team/audit';
import { composeReceipt, type ReceiptEmail } from '../receipts/compose-receipt';

/** What `POST /v1/payments/:id/send_receipt` answers: to whom, in which language, when. */
export interface ReceiptSent {
  paymentId: string;
  email: string;
  locale: string;
  sentAt: Date;
}

/** The locale of a receipt: the session's, or the shopper's browser language when it is `auto`. */
function receiptLocale(session: CheckoutSession | null, acceptLanguage: string | null): string {
  if (!session) return DEFAULT_LOCALE;
  return negotiateLocale({ sessionLocale: session.locale, acceptLanguage });
}

/** Everything a receipt is made of, read in one transaction; null parts are absent. */
async function readReceipt(deps: Deps, scope: Scope, paymentId: string) {
  return deps.store.transaction(async (tx) => {
    const payment = await tx.payments.get(scope, paymentId);
    if (!payment) return null;
    const [account, session, customer] = await Promise.all([
      tx.accounts.get(scope.accountId),
      payment.checkoutSessionId ? tx.checkoutSessions.get(scope, payment.checkoutSessionId) : Promise.resolve(null),
      payment.customerId ? tx.customers.get(scope, payment.customerId) : Promise.resolve(null),
    ]);
    const email = payment.customerEmail ?? session?.customerEmail ?? customer?.email ?? null;
    return account ? { payment, account, session, email } : null;
  });
}

/**
 * Emails the receipt of a succeeded payment again (the merchant API and the dashboard's "Resend
 * receipt"), now and in the request: the caller learns whether the mail server took it. Refusals
 * send nothing and write nothing; a sent receipt is written to the audit log.
 */
export async function sendReceipt(deps: Deps, options: { scope: Scope; id: string; actor: Actor | null }): Promise<ReceiptSent> {
  const read = await readReceipt(deps, options.scope, options.id);
  if (!read) throw resourceMissing('payment', options.id);
  const { payment, account, session, email } = read;
  if (payment.status !== 'succeeded') {
    throw new TillpointError('payment_not_succeeded', `This payment is ${payment.status}; a receipt is sent only for a succeeded payment`);
  }
  if (!email) {
    throw new TillpointError('receipt_email_missing', 'This payment has no email to send a receipt to: its session and customer have none', { param: 'id' });
  }
  const mailer = deps.access.mailer;
  if (!mailer) {
    throw new TillpointError('email_not_configured', 'This install sends no email: the operator sets SMTP_URL (and SMTP_FROM) to send receipts');
  }
  const receipt = await composeReceipt({ account, session, payment, to: email, locale: receiptLocale(session, null) });
  try {
    await mailer.send(receipt);
  } catch {
    throw new TillpointError('email_not_sent', 'The mail server did not take the receipt; nothing was sent. Try again later');
  }
  const sentAt = deps.clock.now();
  await deps.store.transaction((tx) =>
    auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'payment.send_receipt', target: payment.id, at: sentAt }),
  );
  return { paymentId: payment.id, email, locale: receipt.locale, sentAt };
}

/**
 * After a payment succeeded and its transaction committed: emails the shopper a receipt when the
 * account asks for receipts, the install has a mail server and the payment an email. It runs in the
 * background, once: the payment's answer never waits for the mail server, and a failure (told to
 * the server's log by the mailer) changes nothing; the merchant can resend the receipt.
 */
export function sendReceiptInBackground(deps: Deps, options: { payment: Payment; acceptLanguage?: string | null }): void {
  const { payment } = options;
  const mailer = deps.access.mailer;
  if (!mailer || payment.status !== 'succeeded') return;
  // The mailer tells the log why a send failed; the payment stands either way.
  deps.background.start(async () => {
    const read = await readReceipt(deps, { accountId: payment.accountId, mode: payment.mode }, payment.id);
    if (!read?.email || !read.account.sendReceipts) return;
    const receipt: ReceiptEmail = await composeReceipt({
      account: read.account,
      session: read.session,
      payment: read.payment,
      to: read.email,
      locale: receiptLocale(read.session, options.acceptLanguage ?? null),
    });
    await mailer.send(receipt);
  });
}
