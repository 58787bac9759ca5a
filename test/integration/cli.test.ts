import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** The CLI runs once, not per database: it makes its own embedded database in DATA_DIR. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];

function freshDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tillpoint-cli-'));
  dirs.push(dir);
  return dir;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const base = { ...process.env };
  // Nothing from the caller's environment may pick the database or port for these runs.
  for (const name of ['PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'PUBLIC_URL', 'LOG_LEVEL']) delete base[name];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/tillpoint.js', ...args],
      { cwd: root, env: { ...base, ...env, DATA_DIR: env.DATA_DIR ?? freshDataDir() }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.concurrent('tillpoint CLI', () => {
  it('--help lists serve, migrate and account', async () => {
    const run = await cli(['--help']);
    expect(run.code, run.stderr).toBe(0);
    for (const command of ['serve', 'migrate', 'account']) expect(run.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  // One data folder through its life: a fresh embedded database takes several seconds to create
  // (PGlite's initdb), so the stateful commands share it instead of paying that cost each.
  it('migrate brings a fresh embedded database up to date; account create then prints JSON', { timeout: 120_000 }, async () => {
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
  });

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
