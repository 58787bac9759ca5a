import type { SqlClient } from '../../sql-client';
import type { StoredResponse, IdempotencyRecords, RateLimitCounter, RateLimitQuota } from '../../../domain/api-guards/ports';
import { toApiKey, type Row } from '../../rows';

/** Idempotency records in the shared database: the primary key decides which request owns a key. */
export function sqlIdempotencyRecords(db: SqlClient): IdempotencyRecords {
  return {
    async claim({ scope, key, fingerprint, now, expiredBefore, lockedUntil }) {
      // One statement takes a free key, an expired record, or an in-flight claim whose owner died
      // (lock past); the database's row lock makes exactly one concurrent caller win.
      const taken = await db.query(
        `INSERT INTO idempotency_records (account_id, mode, key, request_fingerprint, locked_until, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account_id, mode, key) DO UPDATE
           SET request_fingerprint = EXCLUDED.request_fingerprint, locked_until = EXCLUDED.locked_until,
               response_status = NULL, response_headers = NULL, response_body = NULL, created_at = EXCLUDED.created_at
           WHERE idempotency_records.created_at <= $7
              OR (idempotency_records.response_status IS NULL AND idempotency_records.locked_until <= $6
                  AND idempotency_records.request_fingerprint = EXCLUDED.request_fingerprint)
         RETURNING key`,
        [scope.accountId, scope.mode, key, fingerprint, lockedUntil, now, expiredBefore],
      );
      if (taken.rowCount === 1) return { outcome: 'claimed' };
      const { rows } = await db.query<Row>('SELECT * FROM idempotency_records WHERE account_id = $1 AND mode = $2 AND key = $3', [
        scope.accountId,
        scope.mode,
        key,
      ]);
      const record = rows[0];
      if (!record) return { outcome: 'in_use' }; // released between our two statements: still busy a moment ago
      if (record.request_fingerprint !== fingerprint) return { outcome: 'reused' };
      if (record.response_status === null) return { outcome: 'in_use' };
      const response: StoredResponse = {
        status: Number(record.response_status),
        headers: record.response_headers,
        body: record.response_body,
      };
      return { outcome: 'replay', response };
    },
    async complete({ scope, key, response }) {
      await db.query(
        `UPDATE idempotency_records SET response_status = $4, response_headers = $5, response_body = $6, locked_until = NULL
         WHERE account_id = $1 AND mode = $2 AND key = $3`,
        [scope.accountId, scope.mode, key, response.status, JSON.stringify(response.headers), response.body],
      );
    },
    async release({ scope, key }) {
      await db.query('DELETE FROM idempotency_records WHERE account_id = $1 AND mode = $2 AND key = $3 AND response_status IS NULL', [
        scope.accountId,
        scope.mode,
        key,
      ]);
    },
    async purgeCreatedBefore(at) {
      const { rowCount } = await db.query('DELETE FROM idempotency_records WHERE created_at <= $1', [at]);
      return rowCount;
    },
  };
}

/**
 * How many of a lease were granted, from the count after it: every lease adds its whole block, so
 * the count before it is `hits - block`, and what lay below the limit is the lease's.
 */
function grantedOf(hits: unknown, quota: RateLimitQuota): number {
  if (hits === null || hits === undefined) return 0; // the count was already at the limit: nothing added
  const before = Number(hits) - quota.block;
  return Math.max(0, Math.min(quota.block, quota.limit - before));
}

/**
 * Per-second request counters, shared by every instance. A row counts the requests leased in its
 * second (each lease adds its whole block, so the last one may pass the limit by less than a
 * block); a lease is refused, adding nothing, once the count has reached the limit.
 */
export function sqlRateLimitCounter(db: SqlClient): RateLimitCounter {
  return {
    async lease(scope, second, quota) {
      const { rows } = await db.query<{ hits: number }>(
        `INSERT INTO rate_limit_counters (account_id, mode, window_second, hits) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, mode, window_second) DO UPDATE SET hits = rate_limit_counters.hits + EXCLUDED.hits
           WHERE rate_limit_counters.hits < $5
         RETURNING hits`,
        [scope.accountId, scope.mode, second, quota.block, quota.limit],
      );
      return grantedOf(rows[0]?.hits, quota);
    },
    async admit(secretHash, second, quotas) {
      // The key lookup and the first lease share a statement: one round trip for a key not cached,
      // and the counter table is unlogged, so the upsert waits for no WAL flush.
      const { rows } = await db.query<Row>(
        `WITH k AS (SELECT * FROM api_keys WHERE secret_hash = $1),
         q AS (
           SELECT account_id, mode, CASE mode WHEN 'live' THEN $5::int ELSE $3::int END AS block
           FROM k WHERE kind IN ('secret', 'restricted') AND revoked_at IS NULL),
         hit AS (
           INSERT INTO rate_limit_counters (account_id, mode, window_second, hits)
           SELECT account_id, mode, $2, block FROM q
           ON CONFLICT (account_id, mode, window_second) DO UPDATE SET hits = rate_limit_counters.hits + EXCLUDED.hits
             WHERE rate_limit_counters.hits < CASE EXCLUDED.mode WHEN 'live' THEN $6::int ELSE $4::int END
           RETURNING hits)
         SELECT k.*, (SELECT hits FROM hit) AS hits, EXISTS (SELECT 1 FROM q) AS leased FROM k`,
        [secretHash, second, quotas.test.block, quotas.test.limit, quotas.live.block, quotas.live.limit],
      );
      const row = rows[0];
      if (!row) return null;
      const key = toApiKey(row);
      return { key, granted: row.leased ? grantedOf(row.hits, quotas[key.mode]) : null };
    },
    async purgeBefore(second) {
      const { rowCount } = await db.query('DELETE FROM rate_limit_counters WHERE window_second < $1', [second]);
      return rowCount;
    },
  };
}
