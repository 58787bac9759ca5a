import { describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../src/persistence/migrations';
import { apiRequestRepositories } from '../../src/persistence/stores/team/api-requests';
import { testDatabases } from '../support/databases';

describe.each(testDatabases)('migration 15, the request log numbered per scope ($name)', (database) => {
  // Every migration from the first, one statement at a time: 21 s beside both test runners on a slow day.
  it('numbers the rows already logged oldest first, per account and mode, and the next batch follows them', { timeout: 60_000 }, async () => {
    const db = await database.open();
    try {
      // The schema as migration 14 left it, with rows logged by the older version.
      for (const migration of migrations.filter((m) => m.version < 15)) await db.exec(migration.sql);
      await db.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
      for (const migration of migrations.filter((m) => m.version < 15)) {
        await db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      }
      await db.query(`INSERT INTO accounts (id, name, default_currency, created_at) VALUES ('acct_1', 'Shop', 'usd', now())`);
      const logged = [
        ['req_log_c', 'test', '2030-01-01T00:00:03Z'],
        ['req_log_a', 'test', '2030-01-01T00:00:01Z'],
        ['req_log_l', 'live', '2030-01-01T00:00:02Z'],
        ['req_log_b', 'test', '2030-01-01T00:00:02Z'],
      ];
      for (const [id, mode, at] of logged) {
        await db.query(
          `INSERT INTO api_requests (id, account_id, mode, key_id, method, path, status, request_id, at)
           VALUES ($1, 'acct_1', $2, 'key_x', 'GET', '/v1/payments', 200, 'req', $3)`,
          [id, mode, at],
        );
      }

      expect(await migrate(db)).toEqual(migrations.filter((m) => m.version >= 15).map((m) => m.version));
      const { rows } = await db.query<{ id: string; mode: string; seq: string }>('SELECT id, mode, seq::text FROM api_requests ORDER BY mode, seq');
      expect(rows).toEqual([
        { id: 'req_log_l', mode: 'live', seq: '1' },
        { id: 'req_log_a', mode: 'test', seq: '1' },
        { id: 'req_log_b', mode: 'test', seq: '2' },
        { id: 'req_log_c', mode: 'test', seq: '3' },
      ]);
      const scopes = await db.query('SELECT account_id, mode, last_seq::int, trimmed_seq::int FROM api_request_scopes ORDER BY mode');
      expect(scopes.rows).toEqual([
        { account_id: 'acct_1', mode: 'live', last_seq: 1, trimmed_seq: 0 },
        { account_id: 'acct_1', mode: 'test', last_seq: 3, trimmed_seq: 0 },
      ]);

      // The next batch numbers after them, and the trim (keep 3) drops the oldest.
      await apiRequestRepositories(db).apiRequests.insertMany(
        [
          {
            id: 'req_log_d',
            accountId: 'acct_1',
            mode: 'test',
            keyId: 'key_x',
            method: 'GET',
            path: '/v1/payments',
            status: 200,
            errorCode: null,
            requestId: 'req',
            at: new Date('2030-01-01T00:00:04Z'),
          },
        ],
        3,
      );
      const after = await db.query<{ id: string; seq: string }>(`SELECT id, seq::text FROM api_requests WHERE mode = 'test' ORDER BY seq`);
      expect(after.rows).toEqual([
        { id: 'req_log_b', seq: '2' },
        { id: 'req_log_c', seq: '3' },
        { id: 'req_log_d', seq: '4' },
      ]);
    } finally {
      await db.close();
    }
  });
});
