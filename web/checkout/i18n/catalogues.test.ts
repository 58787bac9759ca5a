import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../../../src/domain/shared/locale';

/**
 * The build-time check of every catalogue against the English source: same keys, the same
 * placeholders, valid ICU MessageFormat. Each failure names the locale and the key.
 */
const dir = path.join(import.meta.dirname, 'locales');
const read = (file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;
const english = read('en.json') as Record<string, string>;
const present = readdirSync(dir)
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

function problemsOf(locale: string, catalogue = read(`${locale}.json`)): string[] {
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

describe('message catalogues (web/checkout/i18n/locales)', () => {
  it('English is valid ICU MessageFormat', () => {
    expect(problemsOf('en')).toEqual([]);
  });

  it.each(present.filter((locale) => locale !== 'en'))('%s has every key and placeholder of English, in valid ICU', (locale) => {
    expect(problemsOf(locale)).toEqual([]);
  });

  it('names the locale and key of each problem it finds', () => {
    const broken: Record<string, unknown> = { ...english, 'form.pay': 'Bezahlen', 'summary.items': '{count, plural, one {# Artikel}', 'extra.key': 'x' };
    delete broken['page.title'];
    expect(problemsOf('de', broken)).toEqual([
      "de: 'page.title' is missing",
      expect.stringMatching(/^de: 'summary.items' is not valid ICU MessageFormat/),
      "de: 'form.pay' lacks the placeholder {amount}",
      "de: 'extra.key' is not a key of en.json",
    ]);
  });

  it('holds only catalogues of supported locales', () => {
    expect(present.filter((locale) => !(SUPPORTED_LOCALES as readonly string[]).includes(locale))).toEqual([]);
  });

  it('holds a catalogue for every supported locale', () => {
    expect(SUPPORTED_LOCALES.filter((locale) => !present.includes(locale))).toEqual([]);
  });
});
