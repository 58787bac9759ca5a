import type { ApiRequestRecord } from '../../../domain/team/entities';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { Query, scoped } from '../../list-query';
import type { Row } from '../../rows';

const toApiRequest = (row: Row): ApiRequestRecord => ({
  id: row.id,
  accountId: row.account_id,
  mode: row.mode,
  keyId: row.key_id,
  method: row.method,
  path: row.path,
  status: Number(row.status),
  errorCode: row.error_code,
  requestId: row.request_id,
  at: new Date(row.at),
});

/**
 * The request log's batch insert and its trim, in one statement: each scope the batch touches keeps
 * its newest `keep` rows. The trim reads the table as it was before the insert, so it keeps the
 * newest `keep` minus the batch's rows of that scope (new rows are the newest).
 */
async function insertApiRequests(db: SqlExecutor, records: ApiRequestRecord[], keep: number): Promise<void> {
  if (records.length === 0) return;
  const column = <K extends keyof (typeof records)[number]>(k: K) => records.map((r) => r[k]);
  await db.query<Row>(
    `WITH v AS (
       SELECT v.* FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
                              $8::text[], $9::text[], $10::timestamptz[])
           AS v (id, account_id, mode, key_id, method, path, status, error_code, request_id, at)
        WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = v.account_id)),
     inserted AS (
       INSERT INTO api_requests (id, account_id, mode, key_id, method, path, status, error_code, request_id, at)
       SELECT * FROM v),
     scopes AS (SELECT account_id, mode, count(*) AS added FROM v GROUP BY account_id, mode),
     -- The newest row each scope drops, found once per scope (not once per row compared with it).
     cutoff AS MATERIALIZED (
       SELECT s.account_id, s.mode, o.at, o.id FROM scopes s CROSS JOIN LATERAL (
         SELECT at, id FROM api_requests o WHERE o.account_id = s.account_id AND o.mode = s.mode
          ORDER BY at DESC, id DESC OFFSET greatest($11::int - s.added, 0) LIMIT 1) o)
     DELETE FROM api_requests r USING cutoff c
      WHERE r.account_id = c.account_id AND r.mode = c.mode AND (r.at, r.id) <= (c.at, c.id)`,
    [
      column('id'), column('accountId'), column('mode'), column('keyId'), column('method'), column('path'),
      column('status'), column('errorCode'), column('requestId'), records.map((r) => r.at.toISOString()), keep,
    ],
  );
}

/** The merchant API request log, trimmed to the newest rows per scope. */
export function apiRequestRepositories(db: SqlExecutor): Pick<UnitOfWork, 'apiRequests'> {
  return {
    apiRequests: {
      async insert(r, keep) {
        await insertApiRequests(db, [r], keep);
      },
      insertMany: (records, keep) => insertApiRequests(db, records, keep),
      async list(scope, page) {
        const q = new Query();
        q.after('api_requests', 'at', page.startingAfter, scoped(q, scope));
        const { rows } = await db.query<Row>(
          `SELECT * FROM api_requests WHERE ${q.sql} ORDER BY at DESC, id DESC LIMIT ${q.param(page.limit)}`,
          q.params,
        );
        return rows.map(toApiRequest);
      },
    },
  };
}
