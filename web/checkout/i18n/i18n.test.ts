import { describe, expect, it } from 'vitest';
import { formatMoney } from '../format';
import { googlePayButtonLocale } from '../google-pay/google-pay';
import en from './locales/en.json';
import { catalogueLocale, inlineMessages, loadedMessages, loadMessages, primeMessages, translator, type Catalogue } from './index';
import { pseudoLocalize, pseudoText } from './pseudo-locale';

const english = translator({ locale: 'en', catalogue: en as Catalogue });

describe('translator (ICU MessageFormat)', () => {
  it('fills placeholders and plurals', () => {
    expect(english('form.pay', { amount: '$18.00' })).toBe('Pay $18.00');
    expect(english('summary.items', { count: 1 })).toBe('1 item');
    expect(english('summary.items', { count: 3 })).toBe('3 items');
  });

  it("formats a number given for a plain placeholder in the catalogue's own digits", () => {
    const arabic = translator({ locale: 'ar', catalogue: { ...(en as Catalogue), 'summary.quantity': 'الكمية {quantity}' } });
    const digits = new Intl.NumberFormat('ar').format(12);
    expect(arabic('summary.quantity', { quantity: 12 })).toBe(`الكمية ${digits}`);
    expect(arabic.dir).toBe('rtl');
    expect(english.dir).toBe('ltr');
  });

  it('falls back to English, in English digits, for a key a catalogue lacks (once English is here)', async () => {
    await loadMessages('en');
    const partial = { ...(en as Catalogue) } as Partial<Catalogue>;
    delete partial['summary.items'];
    const t = translator({ locale: 'ar', catalogue: partial as Catalogue });
    expect(t('summary.items', { count: 2 })).toBe('2 items');
  });
});

describe('loadMessages', () => {
  it('maps a requested tag to the catalogue that serves it', () => {
    expect(catalogueLocale('pt')).toBe('pt-BR');
    expect(catalogueLocale('xx')).toBe('en');
    expect(catalogueLocale('en-XA')).toBe('en-XA');
  });

  it('loads one catalogue as data a server can inline, and takes it back without a request', async () => {
    const japanese = inlineMessages(await loadMessages('ja'));
    const data = JSON.parse(JSON.stringify(japanese));
    expect(Array.isArray(data.catalogue['form.pay'])).toBe(true); // precompiled: the page has no parser
    expect(primeMessages(data)).toBe(data);
    expect(loadedMessages('ja')).toBe(data);
    expect(translator(data)('form.pay', { amount: '￥1,800' })).toContain('￥1,800');
  });

  it('serves English for a language no catalogue serves', async () => {
    expect((await loadMessages('tlh')).locale).toBe('en');
  });
});

describe('pseudo-locale en-XA', () => {
  it('is generated from English: accented, about 40 % longer, placeholders and plurals intact', async () => {
    const pseudo = translator({ locale: 'en-XA', catalogue: pseudoLocalize(en as Catalogue) });
    const text = pseudo('state.done.paidWith', { amount: '$18.00', brand: 'Visa', last4: '1111' });
    expect(text).toMatch(/^⟦.*\$18\.00.*Visa.*1111.*⟧$/);
    expect(text).not.toContain('Paid');
    expect(pseudo('summary.items', { count: 2 })).toBe(`⟦2 ${pseudoText('items')}⟧`);
    const all = Object.keys(en) as Array<keyof typeof en>;
    const values = {
      amount: '$1',
      digits: 3,
      merchant: 'M',
      brand: 'B',
      last4: '1',
      month: '01',
      year: '2030',
      quantity: 2,
      count: 2,
      code: 'C',
      range: '1–2',
      label: 'L',
      example: 'E',
      item: 'I',
      minimum: 1,
      maximum: 9,
      name: 'VAT',
      wallet: 'W',
      fields: 'F',
      interval: 'month',
      period: 'P',
      days: 14,
      method: 'M',
    };
    const ratio = all.reduce((sum, key) => sum + pseudo(key, values).length, 0) / all.reduce((sum, key) => sum + english(key, values).length, 0);
    expect(ratio).toBeGreaterThan(1.3);
    expect((await loadMessages('en-XA')).locale).toBe('en-XA');
  });
});

describe('formatting for the locale', () => {
  it('formats amounts with Intl and the currency exponent', () => {
    expect(formatMoney(1800, 'usd', 'en')).toBe('$18.00');
    expect(formatMoney(1800, 'jpy', 'ja')).toBe('￥1,800');
    expect(formatMoney(1800, 'eur', 'de')).toBe('18,00\u00a0€');
  });

  it("gives Google Pay's button a language it speaks, or none", () => {
    expect(googlePayButtonLocale('pt-BR')).toBe('pt');
    expect(googlePayButtonLocale('nb')).toBe('no');
    expect(googlePayButtonLocale('zh-Hant')).toBe('zh');
    expect(googlePayButtonLocale('ja')).toBe('ja');
    expect(googlePayButtonLocale('he')).toBeUndefined();
  });
});
