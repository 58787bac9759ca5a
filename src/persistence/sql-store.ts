import type { Payment } from '../domain/payments/entities';
import type { DomainEvent } from '../domain/shared/events';
import { type Store, type UnitOfWork } from '../domain/deps';
import { flagStores } from './flag-store';
import { write, type SqlClient, type SqlExecutor } from './sql-client';
import { insertEventWithDeliveries, webhookDeliveryRepository, webhookEndpointRepository } from './webhook-store';
import { scopedGetQuery, scopedListQuery, type ListFilter } from './list-query';
import { lifecycleUnitOfWork } from './sql-lifecycle-store';
import { teamRepositories } from './sql-team-store';
import { operationsInFlightRepository } from './sql-operations-in-flight-store';
import { checkoutPageIntegrityRepository } from './checkout-page-integrity-store';
import type { Scope } from '../domain/shared/scope';
import { SessionBusyError } from '../domain/payments/ports';
import type { Account, ApiKey } from '../domain/team/entities';
import type { CheckoutSession, PaymentLink } from '../domain/sessions/entities';
import type { SandboxNonceRecord, SandboxNonceVault } from '../domain/processors/sandbox-ports';

type Row = Record<string, any>;

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
const num = (value: unknown) => Number(value);
const dateOrNull = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

function scopeClause(scope: Scope | null, firstParam: number): { sql: string; params: unknown[] } {
  if (!scope) return { sql: '', params: [] };
  return { sql: ` AND account_id = $${firstParam} AND mode = $${firstParam + 1}`, params: [scope.accountId, scope.mode] };
}

function toAccount(row: Row): Account {
  return {
    id: row.id,
    name: row.name,
    defaultCurrency: row.default_currency,
    branding: { displayName: row.display_name, logoUrl: row.logo_url, accentColor: row.accent_color },
    supportEmail: row.support_email,
    createdAt: new Date(row.created_at),
  };
}

export function toApiKey(row: Row): ApiKey {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    kind: row.kind,
    prefix: row.prefix,
    secretHash: row.secret_hash,
    last4: row.last4,
    createdAt: new Date(row.created_at),
    lastUsedAt: dateOrNull(row.last_used_at),
    revokedAt: dateOrNull(row.revoked_at),
  };
}

export function toSession(row: Row): CheckoutSession {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    status: row.status,
    currency: row.currency,
    lineItems: row.line_items,
    amountSubtotal: num(row.amount_subtotal),
    amountTotal: num(row.amount_total),
    customerEmail: row.customer_email,
    successUrl: row.success_url,
    cancelUrl: row.cancel_url,
    captureMethod: row.capture_method,
    paymentMethodTypes: row.payment_method_types,
    locale: row.locale,
    metadata: row.metadata,
    clientReferenceId: row.client_reference_id,
    paymentLinkId: row.payment_link_id,
    expiresAt: new Date(row.expires_at),
    completedAt: dateOrNull(row.completed_at),
    paymentId: row.payment_id,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export function toPayment(row: Row): Payment {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    checkoutSessionId: row.checkout_session_id,
    amount: num(row.amount),
    currency: row.currency,
    status: row.status,
    captureMethod: row.capture_method,
    amountCaptured: num(row.amount_captured),
    amountRefunded: num(row.amount_refunded),
    customerEmail: row.customer_email,
    paymentMethod: row.payment_method,
    processor: row.processor,
    processorTransactionId: row.processor_transaction_id,
    processorResponse: row.processor_response,
    failureCode: row.failure_code,
    declineCode: row.decline_code,
    threeDSecure: row.three_d_secure,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function toPaymentLink(row: Row): PaymentLink {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    slug: row.slug,
    currency: row.currency,
    lineItems: row.line_items,
    active: row.active,
    createdAt: new Date(row.created_at),
  };
}

function toEvent(row: Row): DomainEvent {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    type: row.type,
    objectId: row.object_id,
    data: row.data,
    createdAt: new Date(row.created_at),
  };
}

