import type { SqlClient } from '../../sql-client';
import type { SandboxBankDebit, SandboxBankDebitLedger } from '../../../domain/processors/sandbox-ports';
import type { Row } from '../../rows';

function toDebit(row: Row): SandboxBankDebit {
  return {
    transactionId: row.transaction_id,
    paymentId: row.payment_id,
    outcome: row.outcome,
    returnCode: row.return_code,
    settlesAt: new Date(row.settles_at),
    returnsAt: row.returns_at === null ? null : new Date(row.returns_at),
    createdAt: new Date(row.created_at),
  };
}

/** The test processor's bank debits (migration 0056), in the shared database like its transactions. */
export function sqlSandboxBankDebitLedger(db: SqlClient): SandboxBankDebitLedger {
  return {
    async insert(debit) {
      await db.query(
        `INSERT INTO test_processor_bank_debits (transaction_id, payment_id, outcome, return_code, settles_at, returns_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [debit.transactionId, debit.paymentId, debit.outcome, debit.returnCode, debit.settlesAt, debit.returnsAt, debit.createdAt],
      );
    },
    async takeDue(at, limit) {
      // Each UPDATE claims its rows: two instances never report the same news.
      const settling = await db.query<Row>(
        `UPDATE test_processor_bank_debits SET settle_reported_at = $1
          WHERE transaction_id IN (
            SELECT transaction_id FROM test_processor_bank_debits
             WHERE settle_reported_at IS NULL AND settles_at <= $1
             ORDER BY settles_at LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING *`,
        [at, limit],
      );
      const returning = await db.query<Row>(
        `UPDATE test_processor_bank_debits SET return_reported_at = $1
          WHERE transaction_id IN (
            SELECT transaction_id FROM test_processor_bank_debits
             WHERE outcome = 'returned' AND return_reported_at IS NULL AND settle_reported_at IS NOT NULL AND settle_reported_at < $1
               AND returns_at <= $1
             ORDER BY returns_at LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING *`,
        [at, limit],
      );
      return [
        ...settling.rows.map((row) => {
          const debit = toDebit(row);
          return { debit, news: debit.outcome === 'declined' ? ('declined' as const) : ('settled' as const) };
        }),
        ...returning.rows.map((row) => ({ debit: toDebit(row), news: 'returned' as const })),
      ];
    },
  };
}
