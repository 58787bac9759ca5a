import { cliBundle } from './cli-bundle';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real `tillpoint` processes, for the tests of what only a process shows (locks, signals, exits). */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Variables of the caller's environment that must not pick the database, port or keys of a run. */
const isolated = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'PUBLIC_URL',
  'LOG_LEVEL',
  'TILLPOINT_SECRET_KEY',
  'METRICS_TOKEN',
  'SHUTDOWN_TIMEOUT_SECONDS',
  'SIGNUP',
  'SMTP_URL',
  'SMTP_FROM',
];

export function cleanEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: Record<string, string | undefined> = { ...process.env };
  for (const name of isolated) delete merged[name];
  Object.assign(merged, env);
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  return merged as NodeJS.ProcessEnv;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * How long one command may run before its test calls it hung: the allowance of a first start. A
 * command opens its own embedded database (seconds of CPU; initdb and every migration on a fresh
 * DATA_DIR, about ten), and beside both test runners on a slow day a fresh `migrate` took over 60 s.
 */
export const commandBoundMs = 150_000;

/**
 * A command runs on V8's baseline WebAssembly compiler alone (Liftoff): it is done with the embedded
 * database before the optimizing compiler's background work on PGlite's hot functions pays off, which
 * was about a third of a command's CPU (1.5 CPU-s against 1.0 for `account list`; a fresh `migrate`
 * 5.0 against 3.8, in the same time). The same WebAssembly runs, compiled by the other of V8's two
 * compilers.
 */
const oneShotFlags = ['--liftoff-only'];

/**
 * Runs `tillpoint <args>` to its end (killed after `commandBoundMs`: then `code` is null).
 * `withoutFileOverride` runs it without the power to ignore file modes, which root has: as root,
 * through util-linux's `setpriv` with CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH dropped (still root,
 * so it reads the clone wherever it sits); as anyone else, as it is.
 */
export function cli(args: string[], env: Record<string, string | undefined>, options: { withoutFileOverride?: boolean } = {}): Promise<Run> {
  const dropOverride = options.withoutFileOverride === true && process.getuid?.() === 0;
  const command = [process.execPath, ...oneShotFlags, cliBundle, ...args];
  const [program, ...programArgs] = dropOverride ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--', ...command] : command;
  return new Promise((resolve) => {
    execFile(program!, programArgs, { cwd: root, env: cleanEnv(env), timeout: commandBoundMs }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** Everything it wrote to stdout (the start-up banner, links) and to stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** Starts `tillpoint serve` (or the given command line) and waits until `/healthz` answers. */
export async function startServe(
  env: Record<string, string | undefined>,
  options: { command?: string[]; port?: number; timeoutMs?: number; cwd?: string } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const [program, ...args] = options.command ?? [process.execPath, cliBundle, 'serve'];
  const child = spawn(program!, args, {
    cwd: options.cwd ?? root,
    env: cleanEnv({ LOG_LEVEL: 'warn', ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? commandBoundMs);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`serve did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return { child, base, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Polls until `condition` holds; false when `ms` pass first. */
export async function until(condition: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** Stops every process still running (afterEach / afterAll). */
export async function stopAll(servers: ServerProcess[]) {
  for (const server of servers.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
}
