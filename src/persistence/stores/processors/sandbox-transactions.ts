import type { SqlClient } from '../../sql-client';
import type { SandboxTransaction, SandboxTransactionLedger } from '../../../domain/processors/sandbox-ports';
import { recordPart, recordSet, type Field, type Row } from '../../rows';
import { runShared, type SharedStatement } from '../../shared-statement';

function toTransaction(row: Row): SandboxTransaction {
  return {
    id: row.id,
    paymentId: row.payment_id,
    status: row.status,
    currency: row.currency,
    amountAuthorized: Number(row.amount_authorized),
    amountCaptured: Number(row.amount_captured),
    amountRefunded: Number(row.amount_refunded),
    authorization: row.authorization_result,
    settlesAt: row.settles_at === null ? null : new Date(row.settles_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** Raised inside the refund transaction to roll back its claim of the refund id. */
class RefundRefused extends Error {}

const transactionFields: readonly Field<SandboxTransaction>[] = [
  ['id', 'text', (t) => t.id],
  ['payment_id', 'text', (t) => t.paymentId],
  ['status', 'text', (t) => t.status],
  ['currency', 'text', (t) => t.currency],
  ['amount_authorized', 'bigint', (t) => t.amountAuthorized],
  ['amount_captured', 'bigint', (t) => t.amountCaptured],
  ['amount_refunded', 'bigint', (t) => t.amountRefunded],
  ['authorization_result', 'jsonb', (t) => t.authorization],
  ['settles_at', 'timestamptz', (t) => t.settlesAt],
  ['created_at', 'timestamptz', (t) => t.createdAt],
  ['updated_at', 'timestamptz', (t) => t.updatedAt],
];

const transactionRecord = recordPart(transactionFields, '', (t: SandboxTransaction) => t);
const transactionColumns = transactionFields.map(([column]) => column);

/**
 * New transactions, those of payments made at once in one statement (shared-statement.ts); one
 * that breaks a constraint fails the statement, and each is then sent alone.
 */
const insertsSql = `WITH m AS MATERIALIZED (${recordSet(transactionRecord.columns)}),
   inserted AS (
     INSERT INTO test_processor_transactions (${transactionColumns.join(', ')})
     SELECT ${transactionColumns.map((column) => `m.${column}`).join(', ')} FROM m)
   SELECT n FROM m`;

const inserts: SharedStatement<SandboxTransaction, void> = {
  shared: insertsSql,
  alone: insertsSql,
  key: (t) => t.id,
  member: transactionRecord.values,
  answer: () => undefined,
};

/** The test processor's transactions, in the shared database like every other instance's state. */
export function sqlSandboxTransactionLedger(db: SqlClient): SandboxTransactionLedger {
  return {
    insert: (t) => runShared(db, inserts, t),
    async get(id) {
      const { rows } = await db.query<Row>('SELECT * FROM test_processor_transactions WHERE id = $1', [id]);
      return rows[0] ? toTransaction(rows[0]) : null;
    },
    async findByPaymentId(paymentId) {
      const { rows } = await db.query<Row>('SELECT * FROM test_processor_transactions WHERE payment_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1', [
        paymentId,
      ]);
      return rows[0] ? toTransaction(rows[0]) : null;
    },
    async move(id, from, to, changes, at) {
      const { rowCount } = await db.query(
        `UPDATE test_processor_transactions
            SET status = $3,
                amount_captured = COALESCE($4::bigint, amount_captured),
                settles_at = CASE WHEN $5::boolean THEN $6::timestamptz ELSE settles_at END,
                updated_at = $7
          WHERE id = $1 AND status = ANY($2::text[])`,
        [id, [...from], to, changes.amountCaptured ?? null, 'settlesAt' in changes, changes.settlesAt ?? null, at],
      );
      return rowCount === 1;
    },
    async refundsOf(id) {
      const { rows } = await db.query<Row>('SELECT id, refund_id, amount FROM test_processor_refunds WHERE transaction_id = $1 ORDER BY created_at, id', [id]);
      return rows.map((row) => ({ refundId: row.refund_id, refundTransactionId: String(row.id), amount: Number(row.amount) }));
    },
    async settleDue(id, at) {
      await db.query(
        `UPDATE test_processor_transactions SET status = 'settled', updated_at = $2
          WHERE id = $1 AND status = 'submitted_for_settlement' AND settles_at <= $2`,
        [id, at],
      );
    },
    async refund(id, refund) {
      try {
        return await db.transaction(async (tx) => {
          const claimed = await tx.query<Row>(
            `INSERT INTO test_processor_refunds (id, transaction_id, refund_id, amount, created_at)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (refund_id) DO NOTHING RETURNING id`,
            [refund.refundTransactionId, id, refund.refundId, refund.amount, refund.at],
          );
          if (claimed.rowCount === 0) {
            const { rows } = await tx.query<Row>('SELECT id FROM test_processor_refunds WHERE refund_id = $1', [refund.refundId]);
            return { result: 'repeated' as const, refundTransactionId: String(rows[0]!.id) };
          }
          const { rowCount } = await tx.query(
            `UPDATE test_processor_transactions SET amount_refunded = amount_refunded + $2, updated_at = $3
              WHERE id = $1 AND status = 'settled' AND amount_refunded + $2 <= amount_captured`,
            [id, refund.amount, refund.at],
          );
          if (rowCount !== 1) throw new RefundRefused();
          return { result: 'refunded' as const, refundTransactionId: refund.refundTransactionId };
        });
      } catch (error) {
        if (error instanceof RefundRefused) return { result: 'refused' as const };
        throw error;
      }
    },
  };
}
