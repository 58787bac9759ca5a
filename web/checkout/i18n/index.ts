import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LOCALE, isRtl, matchLocale, negotiateLocale, PSEUDO_LOCALE, type PageLocale } from '../../../src/domain/shared/locale';
import en from './locales/en.json';

/**
 * The checkout page's messages: ICU MessageFormat (FormatJS `intl-messageformat`), one JSON
 * catalogue per locale in ./locales, English (en.json) the source of every key. A key the code uses
 * that en.json lacks is a compile error; a catalogue that lacks a key of en.json fails
 * i18n/catalogues.test.ts. The build precompiles each catalogue to ASTs (precompile-messages.ts),
 * so the page ships the formatter without the parser. Works the same in Node (server rendering)
 * and the browser: nothing here touches `window` when the module loads.
 */
export type MessageKey = keyof typeof en;

/** A message as written (Node, tests) or as the build precompiled it (the page). */
export type Message = string | MessageFormatElement[];
export type Catalogue = Record<MessageKey, Message>;

/** A locale and its catalogue: plain data, so a server can inline it in the page it renders. */
export interface Messages {
  locale: PageLocale;
  catalogue: Catalogue;
}

export interface Translate {
  (key: MessageKey, values?: Record<string, string | number>): string;
  /** The locale of the catalogue in use: format amounts with it, so no message mixes scripts. */
  readonly locale: PageLocale;
  /** The BCP 47 tag for `Intl` and `<html lang>`. */
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
}

const english: Messages = { locale: DEFAULT_LOCALE, catalogue: en as Catalogue };
const loaded = new Map<string, Messages>([[DEFAULT_LOCALE, english]]);
const loading = new Map<string, Promise<Messages>>();

/** The locale a catalogue exists for: the pseudo-locale, a supported locale, or English. */
export function catalogueLocale(requested: string | null | undefined): PageLocale {
  if (requested === PSEUDO_LOCALE) return PSEUDO_LOCALE;
  return (requested && matchLocale(requested)) || DEFAULT_LOCALE;
}

/**
 * Loads one locale's catalogue, and only that one: each catalogue is its own chunk (a dynamic
 * import), so the page's size does not grow with the number of locales. A catalogue that is not
 * there (yet) falls back to English.
 */
export function loadMessages(requested: string | null | undefined): Promise<Messages> {
  const locale = catalogueLocale(requested);
  const ready = loaded.get(locale);
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(locale);
  if (!pending) {
    pending = importCatalogue(locale).then(
      (catalogue) => primeMessages({ locale, catalogue }),
      () => {
        loaded.set(locale, english); // no catalogue (yet): English, and do not ask again
        return english;
      },
    );
    loading.set(locale, pending);
  }
  return pending;
}

async function importCatalogue(locale: PageLocale): Promise<Catalogue> {
  if (locale === PSEUDO_LOCALE) return (await import('./pseudo-locale')).pseudoLocalize(english.catalogue);
  const module = (await import(`./locales/${locale}.json`)) as { default: Catalogue };
  return module.default;
}

/** A catalogue already here (inlined by the server, or loaded before), without waiting. */
export function loadedMessages(requested: string | null | undefined): Messages | undefined {
  return loaded.get(catalogueLocale(requested));
}

/**
 * A catalogue as a server inlines it in a page it renders: every message precompiled to its AST,
 * because the page's runtime has no parser. Call it on the server (Node has the parser); the page
 * passes the data to `primeMessages`.
 */
export function inlineMessages(messages: Messages): Messages {
  const catalogue = Object.fromEntries(
    Object.entries(messages.catalogue).map(([key, message]) => [key, typeof message === 'string' ? parse(message) : message]),
  ) as Catalogue;
  return { locale: messages.locale, catalogue };
}

/** Hands over a catalogue the server inlined in the page, so the first render needs no request. */
export function primeMessages(messages: Messages): Messages {
  loaded.set(messages.locale, messages);
  return messages;
}

/** The shopper's browser languages → a locale, as the server negotiates Accept-Language. */
export function browserLocale(): PageLocale {
  const languages = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return negotiateLocale({ sessionLocale: null, acceptLanguage: languages.join(',') });
}

/**
 * Names used as a plain `{name}` (not in a plural, select or number): a number passed for one is
 * formatted for the locale first, so Arabic text gets Arabic digits and Latin text Latin ones.
 */
function plainArguments(ast: MessageFormatElement[], into = new Set<string>(), counted = new Set<string>()) {
  for (const element of ast) {
    if (element.type === TYPE.argument) into.add(element.value);
    if (element.type === TYPE.number || element.type === TYPE.plural || element.type === TYPE.select) counted.add(element.value);
    if ('options' in element) for (const option of Object.values(element.options)) plainArguments(option.value, into, counted);
  }
  for (const name of counted) into.delete(name);
  return into;
}

/** A translate function over one catalogue (English for any key a catalogue lacks). */
export function translator(messages: Messages): Translate {
  const lang = messages.locale === PSEUDO_LOCALE ? 'en' : messages.locale;
  const formats = new Map<MessageKey, { format: IntlMessageFormat; plain: Set<string> }>();
  const numbers = new Intl.NumberFormat(lang);
  const t = (key: MessageKey, values?: Record<string, string | number>) => {
    let entry = formats.get(key);
    if (!entry) {
      const own = messages.catalogue[key];
      const format = new IntlMessageFormat(own ?? english.catalogue[key], own ? lang : DEFAULT_LOCALE);
      entry = { format, plain: plainArguments(format.getAst()) };
      formats.set(key, entry);
    }
    const args = values && Object.fromEntries(
      Object.entries(values).map(([name, value]) => [name, typeof value === 'number' && entry.plain.has(name) ? numbers.format(value) : value]),
    );
    return String(entry.format.format(args));
  };
  return Object.assign(t, { locale: messages.locale, lang, dir: isRtl(messages.locale) ? 'rtl' : 'ltr' } as const);
}

/** The shopper's message for an API error code (and decline code), as design.md §8 asks. */
export function errorMessageKey(code: string, declineCode?: string): MessageKey {
  if (code === 'card_declined') {
    // Fraud-related declines say no more than "declined", so nobody learns what tripped the check.
    const specific = `decline.${declineCode}` as MessageKey;
    return declineCode && specific in en ? specific : 'decline.generic';
  }
  if (code === 'processor_unavailable') return 'error.processor_unavailable';
  // The database may have failed after the processor charged: the same "do not pay again yet" advice.
  if (code === 'processor_timeout' || code === 'database_unavailable') return 'error.processor_timeout';
  if (code === 'idempotency_key_in_use') return 'error.in_progress';
  return 'error.generic';
}

/** Whether a key exists (for keys built from API values, such as `brand.${brand}`). */
export function isMessageKey(key: string): key is MessageKey {
  return key in en;
}
