import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/runtime/config';
import { startServer } from '../../src/runtime/serve';
import { seededDataDir } from '../support/pglite-template';

/** `tillpoint serve` in this process, on the embedded database in a DATA_DIR of its own. */
const serve = (dataDir: string) =>
  // Any free port (PORT itself must name one).
  startServer({ ...readConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'silent' }), port: 0 }, { webRoot: path.resolve('dist') });

describe('serve shuts down in order and gives DATA_DIR back', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('runs its shutdown hooks with the database still open, then closes it and frees DATA_DIR for the next server', { timeout: 60_000 }, async () => {
    const dataDir = seededDataDir('tillpoint-shutdown-', { migrated: true });
    dirs.push(dataDir);
    const first = await serve(dataDir);
    const seen: string[] = [];
    first.onShutdown('read a session', async () => {
      const session = await first.tillpoint.deps.store.read((reader) => reader.checkoutSessions.get(null, 'cs_none'));
      seen.push(`the database answered: ${session}`);
    });
    await first.shutdown();
    expect(seen).toEqual(['the database answered: null']);
    // Shutdown is idempotent.
    await first.shutdown();

    // The lock and the admin socket are gone: a second server takes the same DATA_DIR at once.
    const second = await serve(dataDir);
    try {
      const res = await second.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(200);
    } finally {
      await second.shutdown();
    }
  });
});
