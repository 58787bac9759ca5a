import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BraintreeGatewayEmulator } from '../support/braintree-gateway-emulator';
import { cli, startServe, stopAll, until, type ServerProcess } from '../support/processes';
import { seededDataDir } from '../support/pglite-template';

/**
 * One writer on the embedded database (PGlite in DATA_DIR), with real processes: a second server
 * refuses, every CLI command beside a running server goes through it, a graceful stop finishes what
 * is under way, a killed server's lock is recovered, and nothing written is lost across restarts.
 */
const dataDir = seededDataDir('tp-writer-', { migrated: true });
const secretKey = randomBytes(32).toString('hex');
const emulator = new BraintreeGatewayEmulator({
  merchantId: 'ow_merchant',
  publicKey: 'ow_public',
  privateKey: 'ow_private_Q7',
  merchantAccounts: { ow_usd: 'USD' },
});
const servers: ServerProcess[] = [];
const env = () => ({ DATA_DIR: dataDir, TILLPOINT_SECRET_KEY: secretKey, GATEWAY_PORT: String(emulator.port) });
const lockFile = path.join(dataDir, 'tillpoint.lock');

async function serve(): Promise<ServerProcess> {
  const server = await startServe(env());
  servers.push(server);
  return server;
}

/** A merchant's webhook receiver that takes 1.5 s to answer: a delivery under way at SIGTERM. */
let slowReceiver: Server;
let receiverUrl = '';
let received: () => void;
const receivedOnce = new Promise<void>((resolve) => (received = resolve));

beforeAll(async () => {
  await emulator.start();
  slowReceiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received();
      setTimeout(() => response.writeHead(200).end('ok'), 1500);
    });
  });
  await new Promise<void>((resolve) => slowReceiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://localhost:${(slowReceiver.address() as { port: number }).port}/hooks`;
});

