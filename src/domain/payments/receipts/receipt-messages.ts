import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LOCALE, matchLocale, type SupportedLocale } from '../../shared/locale';
import type en from './locales/en.json';

/**
 * The receipt's words: ICU MessageFormat (FormatJS `intl-messageformat`, as on the checkout page),
 * one JSON catalogue per locale in ./locales, English (en.json) the source of every key. The
 * catalogues are checked with the page's (web/checkout/i18n/catalogues.test.ts): every supported
 * locale has one, with every key and argument of English.
 */
export type ReceiptMessageKey = keyof typeof en;
type ReceiptCatalogue = Record<ReceiptMessageKey, string>;

/** One locale's receipt words, formatted with their ICU arguments. */
export interface ReceiptMessages {
  /** The locale of the catalogue in use: format amounts and dates with it. */
  readonly locale: SupportedLocale;
  (key: ReceiptMessageKey, values?: Record<string, string>): string;
}

const loading = new Map<SupportedLocale, Promise<ReceiptMessages>>();

/**
 * The receipt's words for a locale tag, matched as the checkout page matches it (`de-AT` → `de`,
 * `pt` → `pt-BR`); English for a tag no catalogue serves, or a catalogue that cannot be loaded, and
 * a key a catalogue lacks in English (as on the page). Each catalogue is loaded once, when a receipt
 * first needs it.
 */
export function loadReceiptMessages(requested: string): Promise<ReceiptMessages> {
  const locale = matchLocale(requested) ?? DEFAULT_LOCALE;
  let pending = loading.get(locale);
  if (!pending) {
    const english = locale === DEFAULT_LOCALE ? null : loadReceiptMessages(DEFAULT_LOCALE);
    pending = Promise.all([importCatalogue(locale), english]).then(
      ([catalogue, fallback]) => receiptTranslator(locale, catalogue, fallback),
      () => {
        if (locale === DEFAULT_LOCALE) throw new Error('the English receipt catalogue cannot be loaded');
        return loadReceiptMessages(DEFAULT_LOCALE);
      },
    );
    loading.set(locale, pending);
  }
  return pending;
}

async function importCatalogue(locale: SupportedLocale): Promise<ReceiptCatalogue> {
  return ((await import(`./locales/${locale}.json`)) as { default: ReceiptCatalogue }).default;
}

function receiptTranslator(locale: SupportedLocale, catalogue: ReceiptCatalogue, english: ReceiptMessages | null): ReceiptMessages {
  const formats = new Map<ReceiptMessageKey, IntlMessageFormat>();
  const t = (key: ReceiptMessageKey, values?: Record<string, string>): string => {
    if (english && !catalogue[key]) return english(key, values);
    let format = formats.get(key);
    if (!format) formats.set(key, (format = new IntlMessageFormat(catalogue[key], locale)));
    return String(format.format(values));
  };
  return Object.assign(t, { locale } as const);
}
