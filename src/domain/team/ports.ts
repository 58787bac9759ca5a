import type { Payment, PaymentMethodType } from '../payments/entities';
import type { Role } from './permissions';
import type { CheckoutSessionStatus } from '../payments/state-machine';
import type { PaymentStatusBadge } from '../payments/status-badge';
import type { ApiRequestRecord, AuditEntry, DashboardSession, Invite, Membership, User, Account, ApiKey } from './entities';
import type { Scope } from '../shared/scope';
import type { ApiKeyPermissions } from './api-key-permissions';
import type { CheckoutSession } from '../sessions/entities';
import type { PaymentSearchClause } from '../search/query-language';
import type { SearchKind, SearchTerms } from '../search/search-terms';

/** Hashes and checks passwords (argon2id in production); the domain never sees the algorithm. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** A cursor page: newest first, `startingAfter` is the last id of the previous page. */
export interface PageRequest {
  limit: number;
  startingAfter?: string;
}

/** One object the search box found, in the few fields its result line shows. */
export interface SearchHit {
  kind: SearchKind;
  id: string;
  createdAt: Date;
  amount: number | null;
  currency: string | null;
  status: string | null;
  /** In clear: the edge masks it for roles that see emails masked. */
  email: string | null;
  /** What else identifies it: a card's brand and last 4, a link's slug, the refunded payment. */
  detail: string | null;
}

/** The dashboard's payment filters (all optional, all combined with AND). */
export interface PaymentFilter extends PageRequest {
  /** By the badge the list shows (`refunded` is a succeeded payment refunded in full). */
  statuses?: PaymentStatusBadge[];
  createdFrom?: Date;
  /** Exclusive. */
  createdBefore?: Date;
  amountMin?: number;
  amountMax?: number;
  /** Exact match, case-insensitive. */
  email?: string;
  last4?: string;
  /** The way it was paid (`card`, `us_bank_account`…). */
  paymentMethodType?: PaymentMethodType;
  /** A payment id or its checkout session id. */
  id?: string;
  /** The customer's (`cus_…`) payments only. */
  customerId?: string;
}

export interface CheckoutSessionFilter extends PageRequest {
  status?: CheckoutSessionStatus;
}

/**
 * One UTC day of one currency's payments, by the day each payment was made (docs/dashboard.md,
 * "Figures"). Voided payments (`canceled`) are counted apart, in no volume.
 */
export interface DailyPayments {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  currency: string;
  /** Captured payments (`succeeded`), refunded ones included. */
  succeeded: number;
  /** Authorized and not captured yet (`requires_capture`). */
  authorized: number;
  /** Declined or failed. */
  failed: number;
  /** Authorized, then voided (`canceled`): approved by the processor, no money taken. */
  voided: number;
  /** What the succeeded payments captured, minor units. */
  captured: number;
  /** What has been refunded of it, minor units. */
  refunded: number;
  /** What disputes lost, accepted or expired took back from the succeeded payments, minor units. */
  lost: number;
  /** What the authorized payments hold, minor units. */
  authorizedAmount: number;
}

/** Sessions opened in a period (docs/dashboard.md, "Figures"). */
export interface CheckoutFunnel {
  opened: number;
  /** Of those, the sessions with at least one payment attempt. */
  attempted: number;
  /** Of those, the sessions with a payment captured or authorized and not voided. */
  paid: number;
}

/** Payments created in a period, counted by method, decline reason and 3-D Secure outcome (Analytics). */
export interface PaymentBreakdown {
  /** Per payment method type: payments that finished (approved, voided or failed) and those approved (captured or authorized). */
  methods: Array<{ method: string; finished: number; approved: number }>;
  /** Failed payments per decline code (the processor's, else the failure code). */
  declines: Array<{ code: string; count: number }>;
  /** Payments per 3-D Secure status (`not_requested` when none ran). */
  threeDSecure: Array<{ status: string; count: number }>;
}

/** Sessions exposed to one experiment's variant in a period, and how many of them converted. */
export interface ExposureCounts {
  experimentId: string;
  variant: string;
  exposed: number;
  conversions: number;
}

export type MemberWithUser = Membership & { email: string; name: string };
export type MembershipWithAccount = Membership & { accountName: string; defaultCurrency: string };

