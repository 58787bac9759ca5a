import type { Mode } from '../shared/events';
import type { Role } from './permissions';
import type { ApiKeyPermissions } from './api-key-permissions';

/** A person who signs in to the dashboard; may belong to several accounts. */
export interface User {
  id: string;
  /** Lower-cased; the sign-in name. */
  email: string;
  name: string;
  /** argon2id, PHC string format. */
  passwordHash: string;
  createdAt: Date;
}

/** A user's role in one account. */
export interface Membership {
  accountId: string;
  userId: string;
  role: Role;
  createdAt: Date;
}

/**
 * A signed-in browser. The cookie carries a random token; only its SHA-256 is stored, so a database
 * read does not hand out sessions.
 */
export interface DashboardSession {
  id: string;
  tokenHash: string;
  userId: string;
  /**
   * The session's CSRF secret, kept server-side: every token the page echoes in `X-CSRF-Token` is
   * derived from it (salted, by @fastify/csrf-protection), so ending the session ends its tokens.
   */
  csrfSecret: string;
  createdAt: Date;
  /** Sliding: pushed forward on use, never past `createdAt` + the absolute lifetime. */
  expiresAt: Date;
  ip: string | null;
  /** The browser's User-Agent when it signed in, so a person can tell their sessions apart. */
  userAgent?: string | null;
}

/** An invitation by link to join an account with a role; the token is shown once. */
export interface Invite {
  id: string;
  accountId: string;
  role: Role;
  tokenHash: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  acceptedBy: string | null;
  revokedAt: Date | null;
}

/** Who did something: a dashboard user or an API key, and where the request came from. */
export interface Actor {
  type: 'user' | 'api_key';
  id: string;
  /** What a person reads in the log: the user's email, or `sk_test_…abcd`. */
  label: string;
  ip: string | null;
}

/** One line of the audit log (design.md §3): who did what to what, when, from where. */
export interface AuditEntry {
  id: string;
  accountId: string;
  /** The mode the action touched; null for account-wide actions (team, branding). */
  mode: Mode | null;
  actor: Actor;
  /** `checkout_session.create`, `member.role_change`… */
  action: string;
  /** The id of the object acted on. */
  target: string | null;
  at: Date;
}

/** A merchant API call as the request log shows it: never a body, never a query string. */
export interface ApiRequestRecord {
  id: string;
  accountId: string;
  mode: Mode;
  keyId: string;
  method: string;
  path: string;
  status: number;
  errorCode: string | null;
  requestId: string;
  /**
   * The objects the call named in its answer: the answer's own id and the payment it belongs to
   * (`re_…` and `pay_…` for a refund). What a payment's page finds its request-log lines by, with the path.
   */
  objectIds?: string[];
  at: Date;
}

/** A merchant. One install serves many; no data crosses accounts. */
export interface Account {
  id: string;
  name: string;
  defaultCurrency: string;
  branding: { displayName: string | null; logoUrl: string | null; accentColor: string | null };
  supportEmail: string | null;
  /** Email the shopper a receipt when a payment succeeds (docs/receipts.md); off by default. */
  sendReceipts: boolean;
  /** After a subscription invoice's last charge fails: cancel the subscription, or mark it `unpaid` (docs/billing.md). */
  subscriptionFailureAction: 'cancel' | 'unpaid';
  /** Origins (`https://shop.example`) whose pages may frame this account's embedded checkout (`frame-ancestors`). */
  embedAllowedOrigins: string[];
  createdAt: Date;
}

export type ApiKeyKind = 'secret' | 'publishable' | 'restricted';

/** An API key; only its hash is kept, the secret is shown once. */
export interface ApiKey {
  id: string;
  accountId: string;
  mode: Mode;
  kind: ApiKeyKind;
  /** `sk_test_`, `rk_test_`, `pk_live_`… */
  prefix: string;
  /** What the merchant calls it (`Shop backend`, `Analytics export`); may be empty. */
  name: string;
  secretHash: string;
  last4: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** From then on the key is refused as invalid (a rolled key's overlap, or an expiry chosen at creation). */
  expiresAt: Date | null;
  /** A restricted key's grants per resource; null for secret and publishable keys. */
  permissions: ApiKeyPermissions | null;
}

/** A one-time link that creates an owner's sign-in on an account: how an operator claims an install. */
export interface SetupLink {
  id: string;
  accountId: string;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  usedBy: string | null;
  revokedAt: Date | null;
}

/** A one-time link that sets a new password; made by an owner, the operator's CLI or an email request. */
export interface PasswordReset {
  id: string;
  userId: string;
  tokenHash: string;
  /** The user who made it; null for the operator's CLI and for a request by email. */
  createdBy: string | null;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}

/** A user's TOTP second factor (RFC 6238). */
export interface SecondFactor {
  userId: string;
  /** Base32 shared secret once confirmed by a first code; null until then. */
  secret: string | null;
  /** A secret offered for enrolment and not yet confirmed. */
  pendingSecret: string | null;
  enabledAt: Date | null;
  /** The time step of the last accepted code: a code is never accepted twice. */
  lastStep: number | null;
}