const placeholders = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

const sessionColumns = [
  'status', 'currency', 'line_items', 'amount_subtotal', 'amount_total', 'customer_email', 'success_url',
  'cancel_url', 'capture_method', 'payment_method_types', 'locale', 'metadata', 'client_reference_id',
  'payment_link_id', 'expires_at', 'completed_at', 'payment_id', 'updated_at',
] as const;

function sessionValues(s: CheckoutSession): unknown[] {
  return [
    s.status, s.currency, json(s.lineItems), s.amountSubtotal, s.amountTotal, s.customerEmail, s.successUrl,
    s.cancelUrl, s.captureMethod, json(s.paymentMethodTypes), s.locale, json(s.metadata), s.clientReferenceId,
    s.paymentLinkId, s.expiresAt, s.completedAt, s.paymentId, s.updatedAt,
  ];
}

const insertSessionSql = `INSERT INTO checkout_sessions (id, account_id, mode, created_at, ${sessionColumns.join(', ')})
  VALUES ($1, $2, $3, $4, ${placeholders(5, sessionColumns.length)})`;

const paymentColumns = [
  'status', 'amount_captured', 'amount_refunded', 'customer_email', 'payment_method', 'processor',
  'processor_transaction_id', 'processor_response', 'failure_code', 'decline_code', 'three_d_secure', 'updated_at',
] as const;

function paymentValues(p: Payment): unknown[] {
  return [
    p.status, p.amountCaptured, p.amountRefunded, p.customerEmail, json(p.paymentMethod), p.processor,
    p.processorTransactionId, json(p.processorResponse), p.failureCode, p.declineCode, json(p.threeDSecure), p.updatedAt,
  ];
}

const assignments = (columns: readonly string[], from: number) =>
  columns.map((column, i) => `${column} = $${from + i}`).join(', ');

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return e?.code === '23505' && (e.constraint === constraint || (e.message ?? '').includes(constraint));
}

type Repositories = (db: SqlExecutor) => object;

/**
 * A unit of work whose repositories are built on first use: a call touches two or three of the
 * dozens there are, and building them all (hundreds of closures) on every transaction was a
 * visible share of a merchant API call's CPU. Each group's keys are learnt once, up front.
 */
function lazyUnitOfWork(groups: Repositories[]): (db: SqlExecutor) => UnitOfWork {
  const probe: SqlExecutor = { query: () => Promise.reject(new Error('not a database')) };
  const prototype = {};
  groups.forEach((group, index) => {
    for (const key of Object.keys(group(probe))) {
      Object.defineProperty(prototype, key, {
        enumerable: true,
        get(this: { db: SqlExecutor; built: object[] }) {
          const built = (this.built[index] ??= group(this.db)) as Record<string, unknown>;
          return built[key];
        },
      });
    }
  });
  return (db) => Object.assign(Object.create(prototype) as UnitOfWork, { db, built: [] });
}

const otherRepositories = (db: SqlExecutor) => ({
  webhookEndpoints: webhookEndpointRepository(db),
  webhookDeliveries: webhookDeliveryRepository(db),
  operationsInFlight: operationsInFlightRepository(db),
  checkoutPage: checkoutPageIntegrityRepository(db),
});

/** The domain's unit of work over one SQL transaction. */
export const unitOfWork = lazyUnitOfWork([flagStores, teamRepositories, coreRepositories, lifecycleUnitOfWork, otherRepositories]);

// The groups together must be a whole unit of work (a compile-time check).
type Groups = ReturnType<typeof flagStores> &
  ReturnType<typeof teamRepositories> &
  ReturnType<typeof coreRepositories> &
  ReturnType<typeof lifecycleUnitOfWork> &
  ReturnType<typeof otherRepositories>;
type Whole<T extends UnitOfWork> = T;
export type SqlUnitOfWork = Whole<Groups>;

