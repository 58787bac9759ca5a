import type { LocalPaymentMethodType } from './payment-method-types';

/**
 * Local payment methods (iDEAL, Bancontact, Sofort, giropay, EPS, Przelewy24, MyBank, BLIK): the
 * shopper approves the payment in their bank's window, and the payment is confirmed later, when the
 * processor says the bank completed it (Braintree's `LOCAL_PAYMENT_COMPLETED` notification). Each
 * takes only its currencies, for shoppers of its countries. Read by the server and by the checkout
 * page, so it imports nothing.
 */
export interface LocalPaymentMethod {
  /** Its own name, the same in every language. */
  name: string;
  /** ISO 4217 codes it takes, upper case. */
  currencies: readonly string[];
  /** ISO 3166-1 alpha-2 codes of the shoppers it serves; the first is asked for when the shopper's is unknown. */
  countries: readonly string[];
}

export const localPaymentMethods: Readonly<Record<LocalPaymentMethodType, LocalPaymentMethod>> = {
  ideal: { name: 'iDEAL', currencies: ['EUR'], countries: ['NL'] },
  bancontact: { name: 'Bancontact', currencies: ['EUR'], countries: ['BE'] },
  sofort: { name: 'Sofort', currencies: ['EUR'], countries: ['DE', 'AT', 'BE', 'ES', 'IT', 'NL'] },
  giropay: { name: 'giropay', currencies: ['EUR'], countries: ['DE'] },
  eps: { name: 'EPS', currencies: ['EUR'], countries: ['AT'] },
  p24: { name: 'Przelewy24', currencies: ['PLN', 'EUR'], countries: ['PL'] },
  mybank: { name: 'MyBank', currencies: ['EUR'], countries: ['IT'] },
  blik: { name: 'BLIK', currencies: ['PLN'], countries: ['PL'] },
};

/**
 * How long a local payment waits for the bank's confirmation. Braintree refunds a completed local
 * payment that no transaction took within 3 hours (`LOCAL_PAYMENT_REVERSED`), so one still waiting
 * after this is failed (`local_payment_expired`) unless the processor has its transaction.
 */
export const LOCAL_PAYMENT_LIFETIME_MS = 3 * 60 * 60 * 1000;

/** Why a local payment failed, as its `failure_code` says. */
export const localPaymentFailureCodes = {
  /** The shopper closed the bank's window, or canceled there. */
  canceled: 'local_payment_canceled',
  /** The bank's window failed, or the bank refused. */
  failed: 'local_payment_failed',
  /** No confirmation within `LOCAL_PAYMENT_LIFETIME_MS`, or the processor said it expired or was reversed. */
  expired: 'local_payment_expired',
} as const;

/** Whether `type` takes `currency`. */
export function localMethodTakes(type: LocalPaymentMethodType, currency: string): boolean {
  return localPaymentMethods[type].currencies.includes(currency.toUpperCase());
}

/**
 * The country a local payment is made for: the shopper's billing country when the method serves it,
 * else (no billing country known) the method's first. Null when the shopper's country is known and
 * the method does not serve it.
 */
export function localPaymentCountry(type: LocalPaymentMethodType, billingCountry: string | null | undefined): string | null {
  const { countries } = localPaymentMethods[type];
  if (!billingCountry) return countries[0]!;
  const country = billingCountry.toUpperCase();
  return countries.includes(country) ? country : null;
}

/** A payment method type's name for people where it has its own (local methods); null for the others. */
export function localMethodName(type: string): string | null {
  // Read from the table itself: the dashboard imports this module, and nothing of the checkout page's first chunk with it.
  return Object.hasOwn(localPaymentMethods, type) ? localPaymentMethods[type as LocalPaymentMethodType].name : null;
}

/**
 * Banks by BIC (their first eight characters), as iDEAL names them (Stripe's `ideal.bank` values);
 * another bank's BIC is shown as it is, with no name.
 */
const banksByBic: Readonly<Record<string, string>> = {
  ABNANL2A: 'abn_amro',
  ASNBNL21: 'asn_bank',
  BUNQNL2A: 'bunq',
  HANDNL2A: 'handelsbanken',
  INGBNL2A: 'ing',
  KNABNL2H: 'knab',
  RABONL2U: 'rabobank',
  RBRBNL21: 'regiobank',
  REVOLT21: 'revolut',
  SNSBNL2A: 'sns_bank',
  TRIONL2U: 'triodos_bank',
  FVLBNL22: 'van_lanschot',
  NTSBDEB1: 'n26',
  BITSNL2A: 'yoursafe',
};

/** The bank a BIC names, when it is one iDEAL lists; null otherwise. */
export function bankOfBic(bic: string | null | undefined): string | null {
  if (!bic) return null;
  return banksByBic[bic.toUpperCase().slice(0, 8)] ?? null;
}