/** The repositories the dashboard and its audit log add to the unit of work. */
export interface TeamRepositories {
  users: {
    insert(user: User): Promise<void>;
    get(id: string): Promise<User | null>;
    getByEmail(email: string): Promise<User | null>;
  };
  memberships: {
    insert(membership: Membership): Promise<void>;
    get(accountId: string, userId: string, options?: { forUpdate?: boolean }): Promise<Membership | null>;
    listForUser(userId: string): Promise<MembershipWithAccount[]>;
    listForAccount(accountId: string): Promise<MemberWithUser[]>;
    updateRole(accountId: string, userId: string, role: Role): Promise<void>;
    delete(accountId: string, userId: string): Promise<void>;
    /** Locks the account's owner rows, so two requests cannot both remove "the other" owner. */
    ownersForUpdate(accountId: string): Promise<string[]>;
  };
  dashboardSessions: {
    insert(session: DashboardSession): Promise<void>;
    getByTokenHash(hash: string): Promise<DashboardSession | null>;
    extend(id: string, expiresAt: Date): Promise<void>;
    delete(id: string): Promise<void>;
  };
  invites: {
    insert(invite: Invite): Promise<void>;
    getByTokenHash(hash: string, options?: { forUpdate?: boolean }): Promise<Invite | null>;
    accept(id: string, userId: string, at: Date): Promise<void>;
    listPending(accountId: string, at: Date): Promise<Invite[]>;
    /** False when there is no such pending invite in the account. */
    revoke(accountId: string, id: string, at: Date): Promise<boolean>;
  };
  signInFailures: {
    record(subjects: string[], at: Date): Promise<void>;
    /** Failure times of a subject (`email:…`, `ip:…`) since `from`, oldest first. */
    since(subject: string, from: Date): Promise<Date[]>;
    clear(subject: string): Promise<void>;
  };
  auditLog: {
    insert(entry: AuditEntry): Promise<void>;
    list(accountId: string, page: PageRequest): Promise<AuditEntry[]>;
  };
  apiRequests: {
    /** Inserts and keeps only the newest `keep` records of the scope. */
    insert(record: ApiRequestRecord, keep: number): Promise<void>;
    /**
     * Inserts a batch in one statement (skipping records whose account no longer exists) and keeps
     * only the newest `keep` records of each scope it touched: newest in the order written, the
     * batch's records in their order. Safe with batches from several instances at once.
     */
    insertMany(records: ApiRequestRecord[], keep: number): Promise<void>;
    /** Newest first, in the order written (as `insertMany` keeps them). */
    list(scope: Scope, page: PageRequest): Promise<ApiRequestRecord[]>;
    /** The newest `limit` records whose path names one of the ids (`/v1/payments/pay_…/refunds`), newest first. */
    listTouching(scope: Scope, objectIds: readonly string[], limit: number): Promise<ApiRequestRecord[]>;
  };
  accountProfiles: {
    update(account: Account): Promise<void>;
  };
  dashboardSearch: {
    payments(scope: Scope, filter: PaymentFilter): Promise<Payment[]>;
    checkoutSessions(scope: Scope, filter: CheckoutSessionFilter): Promise<CheckoutSession[]>;
    dailyPayments(scope: Scope, from: Date, before: Date): Promise<DailyPayments[]>;
    funnel(scope: Scope, from: Date, before: Date): Promise<CheckoutFunnel>;
    paymentBreakdown(scope: Scope, from: Date, before: Date): Promise<PaymentBreakdown>;
    /** Exposures made in the period, per experiment of the scope and variant. */
    exposureCounts(scope: Scope, from: Date, before: Date): Promise<ExposureCounts[]>;
    /** The search box: up to `limit` newest hits of each kind asked for. */
    everywhere(scope: Scope, kinds: readonly SearchKind[], terms: SearchTerms, limit: number): Promise<SearchHit[]>;
    /** `GET /v1/payments/search`: payments matching every clause, newest first. */
    paymentsByQuery(scope: Scope, clauses: readonly PaymentSearchClause[], page: PageRequest): Promise<Payment[]>;
  };
}

export interface AccountRepository {
  insert(account: Account): Promise<void>;
  get(id: string): Promise<Account | null>;
  count(): Promise<number>;
  /** Every account of the install, oldest first (the operator's view; no request reaches it). */
  list(): Promise<Account[]>;
}

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  findBySecretHash(hash: string): Promise<ApiKey | null>;
  markUsed(id: string, at: Date): Promise<void>;
  /** The scope's keys, newest first, revoked ones included. */
  list(scope: Scope): Promise<ApiKey[]>;
  /** The scope's key with this id, revoked or not. */
  get(scope: Scope, id: string): Promise<ApiKey | null>;
  /** False when the scope has no such unrevoked key. */
  rename(scope: Scope, id: string, name: string): Promise<boolean>;
  /** Replaces a restricted key's grants; false when the scope has no such unrevoked restricted key. */
  setPermissions(scope: Scope, id: string, permissions: ApiKeyPermissions): Promise<boolean>;
  /** Sets when the key stops working (an earlier expiry already set is kept); false when the scope has no such unrevoked key. */
  expire(scope: Scope, id: string, at: Date): Promise<boolean>;
  /** False when the scope has no such unrevoked key. */
  revoke(scope: Scope, id: string, at: Date): Promise<boolean>;
}
