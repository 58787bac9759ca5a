import { en, type Catalogue, type MessageKey } from './en';

export type { MessageKey };

/** Catalogues by language; add one by adding a file shaped like `en.ts`. */
const catalogues: Record<string, Catalogue> = { en };

/** Picks the catalogue for a BCP 47 tag (`fr-CA` → `fr` → English). */
export function catalogueFor(locale: string | null | undefined): Catalogue {
  const language = (locale ?? '').toLowerCase().split('-')[0] ?? '';
  return catalogues[language] ?? en;
}

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function translator(catalogue: Catalogue): Translate {
  return (key, vars) =>
    catalogue[key].replace(/\{(\w+)\}/g, (whole, name: string) => (vars && name in vars ? String(vars[name]) : whole));
}

/** The shopper's message for an API error code (and decline code), as DESIGN §8 asks. */
export function errorMessageKey(code: string, declineCode?: string): MessageKey {
  if (code === 'card_declined') {
    // Fraud-related declines say no more than "declined", so nobody learns what tripped the check.
    const specific = `decline.${declineCode}` as MessageKey;
    return declineCode && specific in en ? specific : 'decline.generic';
  }
  if (code === 'processor_unavailable') return 'error.processor_unavailable';
  if (code === 'processor_timeout') return 'error.processor_timeout';
  if (code === 'idempotency_key_in_use') return 'error.in_progress';
  return 'error.generic';
}
