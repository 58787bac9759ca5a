import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COALESCED_MOST, openPostgres, type SqlClient } from '../../src/persistence/sql-client';
import { startHarness, type Harness } from '../support/harness';
import { bearer, payCall, sampleSession } from '../support/integration';

const url = process.env.TEST_DATABASE_URL;

/**
 * A burst of payments on a pool of one connection: each payment sends its statements one after
 * another. Served in the order statements were sent, every payment's next statement waits behind
 * every other payment's, and the first shopper is done only when nearly all the work is. Served
 * oldest request first, the first payment is done early. Payments under way at once share
 * statements (coalescer.ts, up to COALESCED_MOST in one), so the burst is big enough to make
 * several groups of each statement.
 */
describe.skipIf(!url)('statements are served oldest request first (PostgreSQL)', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let db: SqlClient;
  let h: Harness;
  let sent = 0;
  const send = pg.Client.prototype.query;

  beforeAll(async () => {
    const admin = await openPostgres(url!, { max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.close();
    db = await openPostgres(url!, { schema, max: 1 });
    h = await startHarness(db, { rateLimitPerSecond: { test: 1000 } });
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      sent += 1;
      return (send as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Client.prototype.query;
  });
  afterAll(async () => {
    pg.Client.prototype.query = send;
    await h?.app.close();
    await db?.close();
    const admin = await openPostgres(url!, { max: 1 });
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
  });

  it('the first of a burst of payments is done within the first half of the statements', async () => {
    const key = await h.newAccountKey();
    const ids: string[] = [];
    for (let i = 0; i < 2 * COALESCED_MOST + 10; i++) {
      const res = await h.app.inject({ method: 'POST', url: '/v1/checkout/sessions', headers: bearer(key), payload: sampleSession });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().id);
    }
    // Let the request log's write-behind batch go out first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const start = sent;
    const doneAfter: number[] = [];
    const results = await Promise.all(
      ids.map(async (id, i) => {
        const res = await payCall(h, id, 'fake-valid-visa-nonce');
        doneAfter[i] = sent - start;
        return res;
      }),
    );
    for (const res of results) expect(res.statusCode, res.body).toBe(200);
    const total = sent - start;
    // Payments under way at once share statements (coalescer.ts), but not all of them.
    expect(total).toBeGreaterThanOrEqual(12);
    // In sending order the first payment would finish after about (groups × its statements) - 3.
    expect(doneAfter[0]!, `first payment done after ${doneAfter[0]} of ${total} statements`).toBeLessThan(total / 2);
    // And the burst still finishes: every payment succeeded above, in arrival order.
    expect(doneAfter).toEqual([...doneAfter].sort((a, b) => a - b));
  });
});