function coreRepositories(db: SqlExecutor) {
  return {
    accounts: {
      async insert(a) {
        await db.query(
          `INSERT INTO accounts (id, name, default_currency, display_name, logo_url, accent_color, support_email, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [a.id, a.name, a.defaultCurrency, a.branding.displayName, a.branding.logoUrl, a.branding.accentColor, a.supportEmail, a.createdAt],
        );
      },
      async get(id) {
        const { rows } = await db.query('SELECT * FROM accounts WHERE id = $1', [id]);
        return rows[0] ? toAccount(rows[0]) : null;
      },
      async count() {
        const { rows } = await db.query<{ n: unknown }>('SELECT count(*) AS n FROM accounts');
        return num(rows[0]?.n);
      },
    },
    apiKeys: {
      async insert(k) {
        await db.query(
          `INSERT INTO api_keys (id, account_id, mode, kind, prefix, secret_hash, last4, created_at, last_used_at, revoked_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [k.id, k.accountId, k.mode, k.kind, k.prefix, k.secretHash, k.last4, k.createdAt, k.lastUsedAt, k.revokedAt],
        );
      },
      async findBySecretHash(hash) {
        const { rows } = await db.query('SELECT * FROM api_keys WHERE secret_hash = $1', [hash]);
        return rows[0] ? toApiKey(rows[0]) : null;
      },
      async markUsed(id, at) {
        await db.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, at]);
      },
      async list(scope) {
        const { rows } = await db.query(
          'SELECT * FROM api_keys WHERE account_id = $1 AND mode = $2 ORDER BY created_at DESC, id DESC',
          [scope.accountId, scope.mode],
        );
        return rows.map(toApiKey);
      },
      async revoke(scope, id, at) {
        const { rowCount } = await db.query(
          'UPDATE api_keys SET revoked_at = $4 WHERE id = $1 AND account_id = $2 AND mode = $3 AND revoked_at IS NULL',
          [id, scope.accountId, scope.mode, at],
        );
        return rowCount === 1;
      },
    },
    checkoutSessions: {
      async insert(s) {
        // Held for the transaction's next statement or its commit (with its audit line, one statement).
        await write(db, {
          text: insertSessionSql,
          params: [s.id, s.accountId, s.mode, s.createdAt, ...sessionValues(s)],
          tables: ['checkout_sessions'],
        });
      },
      async get(scope, id, options = {}) {
        const scoped = scopeClause(scope, 2);
        const { rows } = await db.query(
          `SELECT * FROM checkout_sessions WHERE id = $1${scoped.sql}${options.forUpdate ? ' FOR UPDATE' : ''}`,
          [id, ...scoped.params],
        );
        return rows[0] ? toSession(rows[0]) : null;
      },
      async update(s, expectedStatus) {
        const values = sessionValues(s);
        const { rowCount } = await db.query(
          `UPDATE checkout_sessions SET ${assignments(sessionColumns, 3)} WHERE id = $1 AND status = $2`,
          [s.id, expectedStatus, ...values],
        );
        return rowCount === 1;
      },
      async listOpenExpiredBefore(at, limit) {
        const { rows } = await db.query(
          `SELECT * FROM checkout_sessions WHERE status = 'open' AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
          [at, limit],
        );
        return rows.map(toSession);
      },
      async list(scope, page) {
        const query = scopedListQuery('checkout_sessions', scope, page);
        const { rows } = await db.query(query.text, query.params);
        return rows.map(toSession);
      },
    },
    payments: {
      async insert(p) {
        let inserted: number;
        try {
          // A session that already holds a payment makes this insert a no-op, not an error, so the
          // transaction stays usable (PGlite refuses to commit one that saw an error).
          ({ rowCount: inserted } = await db.query(
            `INSERT INTO payments (id, account_id, mode, checkout_session_id, amount, currency, capture_method, created_at, ${paymentColumns.join(', ')})
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, ${placeholders(9, paymentColumns.length)})
             ON CONFLICT (checkout_session_id) WHERE status <> 'failed' DO NOTHING`,
            [p.id, p.accountId, p.mode, p.checkoutSessionId, p.amount, p.currency, p.captureMethod, p.createdAt, ...paymentValues(p)],
          ));
        } catch (error) {
          if (isUniqueViolation(error, 'payments_one_holding_per_session')) throw new SessionBusyError(p.checkoutSessionId);
          throw error;
        }
        if (inserted === 0) throw new SessionBusyError(p.checkoutSessionId);
      },
      async insertForOpenSession(p, at) {
        // The session's row lock, taken first as the transactional path takes it, serializes this
        // with an expiry or another attempt; the one-payment index decides a busy session.
        const { rows } = await db.query<{ open: unknown; inserted: unknown }>(
          // The session is found by its primary key alone, then checked: with the checks in the
          // WHERE, the planner may take another index of checkout_sessions and read many rows.
          `WITH locked AS (
             SELECT id, status, expires_at, account_id, mode, amount_total, currency, capture_method
               FROM checkout_sessions WHERE id = $4 FOR UPDATE),
           s AS (
             SELECT id FROM locked
              WHERE status = 'open' AND expires_at > $${9 + paymentColumns.length}
                AND account_id = $2 AND mode = $3 AND amount_total = $5 AND currency = $6 AND capture_method = $7),
           ins AS (
             INSERT INTO payments (id, account_id, mode, checkout_session_id, amount, currency, capture_method, created_at, ${paymentColumns.join(', ')})
             SELECT $1, $2, $3, s.id, $5, $6, $7, $8, ${placeholders(9, paymentColumns.length)} FROM s
             ON CONFLICT (checkout_session_id) WHERE status <> 'failed' DO NOTHING
             RETURNING id)
           SELECT (SELECT count(*) FROM s) AS open, (SELECT count(*) FROM ins) AS inserted`,
          [p.id, p.accountId, p.mode, p.checkoutSessionId, p.amount, p.currency, p.captureMethod, p.createdAt, ...paymentValues(p), at],
        );
        const { open, inserted } = rows[0]!;
        return Number(inserted) === 1 ? 'inserted' : Number(open) === 1 ? 'busy' : 'not_open';
      },
      async get(scope, id, options = {}) {
        const scoped = scopeClause(scope, 2);
        const { rows } = await db.query(
          `SELECT * FROM payments WHERE id = $1${scoped.sql}${options.forUpdate ? ' FOR UPDATE' : ''}`,
          [id, ...scoped.params],
        );
        return rows[0] ? toPayment(rows[0]) : null;
      },
      async listInStatusCreatedBefore(status, before, limit) {
        const { rows } = await db.query(
          'SELECT * FROM payments WHERE status = $1 AND created_at <= $2 ORDER BY created_at, id LIMIT $3',
          [status, before, limit],
        );
        return rows.map(toPayment);
      },
      async update(p, expectedStatus) {
        const { rowCount } = await db.query(
          `UPDATE payments SET ${assignments(paymentColumns, 3)} WHERE id = $1 AND status = $2`,
          [p.id, expectedStatus, ...paymentValues(p)],
        );
        return rowCount === 1;
      },
      async holdingSession(sessionId) {
        const { rows } = await db.query(
          `SELECT * FROM payments WHERE checkout_session_id = $1 AND status <> 'failed'`,
          [sessionId],
        );
        return rows[0] ? toPayment(rows[0]) : null;
      },
      async list(scope, filter) {
        const query = scopedListQuery(
          'payments',
          scope,
          filter,
          filter.checkoutSessionId ? [{ column: 'checkout_session_id', value: filter.checkoutSessionId }] : [],
        );
        const { rows } = await db.query(query.text, query.params);
        return rows.map(toPayment);
      },
    },
    paymentLinks: {
      async insert(l) {
        await db.query(
          `INSERT INTO payment_links (id, account_id, mode, slug, currency, line_items, active, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [l.id, l.accountId, l.mode, l.slug, l.currency, json(l.lineItems), l.active, l.createdAt],
        );
      },
      async getBySlug(slug) {
        const { rows } = await db.query('SELECT * FROM payment_links WHERE slug = $1', [slug]);
        return rows[0] ? toPaymentLink(rows[0]) : null;
      },
      async get(scope, id) {
        const query = scopedGetQuery('payment_links', scope, id);
        const { rows } = await db.query(query.text, query.params);
        return rows[0] ? toPaymentLink(rows[0]) : null;
      },
      async setActive(scope, id, active, at) {
        const { rows } = await db.query(
          `UPDATE payment_links SET active = $4, updated_at = $5 WHERE id = $1 AND account_id = $2 AND mode = $3 RETURNING *`,
          [id, scope.accountId, scope.mode, active, at],
        );
        return rows[0] ? toPaymentLink(rows[0]) : null;
      },
      async list(scope, page) {
        const query = scopedListQuery('payment_links', scope, page);
        const { rows } = await db.query(query.text, query.params);
        return rows.map(toPaymentLink);
      },
    },
    events: {
      async insert(e) {
        await insertEventWithDeliveries(db, e, json(e.data));
      },
      async listForObject(objectId) {
        const { rows } = await db.query('SELECT * FROM events WHERE object_id = $1 ORDER BY created_at, id', [objectId]);
        return rows.map(toEvent);
      },
      async get(scope, id) {
        const query = scopedGetQuery('events', scope, id);
        const { rows } = await db.query(query.text, query.params);
        return rows[0] ? toEvent(rows[0]) : null;
      },
      async list(scope, filter) {
        const filters: ListFilter[] = [];
        if (filter.type) filters.push({ column: 'type', value: filter.type });
        if (filter.createdGte) filters.push({ column: 'created_at', op: '>=', value: filter.createdGte });
        if (filter.createdLte) filters.push({ column: 'created_at', op: '<=', value: filter.createdLte });
        const query = scopedListQuery('events', scope, filter, filters);
        const { rows } = await db.query(query.text, query.params);
        return rows.map(toEvent);
      },
    },
  } satisfies Partial<UnitOfWork>;
}

