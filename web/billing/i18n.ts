import { readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LOCALE, isRtl, PSEUDO_LOCALE, type PageLocale } from '../../src/domain/shared/locale';
import { catalogueLocale, loadMessages, translator as checkoutTranslator, type Translate as CheckoutTranslate } from '../checkout/i18n';
import type en from './locales/en.json';

/**
 * The billing pages' own messages (the customer portal and the hosted invoice page): ICU
 * MessageFormat, one JSON catalogue per locale in ./locales, English the source of every key. The
 * pages are rendered on the server only, so catalogues are read here, once each. What the checkout
 * page already says (card brands, declines, "every month", "Test mode") comes from its catalogue.
 */
export type BillingKey = keyof typeof en;
type Catalogue = Record<BillingKey, string>;

const catalogues = new Map<string, Catalogue>();

function catalogue(locale: string): Catalogue {
  let found = catalogues.get(locale);
  if (!found) {
    try {
      found = JSON.parse(readFileSync(new URL(`./locales/${locale}.json`, import.meta.url), 'utf8')) as Catalogue;
    } catch {
      found = locale === DEFAULT_LOCALE ? ({} as Catalogue) : catalogue(DEFAULT_LOCALE);
    }
    catalogues.set(locale, found);
  }
  return found;
}

export interface BillingTranslate {
  (key: BillingKey, values?: Record<string, string | number>): string;
  /** The checkout page's messages, in the same language. */
  readonly checkout: CheckoutTranslate;
  readonly lang: string;
  readonly language: string;
  readonly dir: 'ltr' | 'rtl';
}

/** A translate function for the billing pages in `requested` (a negotiated page locale). */
export async function billingTranslator(requested: PageLocale, formatLocale?: string | null): Promise<BillingTranslate> {
  const locale = catalogueLocale(requested);
  const checkout = checkoutTranslator(await loadMessages(locale), formatLocale);
  // The pseudo-locale is the checkout's test aid; the billing pages show it in English.
  const own = catalogue(locale === PSEUDO_LOCALE ? DEFAULT_LOCALE : locale);
  const english = catalogue(DEFAULT_LOCALE);
  const formats = new Map<BillingKey, IntlMessageFormat>();
  const t = (key: BillingKey, values?: Record<string, string | number>) => {
    let format = formats.get(key);
    if (!format) {
      format = own[key] ? new IntlMessageFormat(own[key], checkout.lang) : new IntlMessageFormat(english[key] ?? key, DEFAULT_LOCALE);
      formats.set(key, format);
    }
    return String(format.format(values));
  };
  return Object.assign(t, { checkout, lang: checkout.lang, language: checkout.language, dir: isRtl(locale) ? ('rtl' as const) : ('ltr' as const) });
}
