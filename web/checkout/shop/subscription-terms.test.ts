import { describe, expect, it } from 'vitest';
import type { SubscriptionTerms } from '../api';
import { translator, type Catalogue, type Translate } from '../i18n';
import ar from '../i18n/locales/ar.json';
import de from '../i18n/locales/de.json';
import en from '../i18n/locales/en.json';
import fr from '../i18n/locales/fr.json';
import ja from '../i18n/locales/ja.json';
import { formatMoney } from '../format';
import { subscriptionWording as wording } from './subscription-terms';

const t = {
  en: translator({ locale: 'en', catalogue: en as Catalogue }),
  de: translator({ locale: 'de', catalogue: de as Catalogue }),
  fr: translator({ locale: 'fr', catalogue: fr as Catalogue }),
  ja: translator({ locale: 'ja', catalogue: ja as Catalogue }),
  ar: translator({ locale: 'ar', catalogue: ar as Catalogue }),
};
const terms = (interval: SubscriptionTerms['interval'], count: number, trial: number | null = null, amount = 2000): SubscriptionTerms => ({
  interval,
  interval_count: count,
  trial_period_days: trial,
  amount,
});
const nbsp = '\u00a0';
/** As OrderSummary calls it: the amount formatted as the page formats money. */
const subscriptionWording = (terms: SubscriptionTerms, currency: string, t: Translate) => wording(terms, formatMoney(terms.amount, currency, t.lang), t);

describe('what a subscription page says is charged next, and when', () => {
  it('English: every interval, one or several of it', () => {
    expect(subscriptionWording(terms('month', 1), 'usd', t.en)).toBe('Then $20.00 every month');
    expect(subscriptionWording(terms('month', 3), 'usd', t.en)).toBe('Then $20.00 every 3 months');
    expect(subscriptionWording(terms('day', 1), 'usd', t.en)).toBe('Then $20.00 every day');
    expect(subscriptionWording(terms('week', 2), 'usd', t.en)).toBe('Then $20.00 every 2 weeks');
    expect(subscriptionWording(terms('year', 1, null, 12000), 'usd', t.en)).toBe('Then $120.00 every year');
  });

  it('English: a trial says its free days and that the charges start after it', () => {
    expect(subscriptionWording(terms('month', 1, 14), 'usd', t.en)).toBe('14 days free · Then $20.00 every month after the trial');
    expect(subscriptionWording(terms('year', 1, 1), 'usd', t.en)).toBe('1 day free · Then $20.00 every year after the trial');
  });

  it('German and French: their own words, plurals and money format', () => {
    expect(subscriptionWording(terms('month', 1), 'eur', t.de)).toBe(`Danach 20,00${nbsp}€ monatlich`);
    expect(subscriptionWording(terms('month', 3), 'eur', t.de)).toBe(`Danach 20,00${nbsp}€ alle 3 Monate`);
    expect(subscriptionWording(terms('week', 1, 1), 'eur', t.de)).toBe(`1 Tag kostenlos · Nach der Testphase 20,00${nbsp}€ wöchentlich`);
    expect(subscriptionWording(terms('day', 30, 7), 'eur', t.de)).toBe(`7 Tage kostenlos · Nach der Testphase 20,00${nbsp}€ alle 30 Tage`);
    expect(subscriptionWording(terms('month', 1), 'eur', t.fr)).toBe(`Puis 20,00${nbsp}€ par mois`);
    expect(subscriptionWording(terms('week', 2), 'eur', t.fr)).toBe(`Puis 20,00${nbsp}€ toutes les 2 semaines`);
    expect(subscriptionWording(terms('year', 2, 1), 'eur', t.fr)).toBe(`1 jour gratuit · Puis 20,00${nbsp}€ tous les 2 ans après l’essai`);
    expect(subscriptionWording(terms('month', 1, 14), 'eur', t.fr)).toMatch(/^14 jours gratuits · /);
  });

  it('Japanese: no plural forms, the period before the amount, yen without decimals', () => {
    expect(subscriptionWording(terms('month', 1, null, 2000), 'jpy', t.ja)).toBe('以降は毎月￥2,000');
    expect(subscriptionWording(terms('month', 3, null, 2000), 'jpy', t.ja)).toBe('以降は3か月ごとに￥2,000');
    expect(subscriptionWording(terms('month', 1, 30, 2000), 'jpy', t.ja)).toBe('30日間無料 · トライアル終了後は毎月￥2,000');
  });

  it('Arabic: the dual and the plural forms for 3–10, 11–99 and 100, in Arabic digits', () => {
    const n = (value: number) => new Intl.NumberFormat('ar').format(value);
    const period = (count: number) => subscriptionWording(terms('month', count), 'usd', t.ar);
    expect(period(1)).toMatch(/^ثم .+ شهريًا$/);
    expect(period(2)).toMatch(/ كل شهرين$/);
    expect(period(3)).toMatch(new RegExp(` كل ${n(3)} أشهر$`));
    expect(period(11)).toMatch(new RegExp(` كل ${n(11)} شهرًا$`));
    expect(period(100)).toMatch(new RegExp(` كل ${n(100)} شهر$`));
    expect(period(1)).toContain(new Intl.NumberFormat('ar', { style: 'currency', currency: 'USD' }).format(20));
    expect(subscriptionWording(terms('week', 1, 1), 'usd', t.ar)).toMatch(/^يوم واحد مجانًا · بعد انتهاء الفترة التجريبية، .+ أسبوعيًا$/);
    expect(subscriptionWording(terms('week', 1, 2), 'usd', t.ar)).toMatch(/^يومان مجانًا · /);
    expect(subscriptionWording(terms('week', 1, 14), 'usd', t.ar)).toMatch(new RegExp(`^${n(14)} يومًا مجانًا · `));
  });
});
