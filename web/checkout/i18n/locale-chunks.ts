import type { Catalogue } from './index';

/**
 * Each locale's catalogue is its own chunk; the table of those chunks is one more, fetched only by a
 * page that loads a catalogue itself (a server-rendered page comes with the shopper's inlined), so
 * no page's first load carries 44 chunk names.
 */
export async function importLocaleCatalogue(locale: string): Promise<Catalogue> {
  return ((await import(`./locales/${locale}.json`)) as { default: Catalogue }).default;
}
