import type { SqlClient } from '../../sql-client';
import type { SandboxDispute, SandboxDisputeLedger } from '../../../domain/processors/sandbox-ports';
import { dateOrNull, json, num, type Row } from '../../rows';

function toDispute(row: Row): SandboxDispute {
  return {
    id: row.id,
    transactionId: row.transaction_id,
    paymentId: row.payment_id,
    amount: num(row.amount),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    opensAt: dateOrNull(row.opens_at),
    replyBy: dateOrNull(row.reply_by),
    evidence: row.evidence,
    decision: row.decision,
    decidesAt: dateOrNull(row.decides_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** The test processor's disputes, beside its transactions in the shared database. */
export function sqlSandboxDisputeLedger(db: SqlClient): SandboxDisputeLedger {
  return {
    async insert(d) {
      await db.query(
        `INSERT INTO test_processor_disputes (id, transaction_id, payment_id, amount, currency, reason, status, opens_at, reply_by,
           evidence, decision, decides_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          d.id,
          d.transactionId,
          d.paymentId,
          d.amount,
          d.currency,
          d.reason,
          d.status,
          d.opensAt,
          d.replyBy,
          json(d.evidence),
          d.decision,
          d.decidesAt,
          d.createdAt,
          d.updatedAt,
        ],
      );
    },
    async get(id) {
      const { rows } = await db.query<Row>('SELECT * FROM test_processor_disputes WHERE id = $1', [id]);
      return rows[0] ? toDispute(rows[0]) : null;
    },
    async scheduleOpening(transactionId, opensAt, replyBy) {
      await db.query(
        `UPDATE test_processor_disputes SET opens_at = $2, reply_by = $3, updated_at = $2
          WHERE transaction_id = $1 AND opens_at IS NULL`,
        [transactionId, opensAt, replyBy],
      );
    },
    async move(id, from, to, changes, at) {
      const { rowCount } = await db.query(
        `UPDATE test_processor_disputes
            SET status = $3,
                decision = CASE WHEN $4::boolean THEN $5 ELSE decision END,
                decides_at = CASE WHEN $6::boolean THEN $7::timestamptz ELSE decides_at END,
                updated_at = $8
          WHERE id = $1 AND status = ANY($2::text[])`,
        [id, [...from], to, 'decision' in changes, changes.decision ?? null, 'decidesAt' in changes, changes.decidesAt ?? null, at],
      );
      return rowCount === 1;
    },
    async addEvidence(id, evidence, at) {
      const { rowCount } = await db.query(
        `UPDATE test_processor_disputes SET evidence = evidence || $2::jsonb, updated_at = $3
          WHERE id = $1 AND status = 'open'`,
        [id, JSON.stringify([evidence]), at],
      );
      return rowCount === 1;
    },
    async decideDue(at) {
      await db.query(
        `UPDATE test_processor_disputes SET status = decision, updated_at = decides_at
          WHERE status = 'disputed' AND decision IS NOT NULL AND decides_at <= $1`,
        [at],
      );
      await db.query(
        `UPDATE test_processor_disputes SET status = 'expired', updated_at = reply_by
          WHERE status = 'open' AND reply_by <= $1`,
        [at],
      );
    },
    async listOpened(scope, since, at) {
      const { rows } = await db.query<Row>(
        `SELECT d.* FROM test_processor_disputes d JOIN payments p ON p.id = d.payment_id
          WHERE p.account_id = $1 AND p.mode = $2 AND d.opens_at <= $3 AND d.opens_at >= $4
          ORDER BY d.opens_at, d.id`,
        [scope.accountId, scope.mode, at, since],
      );
      return rows.map(toDispute);
    },
    async scopesWithNews(since, at) {
      const { rows } = await db.query<Row>(
        `SELECT DISTINCT p.account_id, p.mode FROM test_processor_disputes d JOIN payments p ON p.id = d.payment_id
          WHERE d.opens_at <= $2 AND (d.updated_at >= $1 OR (d.status = 'disputed' AND d.decides_at <= $2))`,
        [since, at],
      );
      return rows.map((row) => ({ accountId: row.account_id, mode: row.mode }));
    },
  };
}
