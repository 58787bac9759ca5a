import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes';

const run = promisify(execFile);

/**
 * PostgreSQL clusters of a test's own, in a temporary folder on a port of their own: a primary made
 * by `initdb`, and hot standbys of it made by `pg_basebackup -R`. A test may stop, crash and restart
 * them at will; the shared server the other suites use is never touched.
 */
export interface Cluster {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  dataDir: string;
  /** `pg_ctl stop`: `fast` (sessions ended cleanly) or `immediate` (as if the server crashed: recovery on start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops (if running) and deletes the folder. */
  remove(): Promise<void>;
}

/** The newest PostgreSQL server binaries installed (Debian keeps them per version), or null. */
export function postgresBinaries(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((name) => existsSync(path.join(base, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : null;
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL tool as the `postgres` OS user when we are root (initdb and the server refuse root). */
async function tool(name: string, args: string[], timeoutMs = 120_000): Promise<string> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL server binaries are not installed (/usr/lib/postgresql/<version>/bin)');
  const [program, ...programArgs] = asRoot ? ['runuser', '-u', 'postgres', '--', path.join(bin, name), ...args] : [path.join(bin, name), ...args];
  try {
    const { stdout } = await run(program!, programArgs, { timeout: timeoutMs, cwd: tmpdir() });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${name} ${args.join(' ')} failed: ${stderr || stdout || (error as Error).message}`);
  }
}

/** A temporary folder the `postgres` OS user owns when we are root. */
function ownFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  if (asRoot) {
    const entry = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((line) => line.split(':'))
      .find((fields) => fields[0] === 'postgres');
    if (!entry) throw new Error('no postgres user to run the server as');
    chownSync(folder, Number(entry[2]), Number(entry[3]));
  }
  return folder;
}

function cluster(folder: string, port: number): Cluster {
  const dataDir = path.join(folder, 'data');
  let running = true;
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    if (!running) return;
    await tool('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    running = false;
  };
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    stop,
    async start() {
      await tool('pg_ctl', ['-D', dataDir, '-l', path.join(folder, 'server.log'), '-w', '-t', '120', 'start']);
      running = true;
    },
    async remove() {
      await stop('immediate').catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Settings of every cluster here: its port and socket folder, replication on, little memory. */
function settingsFor(folder: string, port: number, more: Record<string, string>): string {
  const settings: Record<string, string> = {
    port: String(port),
    listen_addresses: "'127.0.0.1'",
    unix_socket_directories: `'${folder}'`,
    wal_level: 'replica',
    max_wal_senders: '5',
    hot_standby: 'on',
    shared_buffers: "'32MB'",
    // Only the operating system crashing loses what was not flushed, and the tests crash the server,
    // never the machine: commits stay acknowledged after their WAL is written (synchronous_commit on).
    fsync: 'off',
    full_page_writes: 'off',
    ...more,
  };
  return `\n${Object.entries(settings)
    .map(([name, value]) => `${name} = ${value}`)
    .join('\n')}\n`;
}

/** A new primary: `initdb` into a temporary folder, started on a free port. */
export async function startCluster(options: { settings?: Record<string, string> } = {}): Promise<Cluster> {
  const folder = ownFolder('tp-cluster-');
  const port = await freePort();
  const made = cluster(folder, port);
  try {
    await tool('initdb', ['-D', made.dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    appendFileSync(path.join(made.dataDir, 'postgresql.conf'), settingsFor(folder, port, options.settings ?? {}));
    await made.start();
  } catch (error) {
    await made.remove();
    throw error;
  }
  return made;
}

/** A hot standby of `primary`: `pg_basebackup -R` into a temporary folder, started on a free port. */
export async function startStandby(primary: Cluster): Promise<Cluster> {
  const folder = ownFolder('tp-standby-');
  const port = await freePort();
  const made = cluster(folder, port);
  try {
    await tool('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', made.dataDir, '-R', '-X', 'stream', '--no-sync']);
    // The copy carries the primary's settings; these come after them and win.
    appendFileSync(path.join(made.dataDir, 'postgresql.conf'), settingsFor(folder, port, {}));
    await made.start();
  } catch (error) {
    await made.remove();
    throw error;
  }
  return made;
}
