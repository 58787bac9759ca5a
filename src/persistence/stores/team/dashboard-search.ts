import type { Payment } from '../../../domain/payments/entities';
import type { CheckoutSession } from '../../../domain/sessions/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { statusOfBadge, type PaymentStatusBadge } from '../../../domain/payments/status-badge';
import type { SqlExecutor } from '../../sql-client';
import { Query, scoped } from '../../list-query';
import { toPayment, toSession, type Row } from '../../rows';

/** The dashboard's searches and charts over payments and checkout sessions. */
export function dashboardSearchRepositories(db: SqlExecutor): Pick<UnitOfWork, 'dashboardSearch'> {
  return {
    dashboardSearch: {
      async payments(scope, f): Promise<Payment[]> {
        const q = new Query();
        const scopeSql = scoped(q, scope);
        if (f.statuses?.length) filterByBadge(q, f.statuses);
        if (f.createdFrom) q.where(`created_at >= ${q.param(f.createdFrom)}`);
        if (f.createdBefore) q.where(`created_at < ${q.param(f.createdBefore)}`);
        if (f.amountMin !== undefined) q.where(`amount >= ${q.param(f.amountMin)}`);
        if (f.amountMax !== undefined) q.where(`amount <= ${q.param(f.amountMax)}`);
        if (f.email) q.where(`lower(customer_email) = ${q.param(f.email.toLowerCase())}`);
        if (f.last4) q.where(`payment_method->>'last4' = ${q.param(f.last4)}`);
        if (f.id) {
          const id = q.param(f.id);
          q.where(`(id = ${id} OR checkout_session_id = ${id})`);
        }
        q.after('payments', 'created_at', f.startingAfter, scopeSql);
        const { rows } = await db.query<Row>(
          `SELECT * FROM payments WHERE ${q.sql} ORDER BY created_at DESC, id DESC LIMIT ${q.param(f.limit)}`,
          q.params,
        );
        return rows.map(toPayment);
      },
      async checkoutSessions(scope, f): Promise<CheckoutSession[]> {
        const q = new Query();
        const scopeSql = scoped(q, scope);
        if (f.status) q.where(`status = ${q.param(f.status)}`);
        q.after('checkout_sessions', 'created_at', f.startingAfter, scopeSql);
        const { rows } = await db.query<Row>(
          `SELECT * FROM checkout_sessions WHERE ${q.sql} ORDER BY created_at DESC, id DESC LIMIT ${q.param(f.limit)}`,
          q.params,
        );
        return rows.map(toSession);
      },
      async dailyPayments(scope, from, before) {
        const { rows } = await db.query<Row>(
          `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency,
                  count(*) FILTER (WHERE status = 'succeeded') AS succeeded,
                  count(*) FILTER (WHERE status = 'requires_capture') AS authorized,
                  count(*) FILTER (WHERE status = 'failed') AS failed,
                  coalesce(sum(amount_captured) FILTER (WHERE status = 'succeeded'), 0) AS captured,
                  coalesce(sum(amount_refunded) FILTER (WHERE status = 'succeeded'), 0) AS refunded,
                  coalesce(sum(amount) FILTER (WHERE status = 'requires_capture'), 0) AS authorized_amount
           FROM payments
           WHERE account_id = $1 AND mode = $2 AND created_at >= $3 AND created_at < $4
             AND status IN ('succeeded', 'requires_capture', 'failed')
           GROUP BY 1, 2 ORDER BY 1, 2`,
          [scope.accountId, scope.mode, from, before],
        );
        return rows.map((row) => ({
          day: row.day,
          currency: row.currency,
          succeeded: Number(row.succeeded),
          authorized: Number(row.authorized),
          failed: Number(row.failed),
          captured: Number(row.captured),
          refunded: Number(row.refunded),
          authorizedAmount: Number(row.authorized_amount),
        }));
      },
      async funnel(scope, from, before) {
        const { rows } = await db.query<Row>(
          `SELECT count(*) AS opened,
                  count(*) FILTER (WHERE EXISTS (SELECT 1 FROM payments p WHERE p.checkout_session_id = s.id)) AS attempted,
                  count(*) FILTER (WHERE s.status = 'complete') AS paid
           FROM checkout_sessions s WHERE s.account_id = $1 AND s.mode = $2 AND s.created_at >= $3 AND s.created_at < $4`,
          [scope.accountId, scope.mode, from, before],
        );
        const row = rows[0]!;
        return { opened: Number(row.opened), attempted: Number(row.attempted), paid: Number(row.paid) };
      },
    },
  };
}

const refundBadges: readonly PaymentStatusBadge[] = ['succeeded', 'partially_refunded', 'refunded'];

/** `refundBadge` (src/domain/payments/status-badge.ts) in SQL, for a succeeded payment's row. */
const refundBadgeSql = `CASE WHEN amount_refunded <= 0 THEN 'succeeded' WHEN amount_refunded < amount_captured THEN 'partially_refunded' ELSE 'refunded' END`;

/**
 * Payments whose badge is one of `badges`: by lifecycle status (so the status indexes serve it),
 * and, for succeeded payments when only some of their badges are asked for, by what was refunded.
 */
function filterByBadge(q: Query, badges: readonly PaymentStatusBadge[]) {
  q.where(`status = ANY(${q.param([...new Set(badges.map(statusOfBadge))])}::text[])`);
  const ofSucceeded = refundBadges.filter((badge) => badges.includes(badge));
  if (ofSucceeded.length > 0 && ofSucceeded.length < refundBadges.length) {
    q.where(`(status <> 'succeeded' OR ${refundBadgeSql} = ANY(${q.param(ofSucceeded)}::text[]))`);
  }
}
