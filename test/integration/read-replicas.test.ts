import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { openPostgres, type SqlClient } from '../../src/persistence/sql-client';
import { postgresBinaries, startCluster, startStandby, type Cluster } from '../support/clusters';
import { startHarness, type Harness } from '../support/harness';
import { merchantCall, payCall } from '../support/integration';

/**
 * Lists read from a real hot standby (DATABASE_REPLICA_URL), made by `pg_basebackup -R` of a primary
 * of the suite's own (the shared test server is never restarted or reconfigured). Whether a list
 * came from the replica shows when its replay is paused: what was written since is missing from the
 * list and there when read by id, from the primary.
 */
const runs = Boolean(process.env.TEST_DATABASE_URL) && postgresBinaries() !== null;
if (process.env.REQUIRE_POSTGRES === '1' && !postgresBinaries()) throw new Error('REQUIRE_POSTGRES=1 but no PostgreSQL server binaries to make a standby with');

const MAX_LAG_MS = 4_000;

describe.skipIf(!runs)('read replicas (postgres, a hot standby of its own)', () => {
  let primary: Cluster;
  let standby: Cluster;
  let db: SqlClient;
  let h: Harness;
  let key: string;
  let replay: pg.Client;

  beforeAll(async () => {
    primary = await startCluster();
    standby = await startStandby(primary);
    db = await openPostgres(primary.url, { max: 10 });
    const replica = await openPostgres(standby.url, { probe: false });
    h = await startHarness(db, { replicas: { databases: [replica], maxLagMs: MAX_LAG_MS, checkEveryMs: 200 }, rateLimitPerSecond: { test: 100_000 } });
    key = (await createAccount(h.tillpoint.deps, { name: 'Replica Shop' })).testSecretKey;
    replay = new pg.Client(standby.url);
    await replay.connect();
  }, 180_000);
  afterAll(async () => {
    await replay?.end().catch(() => undefined);
    await h?.app.close();
    await h?.tillpoint.close();
    await standby?.remove();
    await primary?.remove();
  });

  const pay = async (amount: number) => {
    const session = await merchantCall(h, key, 'POST', '/v1/checkout/sessions', {
      currency: 'usd',
      line_items: [{ name: 'Beans', unit_amount: amount, quantity: 1 }],
    });
    expect(session.statusCode, session.body).toBe(200);
    const paid = await payCall(h, session.json().id, 'fake-valid-visa-nonce');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().status).toBe('succeeded');
    // Read by id, from the primary: the session names its payment at once.
    const after = await merchantCall(h, key, 'GET', `/v1/checkout/sessions/${session.json().id}`);
    expect(after.json().payment, after.body).toMatch(/^pay_/);
    return { sessionId: String(session.json().id), paymentId: String(after.json().payment) };
  };
  const listed = async (path: string): Promise<string[]> => {
    const res = await merchantCall(h, key, 'GET', `${path}?limit=100`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as Array<{ id: string }>).map((object) => object.id);
  };
  const until = async (condition: () => Promise<boolean> | boolean, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const used = () => h.tillpoint.replicas!.status()[0]!.used;

  it('lists come from the replica while it is within the bound; past it, or down, the primary serves them; paying and reads by id never wait for it', {
    timeout: 120_000,
  }, async () => {
    const first = await pay(1000);
    await until(async () => used() && (await listed('/v1/payments')).includes(first.paymentId));

    await replay.query('SELECT pg_wal_replay_pause()');
    await until(async () => (await replay.query('SELECT pg_get_wal_replay_pause_state() AS state')).rows[0].state === 'paused');
    const paused = performance.now();
    const second = await pay(2000);
    // The write is read back from the primary by id, at once.
    const byId = await merchantCall(h, key, 'GET', `/v1/payments/${second.paymentId}`);
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json().status).toBe('succeeded');
    // The lists come from the replica, which has not replayed it.
    const [payments, sessions] = await Promise.all([listed('/v1/payments'), listed('/v1/checkout/sessions')]);
    expect(performance.now() - paused).toBeLessThan(MAX_LAG_MS);
    expect(payments).toContain(first.paymentId);
    expect(payments).not.toContain(second.paymentId);
    expect(sessions).toContain(first.sessionId);
    expect(sessions).not.toContain(second.sessionId);

    // Still paused: once it is more than the bound behind, it is skipped and the primary lists.
    await until(async () => (await listed('/v1/payments')).includes(second.paymentId));
    expect(performance.now() - paused).toBeGreaterThan(MAX_LAG_MS - 1_000);
    expect(used()).toBe(false);
    expect(h.tillpoint.replicas!.status()[0]!.lagMs).toBeGreaterThan(MAX_LAG_MS);

    // Replaying again, it catches up and serves the lists again.
    await replay.query('SELECT pg_wal_replay_resume()');
    await until(used);
    expect(await listed('/v1/payments')).toContain(second.paymentId);

    // Down: the next list is answered by the primary at once (no error), and the replica is set aside.
    await replay.end();
    await standby.stop('immediate');
    const third = await pay(3000);
    const afterDown = await listed('/v1/payments');
    expect(afterDown).toEqual(expect.arrayContaining([first.paymentId, second.paymentId, third.paymentId]));
    expect(used()).toBe(false);
    expect(await listed('/v1/checkout/sessions')).toContain(third.sessionId);
  });
});
