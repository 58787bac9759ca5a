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
