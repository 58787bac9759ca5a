import { describe, expect, it } from 'vitest';
import { formattingLocale } from './locale';

describe('the locale amounts are formatted with', () => {
  it("is the shopper's full tag in the catalogue's language, region and all", () => {
    expect(formattingLocale('es', 'es-MX,es;q=0.9,en;q=0.8')).toBe('es-MX');
    expect(formattingLocale('es', 'en-US, es_mx;q=0.5')).toBe('es-MX');
    expect(formattingLocale('pt-BR', 'pt-BR')).toBe('pt-BR');
    expect(formattingLocale('zh-Hant', 'zh-TW')).toBe('zh-TW');
  });

  it("is the catalogue's own when the browser asks for another language, none, or a malformed tag", () => {
    expect(formattingLocale('es', 'de-DE,en;q=0.5')).toBe('es');
    expect(formattingLocale('de', null)).toBe('de');
    expect(formattingLocale('es', 'es-!!')).toBe('es');
    expect(formattingLocale('en-XA', 'en-GB')).toBe('en');
  });

  it('formats es-MX amounts as CLDR says Mexico writes them, not as es does', () => {
    const usd = (locale: string) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(10);
    expect(usd(formattingLocale('es', 'es-MX'))).toBe(usd('es-MX'));
    expect(usd('es-MX')).not.toBe(usd('es'));
  });
});
