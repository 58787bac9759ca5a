import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, freePort, root, startServe, stopAll, type ServerProcess } from '../support/processes';

/**
 * No container engine runs here, so this runs what the image runs, read from the Dockerfile itself:
 * its CMD with its ENV (DATA_DIR pointed at a fresh folder, as the volume would be; PORT at a free
 * port), then its HEALTHCHECK command. A change to the Dockerfile's start is tested as it is.
 */
const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');

function instruction(name: string): string[] {
  return dockerfile
    .split('\n')
    .filter((line) => line.startsWith(`${name} `))
    .map((line) => line.slice(name.length + 1).trim());
}

/** `ENV A=1 B=2` lines (no quoting is used in ours). */
function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of instruction('ENV')) {
    for (const pair of line.split(/\s+/)) {
      const [name, ...value] = pair.split('=');
      env[name!] = value.join('=');
    }
  }
  return env;
}

/** The exec form `["node", "…"]`, with `node` as this Node binary. */
function execForm(text: string): string[] {
  const parsed = JSON.parse(text) as string[];
  return parsed.map((part, i) => (i === 0 && part === 'node' ? process.execPath : part));
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-image-'));
const servers: ServerProcess[] = [];

afterAll(async () => {
  await stopAll(servers);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the image's start command, outside a container", () => {
  it('runs as a non-root user with DATA_DIR as a volume and a HEALTHCHECK', () => {
    expect(instruction('USER')).toEqual(['node']);
    expect(instruction('VOLUME')).toEqual(['["/data"]']);
    expect(imageEnv()).toMatchObject({ DATA_DIR: '/data', HOST: '0.0.0.0', NODE_ENV: 'production' });
    expect(instruction('FROM').length).toBeGreaterThanOrEqual(2); // multi-stage
    expect(instruction('HEALTHCHECK')[0]).toMatch(/ CMD \[/);
  });

  it('serves /healthz and /readyz, passes its own HEALTHCHECK, and stops cleanly on SIGTERM', { timeout: 240_000 }, async () => {
    const port = await freePort();
    const env = { ...imageEnv(), DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
    const [cmd] = instruction('CMD');
    const server = await startServe(env, { command: execForm(cmd!), port });
    servers.push(server);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.base}/readyz`);
    expect(ready.status, await ready.clone().text()).toBe(200);

    const healthcheck = execForm(/CMD (\[.*\])\s*$/.exec(instruction('HEALTHCHECK')[0]!)![1]!);
    const code = await new Promise<number | null>((resolve) =>
      execFile(healthcheck[0]!, healthcheck.slice(1), { env: cleanEnv(env), timeout: 30_000 }, (error) =>
        resolve(error ? (typeof error.code === 'number' ? error.code : null) : 0),
      ),
    );
    expect(code).toBe(0);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
