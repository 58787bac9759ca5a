import { describe, expect, it } from 'vitest';
import type { ApiRequestRecord } from '../../src/domain/team/entities';
import { apiRequestRepositories } from '../../src/persistence/stores/team/api-requests';
import { testDatabases } from '../support/databases';
import { startHarness } from '../support/harness';
import { merchantCall, rows, useIntegration } from '../support/integration';

describe.each(testDatabases)('request log ($name)', (database) => {
  const ctx = useIntegration(database);

  it('writes every call still waiting in its buffer when the server closes', async () => {
    const server = await startHarness(ctx.db);
    for (let i = 0; i < 3; i++) {
      expect((await merchantCall(server, ctx.key, 'GET', `/v1/payments/pay_missing${i}`)).statusCode).toBe(404);
    }
    await server.app.close();
    // No waiting: closing has written what the buffer held.
    const logged = await rows(ctx.db, 'SELECT path, status, error_code FROM api_requests ORDER BY path');
    expect(logged).toEqual([0, 1, 2].map((i) => ({ path: `/v1/payments/pay_missing${i}`, status: 404, error_code: 'resource_missing' })));
  });

  it('keeps exactly the newest `keep` rows of each scope over batches, two of them at once, and lists them newest first', async () => {
    const keep = 5;
    const store = apiRequestRepositories(ctx.db).apiRequests;
    let next = 0;
    const written: Record<'test' | 'live', string[]> = { test: [], live: [] };
    const batch = (...sizes: [mode: 'test' | 'live', count: number][]): ApiRequestRecord[] =>
      sizes.flatMap(([mode, count]) =>
        Array.from({ length: count }, () => {
          const n = next++;
          return {
            id: `req_log_${n}`,
            accountId: ctx.accountId,
            mode,
            keyId: 'key_x',
            method: 'GET',
            path: `/v1/payments/${mode}_${n}`,
            status: 200,
            errorCode: null,
            requestId: `req_${n}`,
            at: new Date(Date.UTC(2030, 0, 1) + n * 1000),
          };
        }),
      );
    const noted = (records: ApiRequestRecord[]) =>
      records.forEach((r) => {
        written[r.mode].push(r.path);
      });
    const expectNewest = async () => {
      for (const mode of ['test', 'live'] as const) {
        const kept = await rows(ctx.db, 'SELECT path FROM api_requests WHERE account_id = $1 AND mode = $2 ORDER BY seq', [ctx.accountId, mode]);
        expect(
          kept.map((r) => r.path),
          mode,
        ).toEqual(written[mode].slice(-keep));
      }
    };

    for (const records of [batch(['test', 3], ['live', 2]), batch(['test', 4]), batch(['live', 7]), batch(['live', 1], ['test', 1])]) {
      await store.insertMany(records, keep);
      noted(records);
      await expectNewest();
    }

    // Two batches of both scopes at once. On PostgreSQL the second begins while the first holds
    // the scopes (its transaction still open), so its statement cannot see the first one's rows.
    const first = batch(['test', 3], ['live', 4]);
    const second = batch(['live', 2], ['test', 4]);
    if (database.name === 'postgres') {
      let secondDone: Promise<void> | undefined;
      await ctx.db.transaction(async (tx) => {
        await apiRequestRepositories(tx).apiRequests.insertMany(first, keep);
        const [{ xid }] = (await tx.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows as [{ xid: string }];
        secondDone = store.insertMany(second, keep);
        await expect
          .poll(
            async () =>
              (await rows(ctx.db, `SELECT 1 FROM pg_locks WHERE NOT granted AND locktype = 'transactionid' AND transactionid::text = $1`, [xid])).length,
          )
          .toBe(1);
      });
      await secondDone;
    } else {
      await Promise.all([store.insertMany(first, keep), store.insertMany(second, keep)]);
    }
    noted(first);
    noted(second);
    await expectNewest();
    expect((await rows(ctx.db, 'SELECT count(*)::int AS n FROM api_requests'))[0]!.n).toBe(2 * keep);

    const last = batch(['test', 2]);
    await store.insertMany(last, keep);
    noted(last);
    await expectNewest();

    // The list: newest first, page after page.
    const listed: string[] = [];
    let startingAfter: string | undefined;
    for (;;) {
      const page = await store.list({ accountId: ctx.accountId, mode: 'test' }, { limit: 2, startingAfter });
      if (page.length === 0) break;
      listed.push(...page.map((r) => r.path));
      startingAfter = page.at(-1)!.id;
    }
    expect(listed).toEqual(written.test.slice(-keep).reverse());
  });
});
