import { currencyBoundMethod } from '../bank-debits';
import type { Account } from '../../team/entities';
import type { CheckoutSession } from '../../sessions/entities';
import type { Payment } from '../entities';
import { currencyRule } from '../../shared/currency';
import { toDecimalString } from '../../shared/money';
import { sessionTaxBreakdown } from '../../sessions/rules';
import { loadReceiptMessages } from './receipt-messages';
import { addressLines } from '../../addresses/address-lines';

/** A receipt email (or another email to a shopper), ready for the mailer: plain text, no card data beyond brand and last4. */
export interface ReceiptEmail {
  to: string;
  subject: string;
  text: string;
  /** The locale whose words and number formats the email uses. */
  locale: string;
}

const brandNames: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  'american-express': 'American Express',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  'diners-club': 'Diners Club',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
  maestro: 'Maestro',
};
const methodNames: Record<string, string> = { google_pay: 'Google Pay', apple_pay: 'Apple Pay', paypal: 'PayPal', venmo: 'Venmo', card: 'Card' };

/** The merchant as an email to its customer names it: the branding's display name, else the account's name. */
export function merchantName(account: Account): string {
  return account.branding.displayName ?? account.name;
}

/** Minor units of `currency` written for `locale`, with the currency's own count of decimals. */
export function moneyFormatter(locale: string, currency: string): (minor: number) => string {
  const code = currency.toUpperCase();
  const exponent = currencyRule(code)?.exponent ?? 2;
  const number = new Intl.NumberFormat(locale, { style: 'currency', currency: code, minimumFractionDigits: exponent, maximumFractionDigits: exponent });
  return (minor) => number.format(Number(toDecimalString(minor, code)));
}

/** A day as an email writes it for `locale` (UTC). */
export function emailDate(locale: string, at: Date): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}

/**
 * The receipt of a payment that took money: the session's line items and totals (subtotal,
 * discount, shipping, tax, total) when it has a session, the amount alone otherwise; the shipping
 * name and address when the shopper gave one; the merchant's
 * name and support email; the card's brand and last 4 digits, never more. Its words are the
 * locale's receipt catalogue (receipt-messages.ts), amounts and dates formatted for that locale.
 *
 * @example (await composeReceipt({ account, session, payment, to: 'shopper@example.com', locale: 'de' })).subject === 'Ihre Quittung von Coffee Co'
 */
export async function composeReceipt(options: {
  account: Account;
  session: CheckoutSession | null;
  payment: Payment;
  to: string;
  locale: string;
}): Promise<ReceiptEmail> {
  const { account, session, payment } = options;
  const t = await loadReceiptMessages(options.locale);
  const locale = t.locale;
  const money = moneyFormatter(locale, payment.currency);
  const merchant = merchantName(account);

  const lines: string[] = [t('receipt.thanks', { merchant }), ''];
  lines.push(`${t('receipt.number')}: ${payment.id}`);
  lines.push(`${t('receipt.date')}: ${emailDate(locale, payment.createdAt)}`);
  lines.push('');

  const details = session?.totalDetails ?? payment.totalDetails;
  if (session && session.lineItems.length > 0) {
    lines.push(`${t('receipt.items')}:`);
    for (const item of session.lineItems) lines.push(`  ${item.name} × ${item.quantity}  ${money(item.amount)}`);
    lines.push('');
    lines.push(`${t('receipt.subtotal')}: ${money(session.amountSubtotal)}`);
  }
  if (details && details.amountDiscount > 0) lines.push(`${t('receipt.discount')}: −${money(details.amountDiscount)}`);
  const rate = session?.shippingOptions.find((option) => option.id === session.shippingRateId);
  if (details && details.amountShipping > 0) {
    const label = rate ? `${t('receipt.shipping')} (${rate.displayName})` : t('receipt.shipping');
    lines.push(`${label}: ${money(details.amountShipping)}`);
  }
  // Each rate by its name when the session tells them: a tax already in the prices is said, not added.
  const taxes = session ? sessionTaxBreakdown(session).filter((tax) => tax.amount > 0) : [];
  if (taxes.length > 0) {
    for (const tax of taxes) lines.push(`${tax.inclusive ? t('receipt.includesTax', { tax: tax.displayName }) : tax.displayName}: ${money(tax.amount)}`);
  } else if (details && details.amountTax > 0) lines.push(`${t('receipt.tax')}: ${money(details.amountTax)}`);
  lines.push(`${t('receipt.total')}: ${money(payment.amountCaptured)}`);
  if (payment.amountRefunded > 0) lines.push(`${t('receipt.refunded')}: ${money(payment.amountRefunded)}`);
  lines.push('');

  // Where the order goes, as the shopper gave it with this payment.
  const shipping = payment.shippingDetails ?? session?.shippingDetails ?? null;
  if (shipping) {
    lines.push(`${t('receipt.shipTo')}:`);
    for (const line of [shipping.name, ...addressLines(shipping.address)]) lines.push(`  ${line}`);
    lines.push('');
  }

  const method = payment.paymentMethod;
  if (method?.last4) {
    const brand =
      (method.brand && brandNames[method.brand.toLowerCase()]) ??
      method.brand ??
      methodNames[method.type] ??
      currencyBoundMethod(method.type)?.name ??
      method.type;
    lines.push(t('receipt.paidWith', { brand, last4: method.last4 }));
  } else if (method) {
    // A local payment method by its own name (iDEAL, Bancontact…); a bank debit with its account's last 4 digits above.
    lines.push(t('receipt.paidWithMethod', { method: methodNames[method.type] ?? currencyBoundMethod(method.type)?.name ?? method.type }));
  }
  if (account.supportEmail) lines.push('', t('receipt.contact', { merchant, email: account.supportEmail }));
  if (payment.mode === 'test') lines.push('', t('receipt.testMode'));

  return { to: options.to, subject: t('receipt.subject', { merchant }), text: `${lines.join('\n')}\n`, locale };
}
