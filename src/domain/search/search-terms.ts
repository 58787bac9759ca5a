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
  const money = moneyOf(text);
  return {
    text,
    idPrefix: looksLikeId ? text : null,
    emailPart: seesEmails && !looksLikeId && money === null && text.length >= 3 && !/\s/.test(text) ? text.toLowerCase() : null,
    last4: /^\d{4}$/.test(text) ? text : null,
    amounts: money === null ? [] : money.majors.flatMap((major) => amountMatches(major, money.currency)),
    reference: looksLikeId ? null : text,
  };
}

const knownCodes = new Set(supportedCurrencies.map((c) => c.code));
/** A currency symbol (`$`, `€`, `£`, `¥`, `₹`, …) with the letters some put before it (`US$`, `CA$`, `R$`). */
const SYMBOL = String.raw`(?:[A-Za-z]{0,3}\p{Sc})`;
const CODE = '(?:[A-Za-z]{3})';
const moneyPattern = new RegExp(
  String.raw`^(?:(?<preSymbol>${SYMBOL})\s*|(?<preCode>${CODE})\s+)?(?<number>[\d.,'’\s]+?)(?:\s*(?<postSymbol>\p{Sc})|\s+(?<postCode>${CODE}))?$`,
  'u',
);

/**
 * The text read as an amount as a person writes one: `81.96`, `$81.96`, `€1.234,50`, `1,234.50 USD`,
 * `CHF 1'234`. Each reading of the number in major units (`1,234` is 1.234 or 1234), and the
 * currency when an ISO code names one; null when the text is no amount.
 */
function moneyOf(text: string): { majors: number[]; currency: string | null } | null {
  const match = moneyPattern.exec(text);
  if (!match?.groups) return null;
  const { preSymbol, preCode, postSymbol, postCode } = match.groups;
  if ((preSymbol || preCode) && (postSymbol || postCode)) return null;
  const code = (preCode ?? postCode)?.toUpperCase() ?? null;
  if (code !== null && !knownCodes.has(code)) return null;
  const majors = majorsOf(match.groups.number ?? '');
  return majors.length ? { majors, currency: code } : null;
}

function majorsOf(number: string): number[] {
  const majors: number[] = [];
  // Plain digits with an optional decimal point or comma: 81.96, 10,5, 4242.
  if (/^\d{1,9}([.,]\d{1,3})?$/.test(number)) majors.push(Number(number.replace(',', '.')));
  // Digits in groups of three (`,` `.` `'` or a space between them), then an optional decimal part
  // after the other mark: 1,234.50, 1.234,50, 1 234,50, 1'234.
  const grouped = /^(\d{1,3})(?:([,.'’\s])\d{3})(?:\2\d{3}){0,2}(?:([.,])(\d{1,3}))?$/.exec(number);
  if (grouped && grouped[3] !== grouped[2]) {
    const whole = number.slice(0, grouped[3] ? number.length - grouped[4]!.length - 1 : number.length).replace(/\D/g, '');
    majors.push(Number(grouped[3] ? `${whole}.${grouped[4]}` : whole));
  }
  return [...new Set(majors)];
}

function amountMatches(major: number, currency: string | null): AmountMatch[] {
  const matches: AmountMatch[] = [];
  for (const exponent of [0, 2, 3] as const) {
    const minor = Math.round(major * 10 ** exponent);
    // 10.5 is no amount of yen.
    if (Math.abs(minor - major * 10 ** exponent) > 1e-6 || minor <= 0) continue;
    const currencies = supportedCurrencies.filter((c) => c.exponent === exponent && (currency === null || c.code === currency)).map((c) => c.code);
    if (currencies.length) matches.push({ amount: minor, currencies });
  }
  return matches;
}
