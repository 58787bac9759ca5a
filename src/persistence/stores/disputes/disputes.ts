import type { UnitOfWork } from '../../../domain/deps';
import { disputeEvidence, disputes, type Dispute } from '../../../domain/disputes/entities';
import { scopedListQuery, type ListFilter } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { assignments, fieldValues, num, placeholders, type Row } from '../../rows';
import { columnsOf, rowReader } from '../../resource-rows';

/** A dispute's row and its evidence's, read and written as their definitions say (resource-rows.ts). */
const toDispute = rowReader(disputes);
const toEvidence = rowReader(disputeEvidence);
const disputeFields = columnsOf(disputes);
const disputeUpdates = columnsOf(disputes, 'updated');
const updatedColumns = disputeUpdates.map(([column]) => column);
const evidenceFields = columnsOf(disputeEvidence);
const insertDispute = `INSERT INTO ${disputes.table} (${disputeFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, disputeFields.length)})`;
const updateDispute = `UPDATE ${disputes.table} SET ${assignments(updatedColumns, 3)} WHERE id = $1 AND status = $2`;
/** Evidence is written with its dispute's id (`$1`), which the entity does not carry. */
const insertEvidence = `INSERT INTO ${disputeEvidence.table} (dispute_id, ${evidenceFields.map(([column]) => column).join(', ')})
  VALUES ($1, ${placeholders(2, evidenceFields.length)})`;

/** Disputes with their evidence (one more statement per read, for every dispute read). */
export function disputeRepositories(db: SqlExecutor): Pick<UnitOfWork, 'disputes'> {
  async function withEvidence(rows: Row[]): Promise<Dispute[]> {
    if (rows.length === 0) return [];
    const { rows: evidence } = await db.query<Row>('SELECT * FROM dispute_evidence WHERE dispute_id = ANY($1::text[]) ORDER BY created_at, id', [
      rows.map((row) => row.id),
    ]);
    return rows.map((row): Dispute => ({ ...toDispute(row), evidence: evidence.filter((e) => e.dispute_id === row.id).map(toEvidence) }));
  }
  async function one(sql: string, params: unknown[]): Promise<Dispute | null> {
    const { rows } = await db.query<Row>(sql, params);
    return (await withEvidence(rows))[0] ?? null;
  }
  return {
    disputes: {
      async insert(d) {
        await db.query(insertDispute, fieldValues(disputeFields, d));
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
        const { rowCount } = await db.query(updateDispute, [d.id, expectedStatus, ...fieldValues(disputeUpdates, d)]);
        return rowCount === 1;
      },
      async addEvidence(disputeId, e) {
        await db.query(insertEvidence, [disputeId, ...fieldValues(evidenceFields, e)]);
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
