import type { Payment } from '../../../domain/payments/entities';
import { SessionBusyError } from '../../../domain/payments/ports';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { scopedListQuery } from '../../list-query';
import { assignments, isUniqueViolation, json, placeholders, scopeClause, toPayment } from '../../rows';
import { sessionColumns, sessionValues } from '../sessions/checkout-sessions';
import { eventWithDeliveriesCtes } from '../webhooks/endpoints-and-deliveries';

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

/** Payments: at most one holding a session (the one-payment index decides), updated on their expected status. */
export function paymentRepositories(db: SqlExecutor): Pick<UnitOfWork, 'payments'> {
  return {
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
      async recordOutcome({ payment, expectedStatus, event, session }) {
        const params: unknown[] = [];
        const param = (value: unknown) => `$${params.push(value)}`;
        const set = (columns: readonly string[], values: unknown[]) => columns.map((c, i) => `${c} = ${param(values[i])}`).join(', ');
        const ctes: string[] = [];
        // The session first, locked as the intent locks it (session, then payment: no deadlock), and
        // only as it was read. The payment moves only under that lock; the session, the exposures and
        // the session's event only when the payment moved. A CTE that matches nothing writes nothing.
        let sessionId = '';
        if (session) {
          sessionId = param(session.expected.id);
          const status = param(session.expected.status);
          ctes.push(`locked AS MATERIALIZED (
             SELECT id FROM checkout_sessions WHERE id = ${sessionId} AND status = ${status} AND updated_at = ${param(session.expected.updatedAt)} FOR UPDATE)`);
          ctes.push(`moved AS (
             UPDATE payments SET ${set(paymentColumns, paymentValues(payment))}
              WHERE id = ${param(payment.id)} AND status = ${param(expectedStatus)} AND EXISTS (SELECT 1 FROM locked) RETURNING id)`);
          ctes.push(`completed AS (
             UPDATE checkout_sessions SET ${set(sessionColumns, sessionValues(session.next))}
              WHERE id = ${sessionId} AND status = ${status} AND EXISTS (SELECT 1 FROM moved) RETURNING id)`);
        } else {
          ctes.push(`moved AS (
             UPDATE payments SET ${set(paymentColumns, paymentValues(payment))}
              WHERE id = ${param(payment.id)} AND status = ${param(expectedStatus)} RETURNING id)`);
        }
        if (event) ctes.push(eventWithDeliveriesCtes(event, 'moved', param, 'payment_event'));
        if (session) {
          ctes.push(`converted AS (
             UPDATE experiment_exposures SET converted_at = ${param(session.convertedAt)}
              WHERE checkout_session_id = ${sessionId} AND converted_at IS NULL AND EXISTS (SELECT 1 FROM completed))`);
          if (session.event) ctes.push(eventWithDeliveriesCtes(session.event, 'completed', param, 'session_event'));
        }
        // A payment that moved without its session (which the lock rules out) divides by zero: the
        // statement fails and writes nothing, rather than leave a won payment's session open.
        const { rows } = await db.query<{ moved: unknown }>(
          `WITH ${ctes.join(',\n     ')}
           SELECT ${session ? '(SELECT count(*) FROM moved) / (1 - (SELECT count(*) FROM moved) + (SELECT count(*) FROM completed))' : '(SELECT count(*) FROM moved)'} AS moved`,
          params,
        );
        return Number(rows[0]!.moved) === 1;
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
  };
}
