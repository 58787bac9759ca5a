import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BraintreeGatewayEmulator } from '../support/braintree-gateway-emulator';
import { commandBoundMs, cli as run } from '../support/processes';
import { seededDataDir } from '../support/pglite-template';

/** `tillpoint processor set | show | check`, run as an owner would, against the gateway emulator. */
const dataDir = seededDataDir('tillpoint-processor-cli-', { migrated: true });
const secretKey = randomBytes(32).toString('hex');
const emulator = new BraintreeGatewayEmulator({
  merchantId: 'cli_merchant',
  publicKey: 'cli_public',
  privateKey: 'cli_private_Zq9',
  merchantAccounts: { cli_usd: 'USD' },
});

/** `tillpoint <args>` on this suite's data directory, key and gateway emulator. */
const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  run(args, { DATA_DIR: dataDir, TILLPOINT_SECRET_KEY: secretKey, GATEWAY_PORT: String(emulator.port), ...env });

const braintreeArgs = (account: string, overrides: Record<string, string> = {}) => {
  const options = {
    '--environment': 'development',
    '--merchant-id': 'cli_merchant',
    '--public-key': 'cli_public',
    '--private-key': 'cli_private_Zq9',
    ...overrides,
  };
  return ['processor', 'set', 'braintree', '--account', account, '--mode', 'test', ...Object.entries(options).flat(), '--merchant-account', 'USD=cli_usd'];
};

let account: string;

beforeAll(async () => {
  await emulator.start();
  const created = await cli(['account', 'create', '--name', 'CLI Shop', '--json']);
  expect(created.code, created.stderr).toBe(0);
  account = JSON.parse(created.stdout).id;
});
afterAll(async () => {
  await emulator.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

// Each run starts a process with its own embedded database: seconds, not milliseconds.
describe('tillpoint processor', { timeout: 2 * commandBoundMs }, () => {
  it('refuses to store Braintree credentials without TILLPOINT_SECRET_KEY, saying what to set', async () => {
    const run = await cli(braintreeArgs(account), { TILLPOINT_SECRET_KEY: undefined });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/TILLPOINT_SECRET_KEY/);
    expect(run.stderr).not.toContain('cli_private_Zq9');
  });

  it('rejects a malformed TILLPOINT_SECRET_KEY at start-up, naming it', async () => {
    const run = await cli(['processor', 'show', '--account', account, '--mode', 'test'], { TILLPOINT_SECRET_KEY: 'short' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Invalid TILLPOINT_SECRET_KEY/);
  });

  it('sets Braintree, shows it without the private key, and the key is not in the data files', async () => {
    const set = await cli(braintreeArgs(account));
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('now uses Braintree');
    const show = await cli(['processor', 'show', '--account', account, '--mode', 'test', '--json']);
    expect(JSON.parse(show.stdout)).toMatchObject({
      processor: 'braintree',
      braintree: { merchant_id: 'cli_merchant', public_key: 'cli_public', private_key: 'set', merchant_accounts: { USD: 'cli_usd' } },
    });
    expect(show.stdout).not.toContain('cli_private_Zq9');
    for (const file of filesUnder(dataDir)) expect(readFileSync(file).includes('cli_private_Zq9'), file).toBe(false);
  });

  it(
    'check says OK for good credentials and names the problem for bad ones',
    async () => {
      const ok = await cli(['processor', 'check', '--account', account, '--mode', 'test']);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(/^OK/);

      await cli(braintreeArgs(account, { '--private-key': 'wrong_key' }));
      const auth = await cli(['processor', 'check', '--account', account, '--mode', 'test']);
      expect(auth.code).toBe(1);
      expect(auth.stdout).toMatch(/\[authentication\].*public\/private key/);

      await cli([...braintreeArgs(account), '--merchant-account', 'EUR=cli_eur']);
      const missing = await cli(['processor', 'check', '--account', account, '--mode', 'test', '--json']);
      expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, problems: [{ kind: 'merchant_account_missing', currency: 'EUR' }] });

      const unreachable = await cli(['processor', 'check', '--account', account, '--mode', 'test'], { GATEWAY_PORT: '1' });
      expect(unreachable.stdout).toMatch(/\[unreachable\]/);
    },
    4 * commandBoundMs,
  );

  it('switches back to the test processor; live mode refuses it', async () => {
    expect((await cli(['processor', 'set', 'test', '--account', account, '--mode', 'test'])).code).toBe(0);
    const live = await cli(['processor', 'set', 'test', '--account', account, '--mode', 'live']);
    expect(live.code).toBe(2);
    expect(live.stderr).toMatch(/never serves live mode/);
  });
});