afterAll(async () => {
  await stopAll(servers);
  await emulator.stop();
  slowReceiver.closeAllConnections();
  await new Promise((resolve) => slowReceiver.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

const api = async (base: string, key: string, method: string, url: string, body?: unknown) => {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

/** An HTTP request whose body is only half sent: it stays in flight until `finish`. */
function halfSentRequest(base: string, key: string, body: unknown) {
  const { port } = new URL(base);
  const payload = Buffer.from(JSON.stringify(body));
  const socket = connect(Number(port), '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString()));
  const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  socket.write(
    `POST /v1/checkout/sessions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(payload.subarray(0, 20));
  return {
    async finish() {
      socket.write(payload.subarray(20));
      const text = await ended;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      return { status, json: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Record<string, any> };
    },
  };
}

const session = { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 1500, quantity: 1 }] };

describe('one writer on the embedded database', () => {
  let key = '';
  let accountId = '';
  let inFlightSessionId = '';
  let endpointId = '';

  it('a running server takes every CLI command over its admin socket, and a second server refuses', { timeout: 420_000 }, async () => {
    const first = await serve();

    const second = await cli(['serve'], env());
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/DATA_DIR .* is in use by a running `tillpoint serve` \(pid \d+/);
    expect(second.stderr).toMatch(/stop that server first, give this one another DATA_DIR, or set DATABASE_URL/);
    expect(second.stdout).not.toMatch(/is running/);

    const migrate = await cli(['migrate'], env());
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout).toMatch(/up to date/);

    const created = await cli(['account', 'create', '--name', 'Beside Shop', '--json'], env());
    expect(created.code, created.stderr).toBe(0);
    ({ id: accountId, test_secret_key: key } = JSON.parse(created.stdout));
    // The running server knows the account at once (no second copy of the database).
    expect((await api(first.base, key, 'GET', '/v1/checkout/sessions')).status).toBe(200);

    const scope = ['--account', accountId, '--mode', 'test'];
    const setTest = await cli(['processor', 'set', 'test', ...scope], env());
    expect(setTest.code, setTest.stderr).toBe(0);
    expect(setTest.stdout).toContain('built-in test processor');
    const setBraintree = await cli(
      [
        'processor',
        'set',
        'braintree',
        ...scope,
        '--environment',
        'development',
        '--merchant-id',
        'ow_merchant',
        '--public-key',
        'ow_public',
        '--private-key',
        'ow_private_Q7',
        '--merchant-account',
        'USD=ow_usd',
      ],
      env(),
    );
    expect(setBraintree.code, setBraintree.stderr).toBe(0);
    const show = await cli(['processor', 'show', ...scope, '--json'], env());
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ processor: 'braintree', braintree: { merchant_id: 'ow_merchant', private_key: 'set' } });
    const check = await cli(['processor', 'check', ...scope], env());
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toMatch(/^OK: the braintree processor accepts these settings/);
    // A refusal comes back through the socket as the CLI would print it, with its exit code.
    const bad = await cli(['processor', 'show', '--account', accountId, '--mode', 'staging'], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--mode must be test or live');

    // Back to the test processor, for the sessions below.
    expect((await cli(['processor', 'set', 'test', ...scope], env())).code).toBe(0);
    const endpoint = await api(first.base, key, 'POST', '/v1/webhook_endpoints', { url: receiverUrl, enabled_events: ['checkout.session.expired'] });
    expect(endpoint.status).toBe(200);
    endpointId = endpoint.json.id;

    // SIGTERM with an HTTP request and a webhook delivery under way.
    const inFlight = halfSentRequest(first.base, key, session);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const expiring = await api(first.base, key, 'POST', '/v1/checkout/sessions', session);
    await api(first.base, key, 'POST', `/v1/checkout/sessions/${expiring.json.id}/expire`);
    await receivedOnce;
    first.child.kill('SIGTERM');
    // No new work is taken: /readyz soon stops saying ready on a new connection.
    const notReady = () =>
      fetch(`${first.base}/readyz`).then(
        (res) => res.status !== 200,
        () => true,
      );
    expect(await until(notReady, 10_000)).toBe(true);
    const answered = await inFlight.finish();
    expect(answered.status).toBe(200);
    inFlightSessionId = answered.json.id;
    expect(await first.exited).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('with no server up, a CLI command opens the database itself; a killed server leaves a lock the next start recovers, and nothing is lost', {
    timeout: 420_000,
  }, async () => {
    expect(key, 'the previous test ran').not.toBe('');
    const show = await cli(['processor', 'show', '--account', accountId, '--mode', 'test', '--json'], env());
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout).processor).toBe('test');
    expect(existsSync(lockFile)).toBe(false);

    const killed = await serve();
    const before = await cli(['account', 'create', '--name', 'Before The Kill', '--json'], env());
    expect(before.code, before.stderr).toBe(0);
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(existsSync(lockFile)).toBe(true);

    const restarted = await serve();
    // Everything written beside the servers is there.
    expect((await api(restarted.base, key, 'GET', `/v1/checkout/sessions/${inFlightSessionId}`)).json.status).toBe('open');
    expect((await api(restarted.base, JSON.parse(before.stdout).test_secret_key, 'GET', '/v1/checkout/sessions')).status).toBe(200);
    // The delivery under way at SIGTERM was sent and recorded then, or, cut when the rest of the
    // shutdown was done, sent again by the restarted server: delivered, at least once, never lost.
    let deliveries = await api(restarted.base, key, 'GET', `/v1/webhook_endpoints/${endpointId}/deliveries`);
    expect(
      await until(async () => {
        deliveries = await api(restarted.base, key, 'GET', `/v1/webhook_endpoints/${endpointId}/deliveries`);
        return deliveries.json.data[0]?.status === 'delivered';
      }, 30_000),
    ).toBe(true);
    expect(deliveries.json.data).toHaveLength(1);
    expect(deliveries.json.data[0].status).toBe('delivered');
    expect([1, 2]).toContain(deliveries.json.data[0].attempts);
    expect(await until(async () => (await fetch(`${restarted.base}/readyz`)).status === 200, 10_000)).toBe(true);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  });

  it('a DATA_DIR this user cannot write stops serve at once, saying so', { timeout: 60_000 }, async () => {
    const readOnly = mkdtempSync(path.join(tmpdir(), 'tp-readonly-'));
    const target = path.join(readOnly, 'data');
    mkdirSync(target, { mode: 0o755 });
    try {
      // Root writes anywhere, so it runs without that power.
      chmodSync(target, 0o555);
      const run = await cli(['serve'], { DATA_DIR: target, PORT: '4599' }, { withoutFileOverride: true });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(/DATA_DIR .*\/data is not writable by this user/);
    } finally {
      rmSync(readOnly, { recursive: true, force: true });
    }
  });
});
