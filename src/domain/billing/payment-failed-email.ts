import { matchLocale, DEFAULT_LOCALE } from '../shared/locale';
import type { Account } from '../team/entities';
import { emailDate, merchantName, moneyFormatter, type ReceiptEmail } from '../payments/receipts/compose-receipt';
import { loadReceiptMessages } from '../payments/receipts/receipt-messages';
import type { Invoice } from './entities';

/**
 * The language of an email to a customer: the first of its preferred locales (`preferred_locales`)
 * that Tillpoint has words for, else English (accounts have no language of their own).
 *
 * @example emailLocale(['gsw', 'de-CH']) // 'de'
 */
export function emailLocale(preferredLocales: readonly string[]): string {
  for (const tag of preferredLocales) {
    const locale = matchLocale(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/**
 * The email to a customer whose invoice's charge failed (docs/billing.md, "Payment failed emails"):
 * the merchant's name and what failed to be paid, the invoice's number, when it will be tried again
 * or that it was the last try, and its hosted page, where the customer pays it now, with the saved
 * card or another. The receipt's words and formats (receipt-messages.ts) in `locale`; plain text.
 *
 * @example (await composePaymentFailedEmail({ account, invoice, to, locale: 'de', payUrl })).subject === 'Ihre Zahlung an Coffee Co ist fehlgeschlagen'
 */
export async function composePaymentFailedEmail(options: {
  account: Account;
  invoice: Invoice;
  to: string;
  locale: string;
  /** The invoice's hosted page (`hosted_invoice_url`). */
  payUrl: string;
}): Promise<ReceiptEmail> {
  const { account, invoice } = options;
  const t = await loadReceiptMessages(options.locale);
  const money = moneyFormatter(t.locale, invoice.currency);
  const merchant = merchantName(account);
  const retry = invoice.status === 'open' ? invoice.nextPaymentAttempt : null;

  const lines = [t('receipt.paymentFailed', { amount: money(invoice.amountDue - invoice.amountPaid), merchant }), ''];
  lines.push(`${t('receipt.invoiceNumber')}: ${invoice.id}`, '');
  lines.push(retry ? t('receipt.nextTry', { date: emailDate(t.locale, retry) }) : t('receipt.lastTry'), '');
  lines.push(t('receipt.payInvoice', { url: options.payUrl }));
  if (account.supportEmail) lines.push('', t('receipt.contact', { merchant, email: account.supportEmail }));
  if (invoice.mode === 'test') lines.push('', t('receipt.testMode'));

  return { to: options.to, subject: t('receipt.paymentFailedSubject', { merchant }), text: `${lines.join('\n')}\n`, locale: t.locale };
}
