import { cli, commandBoundMs, freePort, startServe, until } from '../support/processes';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { seededDataDir } from '../support/pglite-template';

/** The operator's access commands, as typed on the server: against a running `serve` and without one. */
const dirs: string[] = [];

function freshDataDir(): string {
  const dir = seededDataDir('tillpoint-access-cli-', { migrated: true });
  dirs.push(dir);
  return dir;
}

/** A browser's pre-sign-in CSRF cookie and token, then a public POST with them. */
async function publicPost(base: string, pathname: string, body: object) {
  const session = await fetch(`${base}/dashboard/api/session`);
  const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
  const { csrf_token } = (await session.json()) as { csrf_token: string };
  return fetch(`${base}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf_token },
    body: JSON.stringify(body),
  });
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('tillpoint setup-link and password-reset-link', () => {
  it('without a server: a link for the only account; refusals for an unknown account or email', { timeout: 2 * commandBoundMs }, async () => {
    const dataDir = freshDataDir();
    const none = await cli(['setup-link'], { DATA_DIR: dataDir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--account');
    const account = JSON.parse((await cli(['account', 'create', '--name', 'Only Shop', '--json'], { DATA_DIR: dataDir })).stdout) as { id: string };
    const link = await cli(['setup-link', '--json'], { DATA_DIR: dataDir, PUBLIC_URL: 'https://pay.shop.example' });
    expect(link.code, link.stderr).toBe(0);
    expect(JSON.parse(link.stdout)).toMatchObject({
      account: account.id,
      url: expect.stringMatching(/^https:\/\/pay\.shop\.example\/dashboard\/setup\/setup_[A-Za-z0-9]{32}$/),
    });
    const unknownAccount = await cli(['setup-link', '--account', 'acct_nope'], { DATA_DIR: dataDir });
    expect(unknownAccount.code).toBe(2);
    expect(unknownAccount.stderr).toContain("No such account: 'acct_nope'");
    const unknownEmail = await cli(['password-reset-link', '--email', 'nobody@shop.example'], { DATA_DIR: dataDir });
    expect(unknownEmail.code).toBe(2);
    expect(unknownEmail.stderr).toContain('No such user');
  });

  it("through the running server: the first start's setup link claims the demo account; the CLI makes a new one and a reset link", {
    timeout: 2 * commandBoundMs,
  }, async () => {
    const dataDir = freshDataDir();
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const env = { DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' };
    const server = await startServe(env, { port });
    try {
      // The banner follows the first answer of /healthz.
      expect(await until(() => /Dashboard: /.test(server.stdout()), commandBoundMs), server.stdout()).toBe(true);
      const output = server.stdout();
      expect(output).toContain('new people join by invitation');
      const printed = /setup link:\s+(\S+)/.exec(output)![1]!;

      // A new link through the server's admin socket withdraws the printed one.
      const made = await cli(['setup-link'], env);
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toContain('Setup link for Demo Coffee Roasters');
      const fresh = /(http:\/\/\S+\/dashboard\/setup\/setup_\w+)/.exec(made.stdout)![1]!;
      const person = { email: 'opal@roasters.example', password: 'a long enough passphrase', name: 'Opal' };
      expect((await publicPost(base, new URL(printed).pathname.replace('/dashboard/', '/dashboard/api/'), person)).status).toBe(404);
      expect((await publicPost(base, new URL(fresh).pathname.replace('/dashboard/', '/dashboard/api/'), person)).status).toBe(201);

      const reset = await cli(['password-reset-link', '--email', 'OPAL@roasters.example', '--json'], env);
      expect(reset.code, reset.stderr).toBe(0);
      const { url } = JSON.parse(reset.stdout) as { url: string };
      const used = await publicPost(base, new URL(url).pathname.replace('/dashboard/reset-password/', '/dashboard/api/password-reset/'), {
        password: 'a new long passphrase',
      });
      expect(used.status).toBe(200);
      expect((await publicPost(base, '/dashboard/api/sign-in', { email: person.email, password: 'a new long passphrase' })).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    // Typed where neither PUBLIC_URL nor PORT is set, and run by the CLI itself (as always on
    // PostgreSQL): the link names the address the server was started with, not the default port.
    const elsewhere = await cli(['setup-link', '--json'], { DATA_DIR: dataDir });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect((JSON.parse(elsewhere.stdout) as { url: string }).url.startsWith(`${base}/dashboard/setup/setup_`)).toBe(true);
    // This shell's own PUBLIC_URL still wins.
    const named = await cli(['setup-link', '--json'], { DATA_DIR: dataDir, PUBLIC_URL: 'https://pay.shop.example' });
    expect((JSON.parse(named.stdout) as { url: string }).url.startsWith('https://pay.shop.example/dashboard/setup/')).toBe(true);
  });
});
