import { supportedCurrencies } from '../shared/currency';
import { TillpointError } from '../shared/errors';
import type { Permission } from '../team/permissions';

/**
 * What the dashboard's one search box searches: one entry per kind of object. A kind added here
 * (with its SQL source in src/persistence/stores/team/dashboard-search.ts) is searched, permission
 * checked and shown by the box with no other change.
 */
export const searchKinds = {
  payment: { idPrefix: 'pay_', permission: 'payments.read' },
  checkout_session: { idPrefix: 'cs_', permission: 'sessions.read' },
  refund: { idPrefix: 're_', permission: 'payments.read' },
  payment_link: { idPrefix: 'plink_', permission: 'payment_links.read' },
  customer: { idPrefix: 'cus_', permission: 'customers.read' },
  dispute: { idPrefix: 'dp_', permission: 'payments.read' },
} as const satisfies Record<string, { idPrefix: string; permission: Permission }>;

export type SearchKind = keyof typeof searchKinds;

/** One amount the typed number can mean: `10.5` is 1050 in a two-decimal currency, 10500 in KWD. */
export interface AmountMatch {
  amount: number;
  currencies: string[];
}

/**
 * A search box's text, read as every kind of term it can be: an id prefix, the start or end of an email, a
 * card's last 4 digits, an amount (in the currency's major unit, as a person types it), a metadata
 * value or a `client_reference_id`. Each kind's source matches the terms that apply to it.
 */
export interface SearchTerms {
  text: string;
  /** Set when the text starts like an id (`pay_`, `cs_`, …): the id prefix, as typed. */
  idPrefix: string | null;
  /** The start or the end of an email, lower case (3 characters or more; only for roles that see emails). */
  emailPart: string | null;
  last4: string | null;
  amounts: AmountMatch[];
  /** Exact metadata value or client_reference_id (the text as typed). */
  reference: string | null;
}

export const MAX_SEARCH_TEXT = 200;

/** Reads the box's text as terms; `seesEmails` is whether the asking role may search by email. */
export function searchTermsOf(raw: string, seesEmails: boolean): SearchTerms {
  const text = raw.trim();
  if (!text) throw new TillpointError('parameter_missing', 'Type something to search for', { param: 'q' });
  if (text.length > MAX_SEARCH_TEXT) throw new TillpointError('parameter_invalid', `Search for at most ${MAX_SEARCH_TEXT} characters`, { param: 'q' });
  const looksLikeId = /^[a-z]+_[A-Za-z0-9]*$/.test(text) && Object.values(searchKinds).some((k) => text.startsWith(k.idPrefix));
  const number = /^\d{1,9}([.,]\d{1,3})?$/.test(text) ? Number(text.replace(',', '.')) : null;
  return {
    text,
    idPrefix: looksLikeId ? text : null,
    emailPart: seesEmails && !looksLikeId && number === null && text.length >= 3 && !/\s/.test(text) ? text.toLowerCase() : null,
    last4: /^\d{4}$/.test(text) ? text : null,
    amounts: number === null ? [] : amountMatches(number),
    reference: looksLikeId ? null : text,
  };
}

function amountMatches(major: number): AmountMatch[] {
  const matches: AmountMatch[] = [];
  for (const exponent of [0, 2, 3] as const) {
    const minor = Math.round(major * 10 ** exponent);
    // 10.5 is no amount of yen.
    if (Math.abs(minor - major * 10 ** exponent) > 1e-6 || minor <= 0) continue;
    const currencies = supportedCurrencies.filter((c) => c.exponent === exponent).map((c) => c.code);
    matches.push({ amount: minor, currencies });
  }
  return matches;
}
