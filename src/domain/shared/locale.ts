import { TillpointError } from './errors';

/**
 * The languages the checkout page speaks, as BCP 47 tags. Each has a catalogue in
 * web/checkout/i18n/locales/<tag>.json (docs/localization.md says how to add one).
 */
export const SUPPORTED_LOCALES = [
  'en',
  'ar',
  'he',
  'fa',
  'ur',
  'de',
  'fr',
  'es',
  'it',
  'pt-BR',
  'pt-PT',
  'nl',
  'sv',
  'da',
  'nb',
  'fi',
  'pl',
  'cs',
  'sk',
  'hu',
  'ro',
  'bg',
  'el',
  'tr',
  'ru',
  'uk',
  'hr',
  'sl',
  'lt',
  'lv',
  'et',
  'ja',
  'ko',
  'zh-Hans',
  'zh-Hant',
  'th',
  'vi',
  'id',
  'ms',
  'hi',
  'bn',
  'fil',
  'ca',
  'sr',
] as const;

export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

/**
 * The pseudo-locale: English, accented and about 40 % longer, generated from the English catalogue.
 * It exists to show that no text is clipped; only test-mode sessions may ask for it.
 */
export const PSEUDO_LOCALE = 'en-XA';

/** What the page can render: a real locale, or the pseudo-locale in test mode. */
export type PageLocale = SupportedLocale | typeof PSEUDO_LOCALE;

export const DEFAULT_LOCALE: SupportedLocale = 'en';

/** Written right to left: the page gets `dir="rtl"`. */
export const RTL_LOCALES: readonly SupportedLocale[] = ['ar', 'he', 'fa', 'ur'];

export function isRtl(locale: string): boolean {
  return (RTL_LOCALES as readonly string[]).includes(locale);
}

const byLowercase = new Map<string, SupportedLocale>(SUPPORTED_LOCALES.map((l) => [l.toLowerCase(), l]));

/**
 * Tags whose language alone does not say which catalogue fits: scripts, regions, legacy codes.
 * Checked before falling back to the language subtag.
 */
const REGIONAL: Array<[RegExp, SupportedLocale]> = [
  [/^zh-(hant|tw|hk|mo)(-|$)/, 'zh-Hant'],
  [/^zh(-|$)/, 'zh-Hans'], // zh, zh-CN, zh-SG, zh-Hans-*
  [/^pt-br(-|$)/, 'pt-BR'],
  [/^pt-[a-z0-9]/, 'pt-PT'], // pt-PT, pt-AO, pt-MZ…: European Portuguese
  [/^pt$/, 'pt-BR'], // most Portuguese readers online are Brazilian
  [/^(no|nn|nb)(-|$)/, 'nb'], // Norwegian: Bokmål is what both written standards' readers read
  [/^(tl|fil)(-|$)/, 'fil'],
  [/^iw(-|$)/, 'he'], // legacy code some Java and Android stacks still send
  [/^in(-|$)/, 'id'],
  [/^(ms|zsm)(-|$)/, 'ms'],
];

/**
 * The supported locale that serves one requested tag, or null: exact match (case-insensitive,
 * `_` accepted for `-`), then the regional table above, then the language alone (`es-MX` → `es`,
 * `de-AT` → `de`, `fr-CA` → `fr`).
 */
export function matchLocale(tag: string): SupportedLocale | null {
  const wanted = tag.trim().replaceAll('_', '-').toLowerCase();
  if (!wanted || wanted === '*') return null;
  const exact = byLowercase.get(wanted);
  if (exact) return exact;
  for (const [pattern, locale] of REGIONAL) if (pattern.test(wanted)) return locale;
  return byLowercase.get(wanted.split('-')[0]!) ?? null;
}

/**
 * An `Accept-Language` header's tags, most wanted first (`q` descending; equal weights keep the
 * browser's order; `q=0` means "not this one").
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 32) // a browser sends a handful; a longer header is not worth reading
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      const weight = q === undefined ? 1 : Number(q);
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * The locale the page shows: the session's own locale unless it is `auto` (or unset), then the
 * first tag of the shopper's `Accept-Language` that a catalogue serves, then English.
 */
export function negotiateLocale(options: { sessionLocale: string | null | undefined; acceptLanguage?: string | null }): PageLocale {
  const chosen = options.sessionLocale;
  if (chosen && chosen !== 'auto') {
    if (chosen === PSEUDO_LOCALE) return PSEUDO_LOCALE;
    const match = matchLocale(chosen);
    if (match) return match;
  }
  for (const tag of parseAcceptLanguage(options.acceptLanguage)) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}

/**
 * The tag numbers, dates and amounts are formatted with on a page in `locale`: the shopper's own
 * (the first `Accept-Language` tag that `locale`'s catalogue serves, region and all, `es-MX` for
 * `es`), so an amount reads as the shopper's country writes it (CLDR's `es-MX` writes `USD 10.00`,
 * where `es` writes `10,00 US$`); else `locale` itself. The pseudo-locale formats as English.
 */
export function formattingLocale(locale: PageLocale, acceptLanguage?: string | null): string {
  if (locale === PSEUDO_LOCALE) return DEFAULT_LOCALE;
  for (const tag of parseAcceptLanguage(acceptLanguage)) {
    if (matchLocale(tag) !== locale) continue;
    try {
      const [canonical] = Intl.getCanonicalLocales(tag.replaceAll('_', '-'));
      if (canonical) return canonical;
    } catch {
      // Not a well-formed tag: the next one, or the catalogue's own.
    }
  }
  return locale;
}

/**
 * A merchant's `locale` for a new session → what is stored: `auto` (the default: the shopper's
 * browser decides), or the supported locale that serves the tag (`es-MX` → `es`, `pt` → `pt-BR`).
 * Anything else is refused naming every supported value. The pseudo-locale is for test mode only.
 */
export function sessionLocale(value: string | null | undefined, mode: 'test' | 'live'): 'auto' | PageLocale {
  if (value == null || value === '' || value === 'auto') return 'auto';
  const pseudo = value.toLowerCase() === PSEUDO_LOCALE.toLowerCase();
  if (pseudo && mode === 'test') return PSEUDO_LOCALE;
  const match = pseudo ? null : matchLocale(value);
  if (match) return match;
  throw new TillpointError('parameter_invalid', `Locale '${value.slice(0, 40)}' is not supported. Use 'auto' or one of: ${SUPPORTED_LOCALES.join(', ')}`, {
    param: 'locale',
  });
}
