/**
 * Tillpoint on a fresh schema of the bench's PostgreSQL (BENCH_DATABASE_URL), with one account, for
 * benches that drive the domain directly. `drop()` closes it and drops the schema.
 */
import { randomBytes } from 'node:crypto';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { openPostgres } from '../../src/persistence/sql-client';
import { openTillpoint } from '../../src/runtime/open-tillpoint';

export async function openBenchSchema() {
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = await openPostgres(url, { max: 1, timeouts: { lockMs: 600_000, statementMs: 3_600_000, idleInTransactionMs: 3_600_000 } });
  await admin.query(`CREATE SCHEMA ${schema}`);
  // The bench's own seeding (tens of thousands of rows, TRUNCATEs beside running workers) is
  // maintenance, not a request: it is not cut short by a request's timeouts.
  const db = await openPostgres(url, { schema, max: 2, timeouts: { lockMs: 600_000, statementMs: 3_600_000, idleInTransactionMs: 3_600_000 } });
  const tillpoint = await openTillpoint({ db, publicUrl: 'http://bench.test' });
  const { account } = await createAccount(tillpoint.deps, { name: 'Bench Shop' });
  return {
    url,
    schema,
    admin,
    db,
    tillpoint,
    account,
    async drop() {
      await tillpoint.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}
