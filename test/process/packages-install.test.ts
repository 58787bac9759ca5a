import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, root, startServe, stopAll, type Run, type ServerProcess } from '../support/processes';

/**
 * What a merchant's developer does outside this repository: pack the SDK and the CLI, install both
 * tarballs into an empty project, and use them there. `npm pack` of the SDK builds it (its prepack);
 * the root is packed without its prepack (`npm run build`) so that this test does not rebuild
 * dist/web under the other tests' feet: like the checkout page's tests, it needs `npm run build`.
 * About a minute on an idle machine: installing takes 20–30 s (npm resolves the CLI's dependencies
 * from its cache, else the registry), and the embedded database is created once.
 */
const work = mkdtempSync(path.join(tmpdir(), 'tp-packages-'));
const project = path.join(work, 'shop');
const dataDir = path.join(work, 'data');
const servers: ServerProcess[] = [];

function run(program: string, args: string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(program, args, { cwd, env: cleanEnv(env), timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=warn'], cwd);
const installedCli = () => path.join(project, 'node_modules', '.bin', 'tillpoint');

/** The README's SDK example, as printed. */
function readmeExample(): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const block = /```ts\n(import \{ Tillpoint \} from '@tillpoint\/node';[\s\S]*?)```/.exec(readme);
  if (!block) throw new Error("README.md has no ```ts block importing Tillpoint from '@tillpoint/node'");
  return block[1]!;
}

beforeAll(async () => {
  const web = path.join(root, 'dist/web');
  if (!existsSync(web) || readdirSync(web).length === 0) throw new Error('dist/web is missing: run `npm run build` first');
  const sdk = await npm(['pack', '-w', '@tillpoint/node', '--pack-destination', work], root);
  expect(sdk.code, sdk.stderr).toBe(0);
  const cli = await npm(['pack', '--ignore-scripts', '--pack-destination', work], root);
  expect(cli.code, cli.stderr).toBe(0);
  const tarballs = readdirSync(work).filter((name) => name.endsWith('.tgz'));
  expect(tarballs.sort()).toEqual(['tillpoint-0.1.0.tgz', 'tillpoint-node-0.1.0.tgz']);

  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }));
  const installed = await npm(['install', '--prefer-offline', ...tarballs.map((name) => path.join(work, name))], project);
  expect(installed.code, installed.stderr).toBe(0);
  // A merchant on Node 20 sees no engine warning, and neither package asks to run a script on install.
  expect(installed.stderr).not.toMatch(/EBADENGINE/);
  expect(installed.stderr).not.toMatch(/tillpoint/);
  // Packing and installing took close to four minutes beside both test runners on a slow day.
}, 600_000);

afterAll(async () => {
  await stopAll(servers);
  rmSync(work, { recursive: true, force: true });
});

describe('the SDK and the CLI installed from their tarballs into an empty project', () => {
  it('the SDK imports as @tillpoint/node with nothing built by hand', async () => {
    const imported = await run(
      process.execPath,
      ['--input-type=module', '-e', "import { Tillpoint } from '@tillpoint/node'; console.log(typeof Tillpoint)"],
      project,
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.trim()).toBe('function');
  });

  it("the SDK installs from the clone's folder too, as built there (npm install builds it)", { timeout: 90_000 }, async () => {
    const sibling = path.join(work, 'sibling');
    mkdirSync(sibling, { recursive: true });
    writeFileSync(path.join(sibling, 'package.json'), JSON.stringify({ name: 'sibling', private: true, type: 'module' }));
    const installed = await npm(['install', '--prefer-offline', path.join(root, 'sdk', 'node')], sibling);
    expect(installed.code, installed.stderr).toBe(0);
    const imported = await run(
      process.execPath,
      ['--input-type=module', '-e', "import { Tillpoint } from '@tillpoint/node'; console.log(typeof Tillpoint)"],
      sibling,
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.trim()).toBe('function');
  });

  it("the installed tillpoint bin creates an account and serves; the README's example runs against it", { timeout: 360_000 }, async () => {
    const version = await run(installedCli(), ['--version'], project);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version);

    const created = await run(installedCli(), ['account', 'create', '--name', 'Shop', '--json'], project, { DATA_DIR: dataDir });
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout.trim()).test_secret_key as string;

    const server = await startServe({ DATA_DIR: dataDir }, { command: [installedCli(), 'serve'], cwd: project });
    servers.push(server);
    // The shopper opens the checkout page (rendered by the installed package: its JSX, its built
    // assets) and pays where the README says so, through the page's own API with a fake nonce.
    const shopperPays = [
      `{ const paying = await fetch(\`\${session.url}\`); if (!paying.ok) throw new Error('checkout page: ' + paying.status);`,
      `  const res = await fetch(\`${server.base}/api/checkout/sessions/\${session.id}/payments\`, { method: 'POST', headers: { 'content-type': 'application/json' },`,
      `    body: JSON.stringify({ payment_method_type: 'card', nonce: 'fake-valid-nonce', email: 'shopper@example.com' }) });`,
      `  if (!res.ok) throw new Error('pay: ' + res.status + ' ' + await res.text()); }`,
    ].join('\n');
    const example = readmeExample()
      .replaceAll('http://localhost:4242', server.base)
      .replace(/^const paid = /m, `${shopperPays}\nconst paid = `);
    expect(example).toContain('pay: ');
    writeFileSync(path.join(project, 'example.ts'), `${example}\nconsole.log(JSON.stringify({ session: session.id, paid: paid.status }));\n`);
    const ran = await run(path.join(project, 'node_modules', '.bin', 'tsx'), ['example.ts'], project, { TILLPOINT_API_KEY: key });
    expect(ran.code, ran.stderr).toBe(0);
    const lines = ran.stdout.trim().split('\n');
    expect(lines.at(-1)).toMatch(/"paid":"complete"/);
    expect(lines.filter((line) => line.startsWith('evt_')).length).toBeGreaterThanOrEqual(1);
    expect(server.stderr()).not.toMatch(/"level":50/);
  });
});
