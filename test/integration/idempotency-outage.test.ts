import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { TillpointError } from '../../src/domain/shared/errors';
import type { SqlClient } from '../../src/persistence/sql-client';
import { testDatabases, truncateAll } from '../support/databases';
import { startHarness, type Harness } from '../support/harness';
import { bearer, countRows, expectError, sampleSession } from '../support/integration';

/**
 * The database goes away between a request's work and the record of its Idempotency-Key (a
 * primary's restart): the client is told what was done, the key is settled once the database is
 * back, and a retry with the same key replays the answer or runs again — never does the work twice.
 */
describe.each(testDatabases)('Idempotency-Key across a database outage ($name)', (database) => {
  let db: SqlClient;
  let h: Harness;
  let key = '';
  /** Statements matching a pattern fail as an unreachable database would, this many more times. */
  const faults: Array<{ pattern: RegExp; left: number }> = [];

  beforeAll(async () => {
    db = await database.openMigrated();
    const flaky: SqlClient = {
      ...db,
      query: (text, params) => {
        const fault = faults.find((f) => f.left > 0 && f.pattern.test(text));
        if (fault) {
          fault.left -= 1;
          return Promise.reject(new TillpointError('database_unavailable', 'The database is unavailable right now; try again shortly'));
        }
        return db.query(text, params);
      },
    };
    h = await startHarness(flaky);
  });
  afterAll(async () => {
    await h?.app.close();
    await db?.close();
  });
  beforeEach(async () => {
    faults.length = 0;
    await truncateAll(db);
    key = (await createAccount(h.tillpoint.deps, { name: 'Outage Shop' })).testSecretKey;
  });

  const post = (idempotencyKey: string) =>
    h.app.inject({ method: 'POST', url: '/v1/checkout/sessions', headers: { ...bearer(key), 'idempotency-key': idempotencyKey }, payload: sampleSession });

  it('the answer is recorded after the work committed: the client gets its 200, and a retry replays it', async () => {
    faults.push({ pattern: /^UPDATE idempotency_records SET response_status/, left: 2 });
    const first = await post('order-7');
    expect(first.statusCode, first.body).toBe(200);
    expect(await countRows(db, 'checkout_sessions')).toBe(1);
    // Recorded in the background once the database takes it.
    await h.tillpoint.deps.background.idle();
    const retry = await post('order-7');
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await countRows(db, 'checkout_sessions')).toBe(1);
  });

  it('a 503 whose key could not be freed at once frees it when the database is back, and the retry runs once', async () => {
    faults.push({ pattern: /INSERT INTO checkout_sessions/, left: 1 }, { pattern: /^DELETE FROM idempotency_records/, left: 1 });
    const first = await post('order-8');
    expectError(first, 503, 'database_unavailable');
    expect(await countRows(db, 'checkout_sessions')).toBe(0);
    await h.tillpoint.deps.background.idle();
    const retry = await post('order-8');
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await countRows(db, 'checkout_sessions')).toBe(1);
  });
});
