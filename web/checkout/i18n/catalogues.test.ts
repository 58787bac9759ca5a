import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../../../src/domain/shared/locale';

/**
 * The build-time check of every catalogue against its English source: same keys, the same
 * placeholders, valid ICU MessageFormat. Each failure names the locale and the key. Three sets of
 * catalogues share the format, the locales and this check: the checkout page's, the receipt
 * emails' (src/domain/payments/receipts/locales, keys `receipt.*`), and the billing pages'
 * (web/billing/locales: the customer portal and the hosted invoice page).
 */
const root = path.resolve(import.meta.dirname, '../../..');
const catalogueSets = [
  { name: 'checkout page', dir: 'web/checkout/i18n/locales', prefix: '' },
  { name: 'receipt emails', dir: 'src/domain/payments/receipts/locales', prefix: 'receipt.' },
  { name: 'billing pages', dir: 'web/billing/locales', prefix: '' },
];

const read = (dir: string, locale: string) => JSON.parse(readFileSync(path.join(root, dir, `${locale}.json`), 'utf8')) as Record<string, unknown>;
const localesIn = (dir: string) =>
  readdirSync(path.join(root, dir))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.replace(/\.json$/, ''));

/** Every argument a message uses, wherever it stands (plain, number, plural, select, tag). */
function argumentsOf(ast: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of ast) {
    if (element.type !== TYPE.literal && element.type !== TYPE.pound) into.add(element.value);
    if ('options' in element) for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    if (element.type === TYPE.tag) argumentsOf(element.children, into);
  }
  return into;
}

function problemsOf(english: Record<string, string>, locale: string, catalogue: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, source] of Object.entries(english)) {
    const message = catalogue[key];
    if (typeof message !== 'string' || !message.trim()) {
      problems.push(`${locale}: '${key}' is missing`);
      continue;
    }
    let ast: MessageFormatElement[];
    try {
      ast = parse(message);
    } catch (error) {
      problems.push(`${locale}: '${key}' is not valid ICU MessageFormat (${(error as Error).message})`);
      continue;
    }
    const wanted = argumentsOf(parse(source));
    const used = argumentsOf(ast);
    const missing = [...wanted].filter((name) => !used.has(name));
    const unknown = [...used].filter((name) => !wanted.has(name));
    if (missing.length) problems.push(`${locale}: '${key}' lacks the placeholder ${missing.map((n) => `{${n}}`).join(', ')}`);
    if (unknown.length) problems.push(`${locale}: '${key}' has a placeholder English does not: ${unknown.map((n) => `{${n}}`).join(', ')}`);
  }
  for (const key of Object.keys(catalogue)) if (!(key in english)) problems.push(`${locale}: '${key}' is not a key of en.json`);
  return problems;
}

describe.each(catalogueSets)('message catalogues: $name ($dir)', ({ dir, prefix }) => {
  const english = read(dir, 'en') as Record<string, string>;
  const present = localesIn(dir);

  it('English is valid ICU MessageFormat', () => {
    expect(problemsOf(english, 'en', english)).toEqual([]);
  });

  it.each(present.filter((locale) => locale !== 'en'))('%s has every key and placeholder of English, in valid ICU', (locale) => {
    expect(problemsOf(english, locale, read(dir, locale))).toEqual([]);
  });

  it('holds only catalogues of supported locales', () => {
    expect(present.filter((locale) => !(SUPPORTED_LOCALES as readonly string[]).includes(locale))).toEqual([]);
  });

  it('holds a catalogue for every supported locale', () => {
    expect(SUPPORTED_LOCALES.filter((locale) => !present.includes(locale))).toEqual([]);
  });

  it(`names its keys ${prefix ? `${prefix}*` : 'as it likes'}`, () => {
    expect(Object.keys(english).filter((key) => !key.startsWith(prefix))).toEqual([]);
  });
});

describe('the catalogue check', () => {
  const checkout = read('web/checkout/i18n/locales', 'en') as Record<string, string>;
  const receipts = read('src/domain/payments/receipts/locales', 'en') as Record<string, string>;

  it('names the locale and key of each problem it finds', () => {
    const broken: Record<string, unknown> = { ...checkout, 'form.pay': 'Bezahlen', 'summary.items': '{count, plural, one {# Artikel}', 'extra.key': 'x' };
    delete broken['page.title'];
    expect(problemsOf(checkout, 'de', broken)).toEqual([
      "de: 'page.title' is missing",
      expect.stringMatching(/^de: 'summary.items' is not valid ICU MessageFormat/),
      "de: 'form.pay' lacks the placeholder {amount}",
      "de: 'extra.key' is not a key of en.json",
    ]);
  });

  it('finds a receipt message missing, or with an argument English does not have or lacks', () => {
    const broken: Record<string, unknown> = { ...receipts, 'receipt.paidWith': '{brand}（末尾 {last}）でお支払い' };
    delete broken['receipt.testMode'];
    expect(problemsOf(receipts, 'ja', broken)).toEqual([
      "ja: 'receipt.paidWith' lacks the placeholder {last4}",
      "ja: 'receipt.paidWith' has a placeholder English does not: {last}",
      "ja: 'receipt.testMode' is missing",
    ]);
  });

  it('keeps the two sets apart: no key is both a page message and a receipt message', () => {
    expect(Object.keys(receipts).filter((key) => key in checkout)).toEqual([]);
  });
});
