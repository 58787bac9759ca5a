import { currencyRule } from '../../src/domain/shared/currency';

/** Formats minor units for the shopper with Intl, using the ISO 4217 exponent of the currency. */
export function formatMoney(amount: number, currency: string, locale: string | undefined): string {
  const exponent = currencyRule(currency)?.exponent ?? 2;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  }).format(amount / 10 ** exponent);
}

/** A tax rate's percentage (0–100, up to 4 decimals) as the shopper's locale writes one: 20%, 20 %, ٪٢٠. */
export function formatPercentage(percentage: number, locale: string | undefined): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 4 }).format(percentage / 100);
}
