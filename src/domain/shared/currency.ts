/**
 * The currencies Tillpoint accepts, with their ISO 4217 minor-unit exponent and the smallest
 * amount a processor will charge (in minor units). The exponent is the one place that decides how
 * many decimals a currency has; nothing else may assume two.
 */
export interface CurrencyRule {
  /** ISO 4217 alphabetic code, upper case. */
  readonly code: string;
  /** Digits after the decimal point: JPY 0, USD 2, KWD 3. */
  readonly exponent: 0 | 2 | 3;
  /** Smallest chargeable amount, in minor units (USD 50 = $0.50). */
  readonly minimum: number;
}

const rules: CurrencyRule[] = [
  // zero-decimal
  { code: 'BIF', exponent: 0, minimum: 100 },
  { code: 'CLP', exponent: 0, minimum: 500 },
  { code: 'DJF', exponent: 0, minimum: 100 },
  { code: 'GNF', exponent: 0, minimum: 5000 },
  { code: 'ISK', exponent: 0, minimum: 100 },
  { code: 'JPY', exponent: 0, minimum: 50 },
  { code: 'KMF', exponent: 0, minimum: 200 },
  { code: 'KRW', exponent: 0, minimum: 500 },
  { code: 'PYG', exponent: 0, minimum: 3000 },
  { code: 'RWF', exponent: 0, minimum: 500 },
  { code: 'UGX', exponent: 0, minimum: 2000 },
  { code: 'VND', exponent: 0, minimum: 10000 },
  { code: 'VUV', exponent: 0, minimum: 50 },
  { code: 'XAF', exponent: 0, minimum: 300 },
  { code: 'XOF', exponent: 0, minimum: 300 },
  { code: 'XPF', exponent: 0, minimum: 50 },
  // three-decimal
  { code: 'BHD', exponent: 3, minimum: 200 },
  { code: 'JOD', exponent: 3, minimum: 400 },
  { code: 'KWD', exponent: 3, minimum: 200 },
  { code: 'OMR', exponent: 3, minimum: 200 },
  { code: 'TND', exponent: 3, minimum: 1500 },
  // two-decimal
  { code: 'AED', exponent: 2, minimum: 200 },
  { code: 'AUD', exponent: 2, minimum: 50 },
  { code: 'BGN', exponent: 2, minimum: 100 },
  { code: 'BRL', exponent: 2, minimum: 50 },
  { code: 'CAD', exponent: 2, minimum: 50 },
  { code: 'CHF', exponent: 2, minimum: 50 },
  { code: 'CNY', exponent: 2, minimum: 400 },
  { code: 'CZK', exponent: 2, minimum: 1500 },
  { code: 'DKK', exponent: 2, minimum: 250 },
  { code: 'EUR', exponent: 2, minimum: 50 },
  { code: 'GBP', exponent: 2, minimum: 30 },
  { code: 'HKD', exponent: 2, minimum: 400 },
  { code: 'HUF', exponent: 2, minimum: 17500 },
  { code: 'ILS', exponent: 2, minimum: 200 },
  { code: 'INR', exponent: 2, minimum: 50 },
  { code: 'MXN', exponent: 2, minimum: 1000 },
  { code: 'MYR', exponent: 2, minimum: 200 },
  { code: 'NOK', exponent: 2, minimum: 300 },
  { code: 'NZD', exponent: 2, minimum: 50 },
  { code: 'PHP', exponent: 2, minimum: 2000 },
  { code: 'PLN', exponent: 2, minimum: 200 },
  { code: 'RON', exponent: 2, minimum: 200 },
  { code: 'SAR', exponent: 2, minimum: 200 },
  { code: 'SEK', exponent: 2, minimum: 300 },
  { code: 'SGD', exponent: 2, minimum: 50 },
  { code: 'THB', exponent: 2, minimum: 1000 },
  { code: 'TRY', exponent: 2, minimum: 1000 },
  { code: 'USD', exponent: 2, minimum: 50 },
  { code: 'ZAR', exponent: 2, minimum: 500 },
];

const byCode = new Map(rules.map((rule) => [rule.code, rule]));

/** Every supported currency, sorted by code. */
export const supportedCurrencies: readonly CurrencyRule[] = [...rules].sort((a, b) => a.code.localeCompare(b.code));

/** The rule for a currency code (any case), or undefined when it is not supported. */
export function currencyRule(code: string): CurrencyRule | undefined {
  return byCode.get(code.toUpperCase());
}

/** Largest amount_total of any session or payment, in minor units (design.md §5). */
export const MAX_AMOUNT = 99_999_999;
