import { describe, expect, it } from 'vitest';
import { TillpointError } from './errors';
import { isRtl, matchLocale, negotiateLocale, parseAcceptLanguage, sessionLocale, SUPPORTED_LOCALES } from './locale';

describe('matchLocale', () => {
  it('serves every supported locale as itself, in any case and with underscores', () => {
    for (const locale of SUPPORTED_LOCALES) expect(matchLocale(locale)).toBe(locale);
    expect(matchLocale('PT_br')).toBe('pt-BR');
    expect(matchLocale('zh-hant')).toBe('zh-Hant');
  });

  it.each([
    ['pt', 'pt-BR'],
    ['pt-AO', 'pt-PT'],
    ['zh-TW', 'zh-Hant'],
    ['zh-HK', 'zh-Hant'],
    ['zh-Hant-TW', 'zh-Hant'],
    ['zh-CN', 'zh-Hans'],
    ['zh', 'zh-Hans'],
    ['es-MX', 'es'],
    ['es-419', 'es'],
    ['de-AT', 'de'],
    ['fr-CA', 'fr'],
    ['en-GB', 'en'],
    ['no', 'nb'],
    ['nn-NO', 'nb'],
    ['nb-NO', 'nb'],
    ['tl', 'fil'],
    ['fil-PH', 'fil'],
    ['iw', 'he'],
    ['ar-EG', 'ar'],
    ['sr-Latn-RS', 'sr'],
  ])('%s → %s', (tag, locale) => {
    expect(matchLocale(tag)).toBe(locale);
  });

  it('serves nothing for languages without a catalogue', () => {
    expect(matchLocale('xx')).toBeNull();
    expect(matchLocale('sw-KE')).toBeNull();
    expect(matchLocale('*')).toBeNull();
    expect(matchLocale('')).toBeNull();
  });
});

describe('parseAcceptLanguage', () => {
  it('orders by weight, keeps the browser order for equal weights and drops q=0', () => {
    expect(parseAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual(['fr-CH', 'fr', 'en', 'de', '*']);
    expect(parseAcceptLanguage('de;q=0.5, ja, ko;q=0')).toEqual(['ja', 'de']);
    expect(parseAcceptLanguage('')).toEqual([]);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });
});

describe('negotiateLocale', () => {
  it('takes the session locale first, then the browser, then English', () => {
    expect(negotiateLocale({ sessionLocale: 'ja', acceptLanguage: 'de-DE,de;q=0.9' })).toBe('ja');
    expect(negotiateLocale({ sessionLocale: 'auto', acceptLanguage: 'de-DE,de;q=0.9' })).toBe('de');
    expect(negotiateLocale({ sessionLocale: null, acceptLanguage: 'sw, zh-TW;q=0.8' })).toBe('zh-Hant');
    expect(negotiateLocale({ sessionLocale: 'auto', acceptLanguage: 'sw, xx' })).toBe('en');
    expect(negotiateLocale({ sessionLocale: 'auto' })).toBe('en');
  });

  it('lets only the session ask for the pseudo-locale', () => {
    expect(negotiateLocale({ sessionLocale: 'en-XA' })).toBe('en-XA');
    expect(negotiateLocale({ sessionLocale: 'auto', acceptLanguage: 'en-XA' })).toBe('en');
  });
});

describe('sessionLocale', () => {
  it('stores auto by default and the serving locale for a regional tag', () => {
    expect(sessionLocale(undefined, 'live')).toBe('auto');
    expect(sessionLocale('auto', 'live')).toBe('auto');
    expect(sessionLocale('es-MX', 'live')).toBe('es');
    expect(sessionLocale('ar', 'live')).toBe('ar');
  });

  it('refuses an unsupported locale naming the parameter and listing what is supported', () => {
    let error: unknown;
    try {
      sessionLocale('xx-YY', 'test');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TillpointError);
    expect((error as TillpointError).code).toBe('parameter_invalid');
    expect((error as TillpointError).param).toBe('locale');
    expect((error as TillpointError).message).toContain("'xx-YY'");
    for (const locale of SUPPORTED_LOCALES) expect((error as TillpointError).message).toContain(locale);
  });

  it('accepts the pseudo-locale in test mode only', () => {
    expect(sessionLocale('en-XA', 'test')).toBe('en-XA');
    expect(() => sessionLocale('en-XA', 'live')).toThrow(TillpointError);
  });
});

describe('isRtl', () => {
  it('is true for Arabic, Hebrew, Persian and Urdu only', () => {
    expect(SUPPORTED_LOCALES.filter(isRtl)).toEqual(['ar', 'he', 'fa', 'ur']);
  });
});
