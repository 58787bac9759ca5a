import type { UnitOfWork } from '../../../domain/deps';
import { scopedListQuery } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { toRefund, type Row } from '../../rows';

/** Refunds: pending until the processor answers, updated on their expected status. */
export function refundRepositories(db: SqlExecutor): Pick<UnitOfWork, 'refunds'> {
  return {
    refunds: {
      async insert(r) {
        await db.query(
          `INSERT INTO refunds (id, account_id, mode, payment_id, amount, currency, reason, status, created_by, failure_reason, processor_refund_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [
            r.id,
            r.accountId,
            r.mode,
            r.paymentId,
            r.amount,
            r.currency,
            r.reason,
            r.status,
            r.createdBy,
            r.failureReason,
            r.processorRefundId,
            r.createdAt,
            r.updatedAt,
          ],
        );
      },
      async get(scope, id) {
        const params: unknown[] = [id];
        let sql = 'SELECT * FROM refunds WHERE id = $1';
        if (scope) {
          params.push(scope.accountId, scope.mode);
          sql += ' AND account_id = $2 AND mode = $3';
        }
        const { rows } = await db.query<Row>(sql, params);
        return rows[0] ? toRefund(rows[0]) : null;
      },
      async update(r, expectedStatus) {
        const { rowCount } = await db.query(
          `UPDATE refunds SET status = $3, failure_reason = $4, processor_refund_id = $5, updated_at = $6
            WHERE id = $1 AND status = $2`,
          [r.id, expectedStatus, r.status, r.failureReason, r.processorRefundId, r.updatedAt],
        );
        return rowCount === 1;
      },
      async pendingAmount(paymentId) {
        const { rows } = await db.query<Row>(`SELECT COALESCE(sum(amount), 0) AS total FROM refunds WHERE payment_id = $1 AND status = 'pending'`, [paymentId]);
        return Number(rows[0]!.total);
      },
      async list(scope, filter) {
        const query = scopedListQuery('refunds', scope, filter, filter.paymentId ? [{ column: 'payment_id', value: filter.paymentId }] : []);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows.map(toRefund);
      },
    },
  };
}
