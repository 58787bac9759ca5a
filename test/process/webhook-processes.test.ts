import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { openPostgres, type SqlClient } from '../../src/persistence/sql-client';
import { openTillpoint } from '../../src/runtime/open-tillpoint';
import { startServe, until, type ServerProcess } from '../support/processes';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Real `tillpoint serve` processes on one PostgreSQL schema (the search_path rides in DATABASE_URL's
 * `options` parameter, which node-postgres passes to the server). PostgreSQL only: PGlite is a
 * single-process database.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgresUrl)('webhook delivery across server processes (postgres)', () => {
  const schema = `p_${randomBytes(6).toString('hex')}`;
  const databaseUrl = `${postgresUrl}${postgresUrl?.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tillpoint-proc-'));
  const receiver = new WebhookReceiver();
  const servers: ServerProcess[] = [];
  let receiverUrl = '';
  let db: SqlClient;
  let key = '';

  /** `tillpoint serve` on the shared schema; afterEach stops it. */
  async function serve(): Promise<ServerProcess> {
    const server = await startServe({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PUBLIC_URL: '' });
    servers.push(server);
    return server;
  }

  const call = async (base: string, method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    expect(res.status, `${method} ${url}`).toBeLessThan(300);
    return res.json() as Promise<Record<string, any>>;
  };

  const session = { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 1500, quantity: 1 }] };

  beforeAll(async () => {
    const admin = await openPostgres(postgresUrl!, { max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.close();
    db = await openPostgres(postgresUrl!, { schema, max: 2 });
    const tillpoint = await openTillpoint({ db, publicUrl: 'http://localhost' });
    key = (await createAccount(tillpoint.deps, { name: 'Process Shop' })).testSecretKey;
    receiverUrl = await receiver.start();
  });

  beforeEach(async () => {
    // Deliveries name their endpoint without a foreign key (ADR 0079): each goes by itself.
    await db.query('DELETE FROM webhook_deliveries');
    await db.query('DELETE FROM webhook_endpoints');
    receiver.received.length = 0;
    receiver.hold = false;
  });

  afterEach(async () => {
    for (const server of servers.splice(0)) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }
  });

  afterAll(async () => {
    await receiver.stop();
    await db.close();
    const admin = await openPostgres(postgresUrl!, { max: 1 });
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('two server processes deliver every webhook, none twice', { timeout: 300_000 }, async () => {
    const [a, b] = await Promise.all([serve(), serve()]);
    const endpoint = await call(a!.base, 'POST', '/v1/webhook_endpoints', { url: receiverUrl, enabled_events: ['*'] });
    receiver.secret = endpoint.secret;
    // 12 sessions opened and expired, alternately on each server: 12 events, 25 requests in all,
    // inside the test-mode limit of 25 a second.
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const base = (i % 2 ? a : b)!.base;
        const created = await call(base, 'POST', '/v1/checkout/sessions', session);
        await call(base, 'POST', `/v1/checkout/sessions/${created.id}/expire`);
        ids.push(created.id);
      }),
    );
    // Every delivery recorded as delivered: no send is left that could bring a duplicate.
    const deliveredOnce = async () =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered' AND attempts = 1`)).rows[0]!.n;
    expect(await until(async () => (await deliveredOnce()) === 12, 60_000)).toBe(true);
    expect(receiver.received).toHaveLength(12);
    expect(new Set(receiver.received.map((r) => r.event.id)).size).toBe(12);
    expect(receiver.received.every((r) => r.signatureValid)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.event.data.object.id))).toEqual(new Set(ids));
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries`);
    expect(rows[0]!.n).toBe(12);
  });

  it('a server killed mid-delivery has the webhook redelivered after restart', { timeout: 300_000 }, async () => {
    const first = await serve();
    const endpoint = await call(first.base, 'POST', '/v1/webhook_endpoints', { url: receiverUrl, enabled_events: ['*'] });
    receiver.secret = endpoint.secret;
    receiver.hold = true;
    const created = await call(first.base, 'POST', '/v1/checkout/sessions', session);
    await call(first.base, 'POST', `/v1/checkout/sessions/${created.id}/expire`);
    expect(await until(() => receiver.received.length === 1, 60_000)).toBe(true);

    first.child.kill('SIGKILL');
    await first.exited;
    receiver.hold = false;
    await serve();
    // The dead server's lease (10 s timeout + 5 s) runs out, then the new one delivers again.
    expect(await until(() => receiver.received.length >= 2, 60_000)).toBe(true);
    const [held, redelivered] = receiver.received;
    expect(redelivered!.event.id).toBe(held!.event.id);
    expect(redelivered!.signatureValid).toBe(true);
    // The receiver has the second send as soon as it arrives; the server records it just after.
    await expect
      .poll(async () => (await db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM webhook_deliveries')).rows, {
        timeout: 30_000,
      })
      .toEqual([{ status: 'delivered', attempts: 2 }]);
  });
});
