import type { UnitOfWork } from '../../../domain/deps';
import { scopedListQuery } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { refunds } from '../../../domain/payments/entities';
import { assignments, fieldValues, placeholders, toRefund, type Row } from '../../rows';
import { columnsOf } from '../../resource-rows';

/** A refund's row is written as its definition says (resource-rows.ts). */
const refundFields = columnsOf(refunds);
const refundUpdates = columnsOf(refunds, 'updated');
const insertRefund = `INSERT INTO ${refunds.table} (${refundFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, refundFields.length)})`;
const updateRefund = `UPDATE ${refunds.table} SET ${assignments(
  refundUpdates.map(([column]) => column),
  3,
)} WHERE id = $1 AND status = $2`;

/** Refunds: pending until the processor answers, updated on their expected status. */
export function refundRepositories(db: SqlExecutor): Pick<UnitOfWork, 'refunds'> {
  return {
    refunds: {
      async insert(r) {
        await db.query(insertRefund, fieldValues(refundFields, r));
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
        const { rowCount } = await db.query(updateRefund, [r.id, expectedStatus, ...fieldValues(refundUpdates, r)]);
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
