import type { SqlClient } from '../../sql-client';
import type { SandboxLocalPayment, SandboxLocalPaymentLedger } from '../../../domain/processors/sandbox-ports';
import { dateOrNull, num, type Row } from '../../rows';

function toLocalPayment(row: Row): SandboxLocalPayment {
  return {
    id: row.id,
    scope: { accountId: row.account_id, mode: row.mode },
    paymentMethodType: row.payment_method_type,
    amount: num(row.amount),
    currency: row.currency,
    status: row.status,
    bic: row.bic,
    ibanLast4: row.iban_last4,
    completesAt: dateOrNull(row.completes_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** The test processor's local payments, beside its transactions in the shared database. */
export function sqlSandboxLocalPaymentLedger(db: SqlClient): SandboxLocalPaymentLedger {
  return {
    async insert(p) {
      await db.query(
        `INSERT INTO test_processor_local_payments (id, account_id, mode, payment_method_type, amount, currency, status, bic, iban_last4,
           completes_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          p.id,
          p.scope.accountId,
          p.scope.mode,
          p.paymentMethodType,
          p.amount,
          p.currency,
          p.status,
          p.bic,
          p.ibanLast4,
          p.completesAt,
          p.createdAt,
          p.updatedAt,
        ],
      );
    },
    async get(id) {
      const { rows } = await db.query<Row>('SELECT * FROM test_processor_local_payments WHERE id = $1', [id]);
      return rows[0] ? toLocalPayment(rows[0]) : null;
    },
    async answer(id, answer, at) {
      const { rowCount } =
        answer.status === 'approved'
          ? await db.query(
              `UPDATE test_processor_local_payments SET status = 'approved', completes_at = $2, bic = $3, iban_last4 = $4, updated_at = $5
                WHERE id = $1 AND status = 'pending'`,
              [id, answer.completesAt, answer.bic, answer.ibanLast4, at],
            )
          : await db.query(`UPDATE test_processor_local_payments SET status = 'failed', updated_at = $2 WHERE id = $1 AND status = 'pending'`, [id, at]);
      return rowCount === 1;
    },
    async takeDue(at, limit) {
      // Claimed by one statement: of instances running this at once, each payment goes to one.
      const { rows } = await db.query<Row>(
        `UPDATE test_processor_local_payments SET status = 'completed', updated_at = $1
          WHERE id IN (SELECT id FROM test_processor_local_payments WHERE status = 'approved' AND completes_at <= $1
                        ORDER BY completes_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING *`,
        [at, limit],
      );
      return rows.map(toLocalPayment).sort((a, b) => (a.completesAt?.getTime() ?? 0) - (b.completesAt?.getTime() ?? 0));
    },
  };
}
