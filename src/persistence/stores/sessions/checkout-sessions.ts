import type { CheckoutSession } from '../../../domain/sessions/entities';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { auditFields } from '../team/audit-log';
import { runShared, type SharedStatement } from '../../shared-statement';
import type { AuditEntry } from '../../../domain/team/entities';
import { scopedListQuery } from '../../list-query';
import { assignments, fieldValues, record, recordPart, recordSet, scopeClause, toSession, type Field, type Row } from '../../rows';

/** The columns a session's writes set, in this order. */
export const sessionFields: readonly Field<CheckoutSession>[] = [
  ['status', 'text', (s) => s.status],
  ['currency', 'text', (s) => s.currency],
  ['line_items', 'jsonb', (s) => s.lineItems],
  ['amount_subtotal', 'bigint', (s) => s.amountSubtotal],
  ['amount_total', 'bigint', (s) => s.amountTotal],
  ['customer_id', 'text', (s) => s.customerId],
  ['customer_creation', 'text', (s) => s.customerCreation],
  ['payment_method_save', 'text', (s) => s.paymentMethodSave],
  ['customer_email', 'text', (s) => s.customerEmail],
  ['success_url', 'text', (s) => s.successUrl],
  ['cancel_url', 'text', (s) => s.cancelUrl],
  ['capture_method', 'text', (s) => s.captureMethod],
  ['payment_method_types', 'jsonb', (s) => s.paymentMethodTypes],
  ['locale', 'text', (s) => s.locale],
  ['metadata', 'jsonb', (s) => s.metadata],
  ['client_reference_id', 'text', (s) => s.clientReferenceId],
  ['payment_link_id', 'text', (s) => s.paymentLinkId],
  ['expires_at', 'timestamptz', (s) => s.expiresAt],
  ['completed_at', 'timestamptz', (s) => s.completedAt],
  ['payment_id', 'text', (s) => s.paymentId],
  ['updated_at', 'timestamptz', (s) => s.updatedAt],
  // Shop options (migration 0028).
  ['total_details', 'jsonb', (s) => s.totalDetails],
  ['allow_promotion_codes', 'boolean', (s) => s.allowPromotionCodes],
  ['discounts', 'jsonb', (s) => s.discounts],
  ['shipping_options', 'jsonb', (s) => s.shippingOptions],
  ['shipping_rate_id', 'text', (s) => s.shippingRateId],
  // Setup mode (migration 0031).
  ['purpose', 'text', (s) => s.purpose],
  ['setup_payment_method_id', 'text', (s) => s.setupPaymentMethodId],
  // CVC recollection (migration 0038).
  ['require_cvc_recollection', 'boolean', (s) => s.requireCvcRecollection],
  // Addresses (migration 0034).
  ['billing_address_collection', 'text', (s) => s.billingAddressCollection],
  ['shipping_address_collection', 'jsonb', (s) => s.shippingAddressCollection],
  ['shipping_details', 'jsonb', (s) => s.shippingDetails],
  ['billing_address', 'jsonb', (s) => s.billingAddress],
  // Custom fields and embedded mode (migration 0035).
  ['custom_fields', 'jsonb', (s) => s.customFields],
  ['ui_mode', 'text', (s) => s.uiMode],
  ['return_url', 'text', (s) => s.returnUrl],
  ['client_secret', 'text', (s) => s.clientSecret],
];

const sessionColumns = sessionFields.map(([column]) => column);

export function sessionValues(s: CheckoutSession): unknown[] {
  return fieldValues(sessionFields, s);
}

/** What a session is created with, besides `sessionFields`. */
const createdFields: readonly Field<CheckoutSession>[] = [
  ['id', 'text', (s) => s.id],
  ['account_id', 'text', (s) => s.accountId],
  ['mode', 'text', (s) => s.mode],
  ['created_at', 'timestamptz', (s) => s.createdAt],
];
const newSessionFields = [...createdFields, ...sessionFields];

type NewSession = { session: CheckoutSession; audit?: AuditEntry | null };

/** A new session's record: the session, then its audit line (`a_…`; nulls without one). */
const newSessionRecord = record(
  recordPart(newSessionFields, '', ({ session }: NewSession) => session),
  recordPart(auditFields, 'a_', ({ audit }: NewSession) => audit),
);
const newSessionColumns = newSessionFields.map(([column]) => column);
const auditColumns = auditFields.map(([column]) => column);

/**
 * New sessions, each with its audit line when it has one, those created at once in one statement
 * (shared-statement.ts). New rows lock nothing another holds, so alone it is the same statement;
 * one that breaks a constraint fails the statement, and each member is then sent alone.
 */
const insertsSql = `WITH m AS MATERIALIZED (${recordSet(newSessionRecord.columns)}),
   sessions AS (
     INSERT INTO checkout_sessions (${newSessionColumns.join(', ')})
     SELECT ${newSessionColumns.map((column) => `m.${column}`).join(', ')} FROM m),
   audit AS (
     INSERT INTO audit_log (${auditColumns.join(', ')})
     SELECT ${auditColumns.map((column) => `m.a_${column}`).join(', ')} FROM m WHERE m.a_id IS NOT NULL)
   SELECT n FROM m`;

const inserts: SharedStatement<NewSession, void> = {
  shared: insertsSql,
  alone: insertsSql,
  key: ({ session }) => session.id,
  member: newSessionRecord.values,
  answer: () => undefined,
};

/**
 * Sessions read by id outside a transaction (paying reads its session so, as the page does), those
 * read at once in one statement. A member whose session does not exist gets a row of nulls.
 */
const byIdSql = `WITH m AS MATERIALIZED (${recordSet([['id', 'text']])})
   SELECT m.n, s.* FROM m LEFT JOIN checkout_sessions s ON s.id = m.id AND s.id = ANY (ARRAY(SELECT id FROM m))`;

const byId: SharedStatement<string, Row | null> = {
  shared: byIdSql,
  alone: byIdSql,
  key: (id) => id,
  member: (id) => JSON.stringify(id),
  answer: (row) => (row.id === null ? null : row),
  read: true,
};

/** Checkout sessions. */
export function checkoutSessionRepositories(db: SqlExecutor): Pick<UnitOfWork, 'checkoutSessions'> {
  return {
    checkoutSessions: {
      insert: (session, audit) => runShared(db, inserts, { session, audit }),
      async get(scope, id, options = {}) {
        if (!scope && !options.forUpdate) {
          const row = await runShared(db, byId, id);
          return row ? toSession(row) : null;
        }
        const scoped = scopeClause(scope, 2);
        const { rows } = await db.query(`SELECT * FROM checkout_sessions WHERE id = $1${scoped.sql}${options.forUpdate ? ' FOR UPDATE' : ''}`, [
          id,
          ...scoped.params,
        ]);
        return rows[0] ? toSession(rows[0]) : null;
      },
      async update(s, expectedStatus) {
        const values = sessionValues(s);
        const { rowCount } = await db.query(`UPDATE checkout_sessions SET ${assignments(sessionColumns, 3)} WHERE id = $1 AND status = $2`, [
          s.id,
          expectedStatus,
          ...values,
        ]);
        return rowCount === 1;
      },
      async listOpenExpiredBefore(at, limit) {
        const { rows } = await db.query(`SELECT * FROM checkout_sessions WHERE status = 'open' AND expires_at <= $1 ORDER BY expires_at LIMIT $2`, [at, limit]);
        return rows.map(toSession);
      },
      async list(scope, page) {
        const query = scopedListQuery('checkout_sessions', scope, page);
        const { rows } = await db.query(query.text, query.params);
        return rows.map(toSession);
      },
    },
  };
}
