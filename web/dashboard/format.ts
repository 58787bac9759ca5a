import type { DashboardMessageKey } from './i18n';
import type { Payment } from './api';
import { currencyRule } from '../../src/domain/shared/currency';
import { formatMoney } from '../checkout/format';
import { localMethodName } from '../../src/domain/payments/local-payment-methods';

export { formatMoney };

/** How each `payment_method.type` is named. */
export const methodTypeLabels: Record<string, DashboardMessageKey> = {
  card: 'payment.method.cardType',
  google_pay: 'payment.method.googlePay',
  apple_pay: 'payment.method.applePay',
  paypal: 'payment.method.paypal',
  venmo: 'payment.method.venmo',
  us_bank_account: 'payment.method.usBankAccount',
};

/** A payment's method as the API shows it (its schema's type). */
type MethodShown = NonNullable<Payment['payment_method']>;

/** A US bank account that paid (ACH), as `payment_method.us_bank_account` shows it. */
export type UsBankAccount = NonNullable<MethodShown['us_bank_account']>;

/** The account a bank debit (ACH) was paid from, or null for any other method. */
export function usBankAccountOf(method: { type: string } | null): UsBankAccount | null {
  if (method?.type !== 'us_bank_account') return null;
  return (method as { us_bank_account?: UsBankAccount }).us_bank_account ?? null;
}

/** A local payment method's bank, as `payment_method.<type>` shows it (`ideal: {bank, bic, iban_last4}`). */
export type LocalBank = NonNullable<MethodShown['ideal']>;

/** The bank a local payment (iDEAL…) was paid from, or null for any other method. */
export function localBankOf(method: { type: string } | null): LocalBank | null {
  if (!method || !localMethodName(method.type)) return null;
  return ((method as unknown as Record<string, LocalBank | undefined>)[method.type] ?? null) as LocalBank | null;
}

/** A payment method type's name: a local payment method by its own (`iDEAL`), the others in the dashboard's words. */
export function methodTypeName(type: string, t: (key: DashboardMessageKey) => string): string {
  return localMethodName(type) ?? t(methodTypeLabels[type] ?? 'payment.method.cardType');
}

/** A Unix time as the merchant's browser shows dates. */
export function formatTime(seconds: number | null): string {
  if (seconds === null) return '—';
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(seconds * 1000));
}

/**
 * Calendar days from `now` to `until` (both in seconds) in the viewer's time zone, as the dates
 * `formatTime` shows them: 0 on the same day, 1 for tomorrow, whatever the hours.
 */
export function calendarDaysUntil(until: number, now: number): number {
  const day = (seconds: number) => {
    const date = new Date(seconds * 1000);
    return Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / 86_400_000;
  };
  return day(until) - day(now);
}

/** A status or reason code as words: `requires_capture` → `requires capture`. */
export const statusLabel = (status: string) => status.replaceAll('_', ' ');

/** Amount inputs are in the currency's unit (10.50), the API takes minor units (1050); '' when not a number. */
export function toMinor(value: string, currency: string): string {
  const exponent = currencyRule(currency.toUpperCase())?.exponent ?? 2;
  const number = Number(value);
  return value.trim() === '' || Number.isNaN(number) ? '' : String(Math.round(number * 10 ** exponent));
}

export function fromMinor(value: string | number | null, currency: string): string {
  if (value === null || value === '') return '';
  const exponent = currencyRule(currency.toUpperCase())?.exponent ?? 2;
  return (Number(value) / 10 ** exponent).toFixed(exponent);
}

/**
 * An amount typed in the currency's unit, as minor units: `12.50` USD → 1250, `1000` JPY → 1000.
 * Null when it is not a plain non-negative number or has more decimals than the currency has
 * (`10.505` USD), instead of rounding it into an amount nobody typed. A comma works as the decimal
 * mark too.
 */
export function parseAmount(value: string, currency: string): number | null {
  const exponent = currencyRule(currency.toUpperCase())?.exponent ?? 2;
  const match = /^(\d{1,9})(?:[.,](\d*))?$/.exec(value.trim());
  if (!match) return null;
  const decimals = match[2] ?? '';
  if (decimals.length > exponent) return null;
  return Number(match[1]) * 10 ** exponent + Number(decimals.padEnd(exponent, '0') || '0');
}

/**
 * What paid, as the payments list names it: a card by brand and last 4 digits; else its method
 * (PayPal, Venmo, a wallet, a card the processor told nothing of) with the payer it names; `—` for none.
 */
export function paymentMethodSummary(
  method: { type: string; brand: string | null; last4: string | null; payer_email?: string | null; username?: string | null } | null,
  t: (key: DashboardMessageKey, values?: Record<string, string>) => string,
): string {
  if (!method) return '—';
  const account = usBankAccountOf(method);
  if (account) {
    const held = account.last4 ? [t('payments.bankAccount', { bank: account.bank_name ?? '', last4: account.last4 }).trim()] : [];
    return [methodTypeName(method.type, t), ...held].join(' · ');
  }
  if (method.last4) return t('payments.card', { brand: method.brand ?? t('payments.cardUnknownBrand'), last4: method.last4 });
  const bank = localBankOf(method);
  const who = method.payer_email ?? method.username ?? bank?.bank ?? bank?.bic;
  return [methodTypeName(method.type, t), ...(who ? [who] : [])].join(' · ');
}
