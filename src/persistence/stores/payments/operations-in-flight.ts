import type { OperationInFlight, OperationsInFlightRepository } from '../../../domain/payments/ports';
import type { SqlExecutor } from '../../sql-client';
import { toRefund, type Row } from '../../rows';

function toOperation(row: Row): OperationInFlight {
  return {
    paymentId: row.payment_id,
    operation: row.operation,
    amount: row.amount === null ? null : Number(row.amount),
    startedAt: new Date(row.started_at),
  };
}

export function operationsInFlightRepository(db: SqlExecutor): OperationsInFlightRepository {
  return {
    async begin(operation) {
      const { rowCount } = await db.query(
        `INSERT INTO payment_operations_in_flight (payment_id, operation, amount, started_at)
         VALUES ($1, $2, $3, $4) ON CONFLICT (payment_id) DO NOTHING`,
        [operation.paymentId, operation.operation, operation.amount, operation.startedAt],
      );
      return rowCount === 1;
    },
    async finish(paymentId) {
      await db.query('DELETE FROM payment_operations_in_flight WHERE payment_id = $1', [paymentId]);
    },
    async listStartedBefore(before, limit) {
      const { rows } = await db.query<Row>('SELECT * FROM payment_operations_in_flight WHERE started_at < $1 ORDER BY started_at, payment_id LIMIT $2', [
        before,
        limit,
      ]);
      return rows.map(toOperation);
    },
    async listPendingRefundsCreatedBefore(before, limit) {
      const { rows } = await db.query<Row>(`SELECT * FROM refunds WHERE status = 'pending' AND created_at < $1 ORDER BY created_at, id LIMIT $2`, [
        before,
        limit,
      ]);
      return rows.map(toRefund);
    },
    async watchForLateAnswer(check) {
      await db.query(
        `INSERT INTO payment_late_answer_checks (payment_id, next_check_at, check_until) VALUES ($1, $2, $3)
         ON CONFLICT (payment_id) DO NOTHING`,
        [check.paymentId, check.nextCheckAt, check.checkUntil],
      );
    },
    async listLateAnswerChecksDue(now, limit) {
      const { rows } = await db.query<Row>('SELECT * FROM payment_late_answer_checks WHERE next_check_at <= $1 ORDER BY next_check_at, payment_id LIMIT $2', [
        now,
        limit,
      ]);
      return rows.map((row) => ({ paymentId: row.payment_id, nextCheckAt: new Date(row.next_check_at), checkUntil: new Date(row.check_until) }));
    },
    async rescheduleLateAnswerCheck(paymentId, nextCheckAt) {
      await db.query('UPDATE payment_late_answer_checks SET next_check_at = $2 WHERE payment_id = $1', [paymentId, nextCheckAt]);
    },
    async endLateAnswerCheck(paymentId) {
      await db.query('DELETE FROM payment_late_answer_checks WHERE payment_id = $1', [paymentId]);
    },
  };
}
