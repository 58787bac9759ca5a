import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LOCALE, isRtl, matchLocale, negotiateLocale, PSEUDO_LOCALE, type PageLocale } from '../../../src/domain/shared/locale';
import type en from './locales/en.json';

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
  /** The BCP 47 tag for `Intl`: the shopper's full locale where known (`es-MX`), else the catalogue's. */
  readonly lang: string;
  /** The catalogue's language as a BCP 47 tag (`es`; `en` for the pseudo-locale), for `<html lang>`. */
  readonly language: string;
  readonly dir: 'ltr' | 'rtl';
  /** Whether a key exists (for keys built from API values, such as `brand.${brand}`). */
  has(key: string): key is MessageKey;
}

/**
 * Catalogues here: inlined by the server, or loaded. English is a chunk of its own like every other
 * language (the server inlines the shopper's catalogue, so the page's first load carries one).
 */
const loaded = new Map<string, Messages>();
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
      async () => {
        if (locale === DEFAULT_LOCALE) throw new Error('the English catalogue cannot be loaded');
        const english = await loadMessages(DEFAULT_LOCALE);
        loaded.set(locale, english); // no catalogue (yet): English, and do not ask again
        return english;
      },
    );
    loading.set(locale, pending);
  }
  return pending;
}

async function importCatalogue(locale: PageLocale): Promise<Catalogue> {
  if (locale === PSEUDO_LOCALE) return (await import('./pseudo-locale')).pseudoLocalize((await loadMessages(DEFAULT_LOCALE)).catalogue);
  return (await import('./locale-chunks')).importLocaleCatalogue(locale);
}

/**
 * Any catalogue already here, for a line to show while the wanted one loads: English if it is here,
 * else the one the server inlined. (Before any is here, keys show as themselves.)
 */
export function someLoadedMessages(): Messages {
  return loaded.get(DEFAULT_LOCALE) ?? loaded.values().next().value ?? { locale: DEFAULT_LOCALE, catalogue: {} as Catalogue };
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

/**
 * A translate function over one catalogue. Every catalogue has every key (catalogues.test.ts); a key
 * one lacked would show in English where English is here, else as the key. `formatLocale`: the
 * shopper's full tag for `Intl` (`es-MX` on the `es` catalogue: `formattingLocale`), used when the
 * catalogue serves it.
 */
export function translator(messages: Messages, formatLocale?: string | null): Translate {
  const own = messages.locale === PSEUDO_LOCALE ? 'en' : messages.locale;
  const lang = formatLocale && messages.locale !== PSEUDO_LOCALE && matchLocale(formatLocale) === messages.locale ? formatLocale : own;
  const formats = new Map<MessageKey, { format: IntlMessageFormat; plain: Set<string> }>();
  const numbers = new Intl.NumberFormat(lang);
  const t = (key: MessageKey, values?: Record<string, string | number>) => {
    let entry = formats.get(key);
    if (!entry) {
      const own = messages.catalogue[key];
      const format = new IntlMessageFormat(own ?? loaded.get(DEFAULT_LOCALE)?.catalogue[key] ?? key, own ? lang : DEFAULT_LOCALE);
      entry = { format, plain: plainArguments(format.getAst()) };
      formats.set(key, entry);
    }
    const args =
      values &&
      Object.fromEntries(
        Object.entries(values).map(([name, value]) => [name, typeof value === 'number' && entry.plain.has(name) ? numbers.format(value) : value]),
      );
    return String(entry.format.format(args));
  };
  const has = (key: string): key is MessageKey => key in messages.catalogue;
  return Object.assign(t, { locale: messages.locale, lang, language: own, dir: isRtl(messages.locale) ? 'rtl' : 'ltr', has } as const);
}

/** The shopper's message for an API error code (and decline code), as design.md §8 asks. */
export function errorMessageKey(code: string, declineCode?: string): MessageKey {
  if (code === 'card_declined') {
    // Fraud-related declines say no more than "declined", so nobody learns what tripped the check.
    const specific = `decline.${declineCode}` as MessageKey;
    return declineCode && declineMessages.has(declineCode) ? specific : 'decline.generic';
  }
  if (code === 'processor_unavailable') return 'error.processor_unavailable';
  // The database may have failed after the processor charged: the same "do not pay again yet" advice.
  if (code === 'processor_timeout' || code === 'database_unavailable') return 'error.processor_timeout';
  if (code === 'idempotency_key_in_use') return 'error.in_progress';
  return 'error.generic';
}

/** The decline codes with a message of their own, `decline.<code>` (i18n.test.ts holds it to en.json). */
export const declineMessages: ReadonlySet<string> = new Set([
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'processing_error',
  'authentication_failed',
  'card_not_supported',
  'test_mode_live_card',
]);
