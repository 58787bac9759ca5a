import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BraintreeGatewayEmulator } from '../test/support/braintree-gateway-emulator';
import { startSentryReceiver } from '../test/support/sentry-receiver';

/** The Braintree account the browser tests pay into: the gateway emulator plays Braintree's sandbox. */
export const e2eBraintree = {
  merchantId: 'e2e_merchant',
  publicKey: 'e2e_public',
  privateKey: 'e2e_private_key',
  merchantAccounts: { e2e_usd: 'USD' },
};
const execFileAsync = promisify(execFile);

/**
 * Starts Tillpoint the way a self-hoster would: a fresh data folder, an account made with the CLI,
 * then `tillpoint serve`. Its log goes to a file the PAN test reads.
 */
export default async function globalSetup() {
  const root = path.resolve(import.meta.dirname, '..');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tillpoint-e2e-'));
  const port = process.env.E2E_PORT ?? '4417';
  const emulator = new BraintreeGatewayEmulator(e2eBraintree);
  const gatewayPort = await emulator.start();
  // Error reporting goes to a Sentry stand-in: project 1 is the server, project 2 the checkout page.
  const sentry = await startSentryReceiver();
  const sentryHost = sentry.url.replace(/^http:\/\//, '');
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: port,
    PUBLIC_URL: `http://localhost:${port}`,
    LOG_LEVEL: 'trace',
    TILLPOINT_SECRET_KEY: randomBytes(32).toString('hex'),
    // The braintree SDK's development environment: http://localhost:GATEWAY_PORT, the emulator.
    GATEWAY_PORT: String(gatewayPort),
    SENTRY_DSN: `http://e2eserverkey@${sentryHost}/1`,
    SENTRY_BROWSER_DSN: `http://e2ebrowserkey@${sentryHost}/2`,
    SENTRY_ENVIRONMENT: 'e2e',
    // A test local payment's bank confirms it this long after its approval: long enough for a loaded
    // machine to see it waiting (e2e/local-payments.spec.ts), short enough not to slow the suite.
    TEST_PROCESSOR_LOCAL_PAYMENT_DELAY_SECONDS: '6',
    // A test bank debit (ACH) settles this long after its sale (e2e/ach.spec.ts), for the same reasons.
    TEST_PROCESSOR_ACH_SETTLE_DELAY_SECONDS: '6',
    // The dashboard tests each sign up an owner of their own; the closed default (invite) is
    // tested on a fresh install of its own (e2e/access.spec.ts).
    SIGNUP: 'open',
  };
  const bin = path.join(root, 'bin', 'tillpoint.js');
  type Created = { id: string; test_secret_key: string };
  /** A `tillpoint` command with `--json`, its output parsed. */
  const tillpoint = async <T>(...args: string[]) =>
    JSON.parse((await execFileAsync(process.execPath, [bin, ...args, '--json'], { env, encoding: 'utf8' })).stdout) as T;
  // The first account is made before the first start, so the server makes no demo account.
  const created = await tillpoint<Created>('account', 'create', '--name', 'E2E Coffee');

  const logFile = path.join(dataDir, 'server.log');
  const log = createWriteStream(logFile);
  const server = spawn(process.execPath, [bin, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.pipe(log);
  server.stderr.pipe(log);

  const base = `http://localhost:${port}`;
  // A minute and more on a machine busy with other work.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`tillpoint serve exited with ${server.exitCode}; see ${logFile}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`tillpoint serve did not start; see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // The other accounts, made with the CLI while the server runs (it hands each command to the
  // server over its admin socket), side by side.
  const [braintreeAccount, flagsAccount, threeDSecureAccount] = await Promise.all([
    // A second account whose test mode charges through Braintree (its processor set below).
    tillpoint<Created>('account', 'create', '--name', 'E2E Roasters'),
    // Flags are per account: the flag and experiment tests get an account of their own, so switching
    // the card form off there cannot disturb the tests running beside them.
    tillpoint<Created>('account', 'create', '--name', 'E2E Flags'),
    // 3-D Secure rehearsed with the test processor: `three_d_secure` at `always` on an account of its own.
    tillpoint<Created>('account', 'create', '--name', 'E2E 3-D Secure'),
  ]);
  await tillpoint(
    'processor',
    'set',
    'braintree',
    '--account',
    braintreeAccount.id,
    '--mode',
    'test',
    '--environment',
    'development',
    '--merchant-id',
    e2eBraintree.merchantId,
    '--public-key',
    e2eBraintree.publicKey,
    '--private-key',
    e2eBraintree.privateKey,
    '--merchant-account',
    'USD=e2e_usd',
  );

  process.env.E2E_BASE_URL = base;
  process.env.E2E_SECRET_KEY = created.test_secret_key;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_SERVER_LOG = logFile;
  process.env.E2E_BRAINTREE_SECRET_KEY = braintreeAccount.test_secret_key;
  process.env.E2E_FLAGS_SECRET_KEY = flagsAccount.test_secret_key;
  process.env.E2E_THREE_D_SECURE_SECRET_KEY = threeDSecureAccount.test_secret_key;
  process.env.E2E_SENTRY_URL = sentry.url;

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await emulator.stop();
    await sentry.close();
  };
}
