import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/persistence/sql-client';
import { settings } from '../../src/runtime/config';
import { commandBoundMs, cli as runCli, root } from '../support/processes';

/** The CLI runs once, not per database: it makes its own embedded database in DATA_DIR. */
const dirs: string[] = [];

function freshDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tillpoint-cli-'));
  dirs.push(dir);
  return dir;
}

/** `tillpoint <args>`, on a data folder of its own unless `env` names one. */
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { ...env, DATA_DIR: env.DATA_DIR ?? freshDataDir() });

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.concurrent('tillpoint CLI', { timeout: commandBoundMs }, () => {
  it('--help lists serve, migrate and account', async () => {
    const run = await cli(['--help']);
    expect(run.code, run.stderr).toBe(0);
    for (const command of ['serve', 'migrate', 'account']) expect(run.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  it('--version prints the version of the package', async () => {
    const run = await cli(['--version']);
    expect(run.code, run.stderr).toBe(0);
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(run.stdout.trim()).toBe(version);
  });

  it('serve --help lists every setting with its default, from the settings table', async () => {
    const run = await cli(['serve', '--help']);
    expect(run.code, run.stderr).toBe(0);
    const rows = settings();
    expect(rows.length).toBeGreaterThan(20);
    for (const setting of rows) {
      const line = run.stdout.split('\n').find((l) => l.trimStart().startsWith(`${setting.name} `));
      expect(line, setting.name).toBeDefined();
      expect(line).toContain(`(default: ${setting.shownDefault === '—' ? 'none' : setting.shownDefault})`);
    }
    expect(run.stdout).toMatch(/PORT\s+HTTP port \(default: 4242\)/);
  });

  // One data folder through its life: a fresh embedded database takes several seconds to create
  // (PGlite's initdb), so the stateful commands share it instead of paying that cost each.
  it('migrate brings a fresh embedded database up to date; account create then prints JSON', { timeout: 4 * commandBoundMs }, async () => {
    const dataDir = freshDataDir();
    const first = await cli(['migrate'], { DATA_DIR: dataDir });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/Applied migrations: 1/);
    const second = await cli(['migrate'], { DATA_DIR: dataDir });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/up to date/);

    const run = await cli(['account', 'create', '--name', 'Shop', '--json'], { DATA_DIR: dataDir });
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout.trim());
    expect(printed).toMatchObject({ name: 'Shop' });
    expect(printed.id).toMatch(/^acct_[0-9A-Za-z]+$/);
    expect(printed.test_secret_key).toMatch(/^sk_test_[0-9A-Za-z]{24,}$/);

    const other = await cli(['account', 'create', '--name', 'Other shop', '--currency', 'EUR'], { DATA_DIR: dataDir });
    expect(other.code, other.stderr).toBe(0);
    const listed = await cli(['account', 'list', '--json'], { DATA_DIR: dataDir });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout.trim())).toMatchObject([
      { id: printed.id, name: 'Shop', default_currency: 'USD' },
      { name: 'Other shop', default_currency: 'EUR' },
    ]);
    const text = await cli(['account', 'list'], { DATA_DIR: dataDir });
    expect(text.stdout).toMatch(new RegExp(`^${printed.id}\\s+USD\\s+\\d{4}-\\d{2}-\\d{2}\\s+Shop$`, 'm'));
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'account create and account list on PostgreSQL (DATABASE_URL)',
    { timeout: 2 * commandBoundMs },
    async ({ onTestFinished }) => {
      // A schema of its own, as docs/operations.md shows, so the shared test database stays clean.
      const url = process.env.TEST_DATABASE_URL!;
      const schema = `cli_${randomBytes(6).toString('hex')}`;
      const admin = await openPostgres(url, { max: 1 });
      await admin.query(`CREATE SCHEMA ${schema}`);
      onTestFinished(async () => {
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.close();
      });
      const env = { DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` };
      const created = await cli(['account', 'create', '--name', 'PG shop', '--json'], env);
      expect(created.code, created.stderr).toBe(0);
      const { id } = JSON.parse(created.stdout.trim());
      const listed = await cli(['account', 'list', '--json'], env);
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout.trim())).toMatchObject([{ id, name: 'PG shop', default_currency: 'USD' }]);
    },
  );

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
    ['METRICS_TOKEN', 'short'],
    ['SHUTDOWN_TIMEOUT_SECONDS', '0'],
  ])('serve stops at start-up when %s=%s, naming the variable', async (name, value) => {
    const run = await cli(['serve'], { [name]: value });
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull(); // it exited by itself, it was not killed by the timeout
    expect(run.stderr).toContain(`Invalid ${name}`);
    expect(run.stdout).not.toMatch(/is running/);
  });
});
