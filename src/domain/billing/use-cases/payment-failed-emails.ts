import type { Deps } from '../../deps';
import { composePaymentFailedEmail, emailLocale } from '../payment-failed-email';
import { hostedInvoiceUrl } from '../snapshots';

const BATCH = 100;

/**
 * Emails the customer of each invoice whose latest charge failed and is not emailed about yet, on
 * the wall clock or on one test clock (the billing job, a test clock's advance, right after the
 * charges). Answers how many were sent.
 */
export async function emailFailedPayments(deps: Deps, testClockId: string | null): Promise<number> {
  const due = await deps.store.read((reader) => reader.invoices.listFailureEmailsDue(BATCH, testClockId));
  let sent = 0;
  for (const invoice of due) if (await emailFailedPayment(deps, invoice.id)) sent += 1;
  return sent;
}

/**
 * Emails the customer that the invoice's latest charge failed (docs/billing.md): once per failed
 * charge, whoever calls it. The email is claimed on the invoice (`failure_emailed_attempts`) before
 * it is sent, so instances running at once send it once between them; a send the mail server
 * refuses is told to the server's log by the mailer and not tried again. Without a mail server, or
 * a customer's email, the claim is made and nothing is sent: no email is owed later. False when
 * nothing was sent.
 */
export async function emailFailedPayment(deps: Deps, invoiceId: string): Promise<boolean> {
  const claimed = await deps.store.transaction(async (tx) => {
    const invoice = await tx.invoices.claimFailureEmail(invoiceId);
    if (!invoice) return null;
    const account = await tx.accounts.get(invoice.accountId);
    const customer = await tx.customers.get(invoice, invoice.customerId);
    return account && customer?.email ? { invoice, account, email: customer.email, locale: emailLocale(customer.preferredLocales) } : null;
  });
  const mailer = deps.access.mailer;
  if (!claimed || !mailer) return false;
  const email = await composePaymentFailedEmail({
    account: claimed.account,
    invoice: claimed.invoice,
    to: claimed.email,
    locale: claimed.locale,
    payUrl: hostedInvoiceUrl(claimed.invoice, deps.publicUrl),
  });
  try {
    await mailer.send(email);
    return true;
  } catch {
    // The mailer wrote why to the server's log; the claim stands, so it is not sent again.
    return false;
  }
}
