import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { adminSocketPath, pingAdminSocket } from './admin-socket';

/**
 * One writer on the embedded database: whoever writes to DATA_DIR (`tillpoint serve`, or a CLI
 * command when no server runs) first creates `DATA_DIR/tillpoint.lock` with O_EXCL. A lock left by
 * a process that died is recognised and taken over: its process is gone (same host) or its admin
 * socket no longer answers (another container on the same volume).
 */
export const LOCK_FILE = 'tillpoint.lock';

export interface LockHolder {
  pid: number;
  hostname: string;
  /** `serve` answers on the admin socket; `command` is a short CLI run. */
  role: 'serve' | 'command';
  /** What the holder runs, for messages (`serve`, `account create`, …). */
  what: string;
  startedAt: string;
  nonce: string;
}

export interface DataDirLock {
  readonly holder: LockHolder;
  /** Removes the lock if it is still ours. Safe to call twice, and from an 'exit' handler (synchronous). */
  release(): void;
}

/** Why a lock could not be had, with the message an operator reads. */
export class DataDirError extends Error {
  constructor(
    readonly reason: 'not_writable' | 'locked',
    message: string,
    readonly holder: LockHolder | null = null,
  ) {
    super(message);
    this.name = 'DataDirError';
  }
}

function lockPath(dataDir: string) {
  return path.join(dataDir, LOCK_FILE);
}

function readHolder(file: string): { raw: string; holder: LockHolder | null } | null {
  try {
    const raw = readFileSync(file, 'utf8');
    try {
      return { raw, holder: JSON.parse(raw) as LockHolder };
    } catch {
      // Half written by a process that died between create and write.
      return { raw, holder: null };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !exited(pid);
}

/**
 * Whether `pid` has exited and only waits to be reaped (a zombie): `kill(pid, 0)` still succeeds
 * for it, though it holds nothing. A server killed with `kill -9` stays one until its parent (a
 * shell, a supervisor) waits for it, and a restart right away must not take it for a live server.
 * Read from Linux's /proc/<pid>/stat; elsewhere (no /proc) a process that exists counts as alive.
 */
function exited(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "pid (comm) state …": comm may hold spaces and parentheses, so the state follows the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

/**
 * Whether the holder still runs. A server proves it on its admin socket (with the nonce of the lock);
 * otherwise, on the same host, its process must exist; on another host (an earlier container on the
 * same volume), a holder that does not answer on the socket is gone.
 */
async function holderAlive(dataDir: string, holder: LockHolder | null): Promise<boolean> {
  if (!holder) return false;
  if (holder.role === 'serve') {
    const status = await pingAdminSocket(adminSocketPath(dataDir));
    if (status?.nonce === holder.nonce) return true;
  }
  if (holder.hostname !== hostname()) return false;
  if (holder.pid === process.pid) return false; // an earlier life of this pid (e.g. pid 1 in a restarted container)
  return processAlive(holder.pid);
}

function notWritable(dataDir: string, error: NodeJS.ErrnoException): DataDirError {
  const user = typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '';
  return new DataDirError(
    'not_writable',
    `DATA_DIR ${dataDir} is not writable by this user${user}: ${error.code ?? error.message}. ` +
      'Give this user write access to it (e.g. chown), or set DATA_DIR to a folder it can write.',
  );
}

/**
 * Takes the lock on `dataDir` (creating the folder), or throws a `DataDirError`: not writable, or
 * held by a live process. `waitMs` waits that long for a holder that is a short CLI command.
 */
export async function lockDataDir(dataDir: string, who: { role: LockHolder['role']; what: string }, options: { waitMs?: number } = {}): Promise<DataDirLock> {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw notWritable(dataDir, error as NodeJS.ErrnoException);
  }
  const file = lockPath(dataDir);
  const holder: LockHolder = {
    pid: process.pid,
    hostname: hostname(),
    role: who.role,
    what: who.what,
    startedAt: new Date().toISOString(),
    nonce: randomBytes(12).toString('hex'),
  };
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (let round = 0; ; round++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify(holder));
      } finally {
        closeSync(fd);
      }
      let released = false;
      return {
        holder,
        release() {
          if (released) return;
          released = true;
          if (readHolder(file)?.holder?.nonce === holder.nonce) unlinkSync(file);
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw notWritable(dataDir, error as NodeJS.ErrnoException);
    }
    const current = readHolder(file);
    if (!current) continue; // released meanwhile: try again
    if (!(await holderAlive(dataDir, current.holder))) {
      takeOver(file, current.raw);
      continue;
    }
    const other = current.holder!;
    if (other.role === 'command' && Date.now() < deadline && round < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    throw new DataDirError('locked', lockedMessage(dataDir, other, who.role), other);
  }
}

function lockedMessage(dataDir: string, other: LockHolder, role: LockHolder['role']): string {
  const by =
    other.role === 'serve'
      ? `a running \`tillpoint serve\` (pid ${other.pid} on ${other.hostname}, since ${other.startedAt})`
      : `\`tillpoint ${other.what}\` (pid ${other.pid} on ${other.hostname})`;
  const fix =
    role === 'serve'
      ? other.role === 'serve'
        ? 'Only one server may use an embedded database: stop that server first, give this one another DATA_DIR, or set DATABASE_URL to a PostgreSQL server to run several instances.'
        : 'Wait for that command to finish, then start the server again.'
      : `Wait for it to finish and run this command again.`;
  const stale = `If no such process runs, remove ${lockPath(dataDir)}.`;
  return `DATA_DIR ${dataDir} is in use by ${by}. ${fix} ${stale}`;
}

/**
 * Replaces a dead holder's lock. Renaming is atomic, so two processes cannot both move the same
 * stale file; one that moved a lock that meanwhile became live (the content differs) puts it back.
 */
function takeOver(file: string, staleRaw: string) {
  const tombstone = `${file}.stale-${randomBytes(6).toString('hex')}`;
  try {
    renameSync(file, tombstone);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else took it over
    throw error;
  }
  try {
    if (readFileSync(tombstone, 'utf8') !== staleRaw) {
      try {
        linkSync(tombstone, file);
      } catch {
        // A third process holds it now: theirs stands.
      }
    }
  } finally {
    unlinkSync(tombstone);
  }
}
