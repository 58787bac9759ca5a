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
  /** Null when set automatically (trust on first use: the account's first page served, or the first check); else who approved it. */
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
