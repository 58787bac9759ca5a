import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, root } from './processes';

/**
 * Debian's PgBouncer in transaction pooling mode, started for a test run in front of a PostgreSQL
 * server: its configuration in a temporary folder, its own port, every database and role of the
 * server passed through (a role is looked up on the server, so a suite's own role with its own
 * search_path and bounds works at once). Installed first when missing (scripts/ensure-pgbouncer.sh).
 */
export interface PgBouncer {
  port: number;
  /** Its process (for its CPU time). */
  pid: number;
  /** `server` (a postgres:// URL of the server behind) with its host and port replaced by the bouncer's. */
  url(server: string): string;
  /** What it logged so far. */
  log(): string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** A postgres:// URL of the server to stand in front of; its user (a superuser) looks up the others. */
  server: string;
  /** Server connections per database and role (PgBouncer's `default_pool_size`). */
  poolSize?: number;
  /** More `[pgbouncer]` settings, e.g. `{ query_wait_timeout: '5' }`. */
  settings?: Record<string, string>;
}

const binary = '/usr/sbin/pgbouncer';

/** Installs Debian's pgbouncer if it is missing (apt-get, as the browser tests install Chromium). */
export function ensurePgBouncer(): void {
  const run = spawnSync('bash', [path.join(root, 'scripts/ensure-pgbouncer.sh')], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error('pgbouncer is not installed and could not be installed (scripts/ensure-pgbouncer.sh)');
}

export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  ensurePgBouncer();
  const server = new URL(options.server);
  const user = decodeURIComponent(server.username || 'postgres');
  const folder = mkdtempSync(path.join(tmpdir(), 'tp-pgbouncer-'));
  // Readable by the user it drops to when started as root (PgBouncer refuses to run as root).
  chmodSync(folder, 0o755);
  const port = await freePort();
  const settings: Record<string, string> = {
    listen_addr: '127.0.0.1',
    listen_port: String(port),
    unix_socket_dir: '',
    pool_mode: 'transaction',
    auth_type: 'trust',
    auth_file: path.join(folder, 'users.txt'),
    auth_user: user,
    auth_query: 'SELECT usename, passwd FROM pg_shadow WHERE usename = $1',
    max_client_conn: '500',
    default_pool_size: String(options.poolSize ?? 20),
    // Connections of roles dropped after their suite are closed soon.
    server_idle_timeout: '10',
    // A server that went away is tried again after a second, and a client waits at most this long
    // for a server connection before it is told the database is unavailable.
    server_login_retry: '1',
    server_connect_timeout: '5',
    query_wait_timeout: '10',
    ...options.settings,
  };
  const ini = [
    '[databases]',
    `* = host=${server.hostname} port=${server.port || '5432'}`,
    '[pgbouncer]',
    ...Object.entries(settings).map(([name, value]) => `${name} = ${value}`),
    '',
  ].join('\n');
  writeFileSync(path.join(folder, 'pgbouncer.ini'), ini, { mode: 0o644 });
  writeFileSync(path.join(folder, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(binary, [...(asRoot ? ['-u', 'postgres'] : []), path.join(folder, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stopOnExit = () => child.kill('SIGKILL');
  process.once('exit', stopOnExit);
  const url = (target: string) => {
    const through = new URL(target);
    through.hostname = '127.0.0.1';
    through.port = String(port);
    return through.toString();
  };
  const stop = async () => {
    process.off('exit', stopOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      // SIGTERM: PgBouncer's immediate shutdown.
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`pgbouncer exited at start: ${log}`);
    }
    const client = new pg.Client({ connectionString: url(options.server), connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`pgbouncer did not answer: ${(error as Error).message}\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { port, pid: child.pid!, url, log: () => log, stop };
}
