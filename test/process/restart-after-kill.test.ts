import { cliBundle } from '../support/cli-bundle';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/runtime/data-dir-lock';
import { startServe, stopAll, until, type ServerProcess } from '../support/processes';
import { seededDataDir } from '../support/pglite-template';

/**
 * The embedded database's one-writer lock after a `kill -9`: the killed server stays a zombie until
 * its parent waits for it. Here its parent is a shell that became `sleep` and never waits, so it
 * stays one for the whole test; a new server on the same DATA_DIR must start at once all the same.
 */
describe('restart right after kill -9 on the embedded database', () => {
  const dataDir = seededDataDir('tillpoint-zombie-', { migrated: true });
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await stopAll(servers);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is not refused while the killed server is a zombie', { timeout: 240_000 }, async () => {
    const first = await startServe({ DATA_DIR: dataDir }, { command: ['sh', '-c', `"${process.execPath}" "${cliBundle}" serve & exec sleep 600`] });
    servers.push(first);
    const { pid } = JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as { pid: number };
    process.kill(pid, 'SIGKILL');
    const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    expect(await until(() => state() === 'Z', 10_000)).toBe(true);

    const second = await startServe({ DATA_DIR: dataDir });
    servers.push(second);
    expect(second.stderr()).not.toMatch(/is in use by/);
    expect((await fetch(`${second.base}/readyz`)).status).toBe(200);
    expect(state()).toBe('Z');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
