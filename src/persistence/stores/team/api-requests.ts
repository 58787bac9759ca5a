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
  objectIds: row.objects ? String(row.objects).trim().split(' ') : [],
  at: new Date(row.at),
});

/**
 * The request log's batch: its rows numbered per scope (account, mode) and inserted, and each scope
 * it touches trimmed to its newest `keep` rows, in one statement that reads O(batch) rows.
 *
 * - `api_request_scopes.last_seq` is bumped once per scope (an upsert, scopes in key order so two
 *   batches never wait on each other crosswise); its row lock orders the batches of a scope from
 *   several instances, and the batch's rows take the numbers after the previous batch's.
 * - Rows numbered `last_seq - keep` or below go: those of the batch are not inserted, older ones
 *   are deleted by an index range on (account, mode, seq) from `trimmed_seq`, where the last trim
 *   stopped (so the dead entries of earlier trims are never walked).
 * - A statement sees the table as it was when it began. If another batch of the scope committed
 *   after that (this one waited for its lock), its rows are not seen here: the scope is returned
 *   (`raced`), `trimmed_seq` is left where it was, and TRIM_RACED deletes again in a statement of
 *   its own, which sees them. Alone (one instance, PGlite) that never happens.
 *
 * The plan is generic (prepared once per connection): the delete joins the scopes (estimated at one)
 * to an index range, which PostgreSQL keeps for a table of 1,000 rows and more. (Deleting by
 * `ctid = ANY(ARRAY(…))` instead was planned as a sequential scan of such a table: an array of
 * unknown length counts as ten random page reads.)
 */
const INSERT_AND_TRIM = `WITH v AS (
       SELECT v.* FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
                              $8::text[], $9::text[], $10::timestamptz[], $12::text[]) WITH ORDINALITY
           AS v (id, account_id, mode, key_id, method, path, status, error_code, request_id, at, objects, ord)
        WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = v.account_id)),
     seen AS MATERIALIZED (
       SELECT c.account_id, c.mode, c.added, coalesce(s.last_seq, 0) AS last_seq, coalesce(s.trimmed_seq, 0) AS trimmed_seq
         FROM (SELECT account_id, mode, count(*) AS added FROM v GROUP BY account_id, mode) c
         LEFT JOIN api_request_scopes s ON s.account_id = c.account_id AND s.mode = c.mode),
     bumped AS (
       INSERT INTO api_request_scopes AS s (account_id, mode, last_seq, trimmed_seq)
       SELECT account_id, mode, added, greatest(added - $11::int, 0) FROM seen ORDER BY account_id, mode
       ON CONFLICT (account_id, mode) DO UPDATE SET
         last_seq = s.last_seq + excluded.last_seq,
         trimmed_seq = CASE
           WHEN s.last_seq = (SELECT se.last_seq FROM seen se WHERE se.account_id = s.account_id AND se.mode = s.mode)
           THEN greatest(s.trimmed_seq, s.last_seq + excluded.last_seq - $11::int) ELSE s.trimmed_seq END
       RETURNING account_id, mode, last_seq),
     scopes AS MATERIALIZED (
       SELECT b.account_id, b.mode, b.last_seq, se.added, se.trimmed_seq, b.last_seq - se.added <> se.last_seq AS raced
         FROM bumped b JOIN seen se ON se.account_id = b.account_id AND se.mode = b.mode),
     inserted AS (
       INSERT INTO api_requests (id, account_id, mode, key_id, method, path, status, error_code, request_id, at, objects, seq)
       SELECT id, account_id, mode, key_id, method, path, status, error_code, request_id, at, objects, seq FROM (
         SELECT v.*, s.last_seq - s.added + row_number() OVER (PARTITION BY v.account_id, v.mode ORDER BY v.ord) AS seq,
                s.last_seq AS last FROM v JOIN scopes s ON s.account_id = v.account_id AND s.mode = v.mode) n
        WHERE n.seq > n.last - $11::int),
     deleted AS (
       DELETE FROM api_requests r USING scopes s
        WHERE r.account_id = s.account_id AND r.mode = s.mode AND r.seq > s.trimmed_seq AND r.seq <= s.last_seq - $11::int)
     SELECT account_id, mode, trimmed_seq AS after_seq, last_seq - $11::int AS cutoff FROM scopes WHERE raced`;

/** The trim of a scope whose batch raced another (above), now that every earlier batch's rows are seen. */
const TRIM_RACED = `WITH deleted AS (
       DELETE FROM api_requests WHERE account_id = $1 AND mode = $2 AND seq > $3::bigint AND seq <= $4::bigint)
     UPDATE api_request_scopes SET trimmed_seq = greatest(trimmed_seq, $4::bigint) WHERE account_id = $1 AND mode = $2`;

async function insertApiRequests(db: SqlExecutor, records: ApiRequestRecord[], keep: number): Promise<void> {
  if (records.length === 0) return;
  const column = <K extends keyof (typeof records)[number]>(k: K) => records.map((r) => r[k]);
  const { rows: raced } = await db.query<Row>(INSERT_AND_TRIM, [
    column('id'),
    column('accountId'),
    column('mode'),
    column('keyId'),
    column('method'),
    column('path'),
    column('status'),
    column('errorCode'),
    column('requestId'),
    records.map((r) => r.at.toISOString()),
    keep,
    // The objects a call named or made, space-separated with a space either side (` pay_1 re_2 `).
    records.map((r) => (r.objectIds?.length ? ` ${r.objectIds.join(' ')} ` : null)),
  ]);
  for (const scope of raced) await db.query(TRIM_RACED, [scope.account_id, scope.mode, String(scope.after_seq), String(scope.cutoff)]);
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
        // Newest first by the scope's own numbering (the order the trim keeps), through its index.
        const q = new Query();
        const scopeSql = scoped(q, scope);
        if (page.startingAfter) {
          q.where(`seq < (SELECT seq FROM api_requests WHERE id = ${q.param(page.startingAfter)} AND ${scopeSql})`);
        }
        const { rows } = await db.query<Row>(`SELECT * FROM api_requests WHERE ${q.sql} ORDER BY seq DESC LIMIT ${q.param(page.limit)}`, q.params);
        return rows.map(toApiRequest);
      },
      async listTouching(scope, objectIds, limit) {
        if (objectIds.length === 0) return [];
        // A scope keeps at most API_REQUEST_LOG_SIZE rows: the scope's index finds them, and the
        // tests read no more than those. A call touched an object when the object is a whole
        // segment of its path (`…/pay_1` is not `…/pay_12`) or among the objects it named or made.
        // Ids are [A-Za-z0-9_], of which only `_` is a LIKE wildcard: escaped.
        const escaped = objectIds.map((id) => id.replace(/_/g, '\\_'));
        const paths = escaped.flatMap((id) => [`%/${id}`, `%/${id}/%`]);
        const objects = escaped.map((id) => `% ${id} %`);
        const { rows } = await db.query<Row>(
          `SELECT * FROM api_requests WHERE account_id = $1 AND mode = $2 AND (path LIKE ANY($3::text[]) OR objects LIKE ANY($4::text[]))
            ORDER BY seq DESC LIMIT $5`,
          [scope.accountId, scope.mode, paths, objects, limit],
        );
        return rows.map(toApiRequest);
      },
    },
  };
}
