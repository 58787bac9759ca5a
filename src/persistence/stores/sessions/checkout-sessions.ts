import type { CheckoutSession } from '../../../domain/sessions/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { write, type SqlExecutor } from '../../sql-client';
import { scopedListQuery } from '../../list-query';
import { assignments, json, placeholders, scopeClause, toSession } from '../../rows';

export const sessionColumns = [
  'status', 'currency', 'line_items', 'amount_subtotal', 'amount_total', 'customer_email', 'success_url',
  'cancel_url', 'capture_method', 'payment_method_types', 'locale', 'metadata', 'client_reference_id',
  'payment_link_id', 'expires_at', 'completed_at', 'payment_id', 'updated_at',
] as const;

export function sessionValues(s: CheckoutSession): unknown[] {
  return [
    s.status, s.currency, json(s.lineItems), s.amountSubtotal, s.amountTotal, s.customerEmail, s.successUrl,
    s.cancelUrl, s.captureMethod, json(s.paymentMethodTypes), s.locale, json(s.metadata), s.clientReferenceId,
    s.paymentLinkId, s.expiresAt, s.completedAt, s.paymentId, s.updatedAt,
  ];
}

const insertSessionSql = `INSERT INTO checkout_sessions (id, account_id, mode, created_at, ${sessionColumns.join(', ')})
  VALUES ($1, $2, $3, $4, ${placeholders(5, sessionColumns.length)})`;

/** Checkout sessions (the insert is a held write: see write-batch.ts). */
export function checkoutSessionRepositories(db: SqlExecutor): Pick<UnitOfWork, 'checkoutSessions'> {
  return {
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
  };
}