/** The domain's `Store` over a SQL database. */
export function sqlStore(db: SqlClient): Store {
  const reader = unitOfWork(db);
  return { transaction: (work) => db.transaction((tx) => work(unitOfWork(tx))), read: (work) => work(reader), once: (work) => work(reader) };
}

/** The test processor's nonces, in the shared database so any instance can redeem them. */
export function sqlSandboxNonceVault(db: SqlClient): SandboxNonceVault {
  return {
    async save(record: SandboxNonceRecord) {
      await db.query(
        'INSERT INTO test_card_nonces (nonce, payment_method, behavior, created_at) VALUES ($1, $2, $3, $4)',
        [record.nonce, json(record.paymentMethod), record.behavior, record.createdAt],
      );
    },
    async take(nonce, at) {
      // Single use, like a Braintree nonce: the UPDATE claims it atomically; nonces live 3 hours.
      const { rows } = await db.query<Row>(
        `UPDATE test_card_nonces SET used_at = $2
         WHERE nonce = $1 AND used_at IS NULL AND created_at > $2::timestamptz - interval '3 hours'
         RETURNING *`,
        [nonce, at],
      );
      const row = rows[0];
      if (!row) return null;
      return { nonce: row.nonce, paymentMethod: row.payment_method, behavior: row.behavior, createdAt: new Date(row.created_at) };
    },
  };
}

/** A per-install secret (created once, shared by every instance through the database). */
export async function installSecret(db: SqlClient, key: string, create: () => string): Promise<string> {
  await db.query('INSERT INTO install_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, create()]);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM install_settings WHERE key = $1', [key]);
  return rows[0]!.value;
}
