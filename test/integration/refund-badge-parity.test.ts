import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundBadge } from '../../src/domain/payments/status-badge';
import type { SqlClient } from '../../src/persistence/sql-client';
import { refundBadgeSql } from '../../src/persistence/stores/team/dashboard-search';
import { testDatabases } from '../support/databases';

/**
 * The refund badge is decided in TypeScript (a payment's page, the CSV) and in SQL (the list's status
 * filter): both give the same badge for every pair of captured and refunded amounts.
 */
describe.each(testDatabases)('the refund badge in SQL and in TypeScript ($name)', (database) => {
  let db: SqlClient;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(async () => db?.close());

  it('agree on every pair of captured and refunded amounts around their edges', async () => {
    const amounts = [0, 1, 2, 1499, 1500, 1501, 4999, 5000, 5001];
    const pairs = amounts.flatMap((captured) => amounts.map((refunded) => [captured, refunded] as const));
    const values = pairs.map((_, i) => `($${2 * i + 1}::bigint, $${2 * i + 2}::bigint, ${i})`).join(', ');
    const { rows } = await db.query<{ badge: string; i: number }>(
      `SELECT ${refundBadgeSql} AS badge, i FROM (VALUES ${values}) AS t(amount_captured, amount_refunded, i) ORDER BY i`,
      pairs.flat(),
    );
    expect(rows.map((row) => row.badge)).toEqual(pairs.map(([captured, refunded]) => refundBadge(captured, refunded)));
    // Every badge is reached, so the comparison covers each branch of both.
    expect(new Set(rows.map((row) => row.badge))).toEqual(new Set(['succeeded', 'partially_refunded', 'refunded']));
  });
});
