import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../support/processes';
import { seededDataDir } from '../support/pglite-template';

describe('tillpoint serve on a port already taken', () => {
  const dataDir = seededDataDir('tp-port-', { migrated: true });
  let holder: Server | null = null;
  afterAll(async () => {
    await new Promise<void>((resolve) => (holder ? holder.close(() => resolve()) : resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 1 with a sentence that names the port and what to do, not a stack trace', { timeout: 120_000 }, async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder!.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    const run = await cli(['serve'], { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`tillpoint: cannot listen on 127.0.0.1:${port}: the port is in use`);
    expect(run.stderr).toContain('set PORT to a free port');
    expect(run.stderr).not.toMatch(/at Server\.setupListenHandle|node:net/);
  });
});
