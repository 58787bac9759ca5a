import { sha256Hex } from './digest';
import type { PageRequest } from './pagination';

/**
 * What a shopper receives on the checkout page, reduced to what PCI DSS 4.0 requirement 11.6.1
 * watches: every script (with the SHA-384 of the bytes served, for ours), every script or style
 * tag in the HTML with its integrity attribute, and the security headers. Two equal pages have
 * equal digests; any added, removed or altered script or header changes it.
 */
export interface PageFingerprint {
  /** Every script and stylesheet the page can load; `sha384` null for third parties, pinned by origin. */
  scripts: Array<{ url: string; sha384: string | null; size: number | null }>;
  /** The `<script>` and `<link>` tags of the served HTML (inline ones by the hash of their text). */
  tags: Array<{ tag: string; url: string | null; integrity: string | null; type: string | null; inlineSha256: string | null }>;
  /** Security headers, lower-case names; per-request nonces replaced by `'nonce'`. */
  headers: Record<string, string>;
}

export interface FingerprintDifference {
  kind: 'script_added' | 'script_removed' | 'script_changed' | 'tag_added' | 'tag_removed' | 'header_changed';
  /** The script's URL, the tag's URL (or `inline:<hash>`), or the header's name. */
  subject: string;
  before: string | null;
  after: string | null;
}

/** An account's approved page: what later checks are compared with. */
export interface CheckoutPageBaseline {
  accountId: string;
  digest: string;
  fingerprint: PageFingerprint;
  /** Null when the first check set it (trust on first use); else who approved it. */
  approvedBy: { id: string; label: string } | null;
  approvedAt: Date;
}

/** A detected difference from the baseline; open until an owner or admin approves a new baseline. */
export interface CheckoutPageChange {
  id: string;
  accountId: string;
  baselineDigest: string;
  digest: string;
  differences: FingerprintDifference[];
  detectedAt: Date;
  resolvedAt: Date | null;
  resolution: ChangeResolution | null;
}

/** Approved by an owner or admin, the page went back to its baseline, or a newer version replaced it. */
export type ChangeResolution = 'approved' | 'reverted' | 'superseded';

/** A Content-Security-Policy violation the checkout page's browser reported, already scrubbed. */
export interface CspReport {
  id: string;
  accountId: string;
  checkoutSessionId: string | null;
  /** `csp-violation` (Reporting API) or `csp-report` (report-uri). */
  format: 'reports+json' | 'csp-report';
  directive: string;
  blockedUrl: string;
  documentUrl: string;
  disposition: string;
  sample: string | null;
  sourceFile: string | null;
  lineNumber: number | null;
  userAgent: string | null;
  receivedAt: Date;
}

/** A merchant's own note on one inventory script (requirement 6.4.3's justification is theirs too). */
export interface ScriptNote {
  accountId: string;
  scriptId: string;
  note: string;
  updatedBy: string;
  updatedAt: Date;
}

/** PCI DSS 11.6.1: at least weekly. The default is every hour. */
export const PAGE_CHECK_DEFAULT_MINUTES = 60;
export const PAGE_CHECK_MAX_MINUTES = 7 * 24 * 60;
/** How long CSP reports are kept. */
export const CSP_REPORT_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

export interface CheckoutPageIntegrityRepository {
  baseline(accountId: string, options?: { forUpdate?: boolean }): Promise<CheckoutPageBaseline | null>;
  saveBaseline(baseline: CheckoutPageBaseline): Promise<void>;
  /** Accounts whose baseline is missing or differs from `digest` and that have no open change for `digest` yet. */
  accountsToCompare(digest: string, limit: number): Promise<string[]>;
  openChange(accountId: string): Promise<CheckoutPageChange | null>;
  insertChange(change: CheckoutPageChange): Promise<void>;
  resolveOpenChanges(accountId: string, at: Date, resolution: ChangeResolution): Promise<number>;
  listChanges(accountId: string, page: PageRequest): Promise<CheckoutPageChange[]>;
  insertCspReport(report: CspReport): Promise<void>;
  listCspReports(accountId: string, page: PageRequest): Promise<CspReport[]>;
  purgeCspReportsBefore(at: Date): Promise<number>;
  notes(accountId: string): Promise<ScriptNote[]>;
  saveNote(note: ScriptNote): Promise<void>;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 of the fingerprint's canonical JSON (order of scripts, tags and headers does not matter). */
export async function fingerprintDigest(fingerprint: PageFingerprint): Promise<string> {
  const sorted: PageFingerprint = {
    scripts: [...fingerprint.scripts].sort((a, b) => canonical(a).localeCompare(canonical(b))),
    tags: [...fingerprint.tags].sort((a, b) => canonical(a).localeCompare(canonical(b))),
    headers: fingerprint.headers,
  };
  return sha256Hex(canonical(sorted));
}

const tagKey = (tag: PageFingerprint['tags'][number]) => `${tag.tag} ${tag.url ?? `inline:${tag.inlineSha256}`} ${tag.type ?? ''}`;
const tagValue = (tag: PageFingerprint['tags'][number]) => tag.integrity ?? tag.inlineSha256 ?? '';

/** What differs between the approved page and the page served now, in a stable order. */
export function compareFingerprints(baseline: PageFingerprint, current: PageFingerprint): FingerprintDifference[] {
  const differences: FingerprintDifference[] = [];
  const before = new Map(baseline.scripts.map((s) => [s.url, s.sha384 ?? 'origin-pinned']));
  const after = new Map(current.scripts.map((s) => [s.url, s.sha384 ?? 'origin-pinned']));
  for (const [url, hash] of after) {
    if (!before.has(url)) differences.push({ kind: 'script_added', subject: url, before: null, after: hash });
    else if (before.get(url) !== hash) differences.push({ kind: 'script_changed', subject: url, before: before.get(url)!, after: hash });
  }
  for (const [url, hash] of before) if (!after.has(url)) differences.push({ kind: 'script_removed', subject: url, before: hash, after: null });

  const tagsBefore = new Map(baseline.tags.map((t) => [`${tagKey(t)} ${tagValue(t)}`, t]));
  const tagsAfter = new Map(current.tags.map((t) => [`${tagKey(t)} ${tagValue(t)}`, t]));
  for (const [key, tag] of tagsAfter) {
    if (!tagsBefore.has(key)) differences.push({ kind: 'tag_added', subject: tag.url ?? `inline:${tag.inlineSha256}`, before: null, after: tagValue(tag) || tag.tag });
  }
  for (const [key, tag] of tagsBefore) {
    if (!tagsAfter.has(key)) differences.push({ kind: 'tag_removed', subject: tag.url ?? `inline:${tag.inlineSha256}`, before: tagValue(tag) || tag.tag, after: null });
  }

  const names = new Set([...Object.keys(baseline.headers), ...Object.keys(current.headers)]);
  for (const name of [...names].sort()) {
    const was = baseline.headers[name] ?? null;
    const now = current.headers[name] ?? null;
    if (was !== now) differences.push({ kind: 'header_changed', subject: name, before: was, after: now });
  }
  return differences.sort((a, b) => a.kind.localeCompare(b.kind) || a.subject.localeCompare(b.subject));
}
