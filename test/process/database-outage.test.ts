import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/persistence/sql-client';
import { TcpProxy } from '../support/tcp-proxy';
import { cli, startServe, stopAll, until, type ServerProcess } from '../support/processes';

/**
 * The database goes away and comes back, between a real `tillpoint serve` and the shared
 * PostgreSQL server: a TCP proxy this test controls sits in between and is cut. (The PostgreSQL
 * server itself is never touched.)
 */
const postgresUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgresUrl)('a database that goes away (postgres, through a TCP proxy)', () => {
  const schema = `o_${randomBytes(6).toString('hex')}`;
  const target = new URL(postgresUrl ?? 'postgres://x@127.0.0.1:5432/test');
  const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-outage-'));
  const servers: ServerProcess[] = [];
  let databaseUrl = '';

  beforeAll(async () => {
    const admin = await openPostgres(postgresUrl!, { max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.close();
    await proxy.start();
    const viaProxy = new URL(postgresUrl!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    viaProxy.searchParams.set('options', `-c search_path=${schema}`);
    viaProxy.searchParams.set('application_name', `tillpoint-outage-${schema}`);
    databaseUrl = viaProxy.toString();
  });

  afterAll(async () => {
    await stopAll(servers);
    await proxy.stop();
    const admin = await openPostgres(postgresUrl!, { max: 1 });
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  type Readiness = { status: number; body: { checks?: { database?: string } } };
  const readyz = (base: string): Promise<Readiness> =>
    fetch(`${base}/readyz`).then(
      async (res) => ({ status: res.status, body: (await res.json()) as Readiness['body'] }),
      () => ({ status: 0, body: {} }),
    );

  it('serve refuses to start while the database is unreachable, naming DATABASE_URL without its password', { timeout: 120_000 }, async () => {
    await proxy.cut();
    try {
      const withPassword = new URL(databaseUrl);
      withPassword.password = 'hunter2-secret';
      const run = await cli(['serve'], { DATABASE_URL: withPassword.toString(), DATA_DIR: dataDir, PORT: '4598' });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/cannot reach the PostgreSQL server named by DATABASE_URL \(postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+/);
      expect(run.stderr).not.toContain('hunter2-secret');
    } finally {
      await proxy.restore();
    }
  });

  it('/readyz answers 503 while the database is away and 200 once it is back; the server keeps running', { timeout: 240_000 }, async () => {
    const server = await startServe({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    servers.push(server);
    expect((await readyz(server.base)).status).toBe(200);

    await proxy.cut();
    expect(await until(async () => (await readyz(server.base)).status === 503, 20_000)).toBe(true);
    expect((await readyz(server.base)).body.checks?.database).toBe('unreachable');
    const metrics = await (await fetch(`${server.base}/metrics`)).text();
    expect(metrics).toMatch(/^tillpoint_database_up 0$/m);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);

    await proxy.restore();
    expect(await until(async () => (await readyz(server.base)).status === 200, 20_000)).toBe(true);
    expect(server.child.exitCode).toBeNull();
    expect(await (await fetch(`${server.base}/metrics`)).text()).toMatch(/^tillpoint_database_up 1$/m);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
