import type { UnitOfWork } from '../../../domain/deps';
import type { Dispute, DisputeEvidence } from '../../../domain/disputes/entities';
import { scopedListQuery, type ListFilter } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { dateOrNull, num, type Row } from '../../rows';

function toEvidence(row: Row): DisputeEvidence {
  return {
    id: row.id,
    kind: row.kind,
    text: row.text,
    category: row.category,
    fileName: row.file_name,
    contentType: row.content_type,
    size: row.size === null ? null : num(row.size),
    processorEvidenceId: row.processor_evidence_id,
    createdAt: new Date(row.created_at),
  };
}

function toDispute(row: Row, evidence: DisputeEvidence[]): Dispute {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    paymentId: row.payment_id,
    amount: num(row.amount),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    replyBy: dateOrNull(row.reply_by),
    evidence,
    processor: row.processor,
    processorDisputeId: row.processor_dispute_id,
    submittedAt: dateOrNull(row.submitted_at),
    closedAt: dateOrNull(row.closed_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** Disputes with their evidence (one more statement per read, for every dispute read). */
export function disputeRepositories(db: SqlExecutor): Pick<UnitOfWork, 'disputes'> {
  async function withEvidence(rows: Row[]): Promise<Dispute[]> {
    if (rows.length === 0) return [];
    const { rows: evidence } = await db.query<Row>('SELECT * FROM dispute_evidence WHERE dispute_id = ANY($1::text[]) ORDER BY created_at, id', [
      rows.map((row) => row.id),
    ]);
    return rows.map((row) => toDispute(row, evidence.filter((e) => e.dispute_id === row.id).map(toEvidence)));
  }
  async function one(sql: string, params: unknown[]): Promise<Dispute | null> {
    const { rows } = await db.query<Row>(sql, params);
    return (await withEvidence(rows))[0] ?? null;
  }
  return {
    disputes: {
      async insert(d) {
        await db.query(
          `INSERT INTO disputes (id, account_id, mode, payment_id, amount, currency, reason, status, reply_by, processor,
             processor_dispute_id, submitted_at, closed_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
          [
            d.id,
            d.accountId,
            d.mode,
            d.paymentId,
            d.amount,
            d.currency,
            d.reason,
            d.status,
            d.replyBy,
            d.processor,
            d.processorDisputeId,
            d.submittedAt,
            d.closedAt,
            d.createdAt,
            d.updatedAt,
          ],
        );
      },
      async get(scope, id, options = {}) {
        const params: unknown[] = [id];
        let sql = 'SELECT * FROM disputes WHERE id = $1';
        if (scope) {
          params.push(scope.accountId, scope.mode);
          sql += ' AND account_id = $2 AND mode = $3';
        }
        return one(sql + (options.forUpdate ? ' FOR UPDATE' : ''), params);
      },
      async getByProcessorId(scope, processorDisputeId, options = {}) {
        return one(`SELECT * FROM disputes WHERE account_id = $1 AND mode = $2 AND processor_dispute_id = $3${options.forUpdate ? ' FOR UPDATE' : ''}`, [
          scope.accountId,
          scope.mode,
          processorDisputeId,
        ]);
      },
      async update(d, expectedStatus) {
        const { rowCount } = await db.query(
          `UPDATE disputes SET status = $3, reply_by = $4, amount = $5, submitted_at = $6, closed_at = $7, updated_at = $8
            WHERE id = $1 AND status = $2`,
          [d.id, expectedStatus, d.status, d.replyBy, d.amount, d.submittedAt, d.closedAt, d.updatedAt],
        );
        return rowCount === 1;
      },
      async addEvidence(disputeId, e) {
        await db.query(
          `INSERT INTO dispute_evidence (id, dispute_id, kind, text, category, file_name, content_type, size, processor_evidence_id, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [e.id, disputeId, e.kind, e.text, e.category, e.fileName, e.contentType, e.size, e.processorEvidenceId, e.createdAt],
        );
      },
      async list(scope, filter) {
        const filters: ListFilter[] = [];
        if (filter.paymentId) filters.push({ column: 'payment_id', value: filter.paymentId });
        if (filter.status) filters.push({ column: 'status', value: filter.status });
        const query = scopedListQuery('disputes', scope, filter, filters);
        const { rows } = await db.query<Row>(query.text, query.params);
        return withEvidence(rows);
      },
      async inbox(scope, limit) {
        const { rows } = await db.query<Row>(
          `SELECT * FROM disputes WHERE account_id = $1 AND mode = $2
            ORDER BY (status IN ('needs_response', 'under_review')) DESC,
                     CASE WHEN status IN ('needs_response', 'under_review') THEN reply_by END ASC NULLS LAST,
                     created_at DESC, id DESC
            LIMIT $3`,
          [scope.accountId, scope.mode, limit],
        );
        return withEvidence(rows);
      },
      async totals(scope, from, before) {
        const { rows } = await db.query<Row>(
          `SELECT currency,
                  COALESCE(sum(amount) FILTER (WHERE created_at >= $3 AND created_at < $4), 0) AS disputed,
                  COALESCE(sum(amount) FILTER (WHERE status IN ('lost', 'accepted', 'expired') AND closed_at >= $3 AND closed_at < $4), 0) AS lost
             FROM disputes
            WHERE account_id = $1 AND mode = $2 AND (created_at >= $3 OR closed_at >= $3)
            GROUP BY currency ORDER BY currency`,
          [scope.accountId, scope.mode, from, before],
        );
        return rows.map((row) => ({ currency: row.currency, disputed: num(row.disputed), lost: num(row.lost) }));
      },
      async listForPayment(scope, paymentId) {
        const { rows } = await db.query<Row>(
          'SELECT * FROM disputes WHERE account_id = $1 AND mode = $2 AND payment_id = $3 ORDER BY created_at DESC, id DESC',
          [scope.accountId, scope.mode, paymentId],
        );
        return withEvidence(rows);
      },
    },
  };
}
