import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startAdminSocket, type AdminSocket } from './admin-socket';
import { DataDirError, LOCK_FILE, lockDataDir, type LockHolder } from './data-dir-lock';

const dirs: string[] = [];
const children: Array<ReturnType<typeof spawn>> = [];
let socket: AdminSocket | null = null;

function freshDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tp-lock-'));
  dirs.push(dir);
  return dir;
}

function writeHolder(dir: string, holder: Partial<LockHolder>) {
  const full: LockHolder = { pid: 1, hostname: hostname(), role: 'serve', what: 'serve', startedAt: '2026-01-01T00:00:00.000Z', nonce: 'n0', ...holder };
  writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(full));
}

/** A process that lives until the test ends (a stand-in for another tillpoint). */
function liveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

afterEach(async () => {
  await socket?.close();
  socket = null;
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the DATA_DIR lock', () => {
  it('is taken in a new folder and removed on release', async () => {
    const dir = path.join(freshDir(), 'nested', 'data');
    const lock = await lockDataDir(dir, { role: 'serve', what: 'serve' });
    const written = JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as LockHolder;
    expect(written).toMatchObject({ pid: process.pid, role: 'serve', nonce: lock.holder.nonce });
    lock.release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses while a live server holds it, naming the holder and the fix', async () => {
    const dir = freshDir();
    const pid = liveProcess();
    writeHolder(dir, { pid, role: 'serve' });
    const error = await lockDataDir(dir, { role: 'serve', what: 'serve' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirError);
    expect((error as DataDirError).reason).toBe('locked');
    expect((error as Error).message).toContain(`pid ${pid}`);
    expect((error as Error).message).toMatch(/stop that server first.*DATABASE_URL/);
    expect(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).toContain(`"pid":${pid}`);
  });

  it('takes over the lock of a process that died (killed, never released)', async () => {
    const dir = freshDir();
    writeHolder(dir, { pid: await deadPid(), role: 'serve' });
    const lock = await lockDataDir(dir, { role: 'serve', what: 'serve' });
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).nonce).toBe(lock.holder.nonce);
    lock.release();
  });

  it('takes over the lock of a killed server that is a zombie (exited, not yet reaped by its parent)', async () => {
    const dir = freshDir();
    // The shell starts a child that exits at once, prints its pid, and becomes a `sleep` that never
    // waits for it: the child stays a zombie, which `kill(pid, 0)` still finds.
    const parent = spawn('sh', ['-c', 'node -e "" & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(parent);
    const pid = Number((await new Promise<Buffer>((resolve) => parent.stdout!.once('data', resolve))).toString().trim());
    const deadline = Date.now() + 10_000;
    while (!readFileSync(`/proc/${pid}/stat`, 'utf8').match(/\) Z /) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /);
    expect(() => process.kill(pid, 0)).not.toThrow();
    writeHolder(dir, { pid, role: 'serve' });
    const lock = await lockDataDir(dir, { role: 'serve', what: 'serve' });
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).nonce).toBe(lock.holder.nonce);
    lock.release();
  });

  it('takes over a half-written lock file', async () => {
    const dir = freshDir();
    writeFileSync(path.join(dir, LOCK_FILE), '{"pid":');
    (await lockDataDir(dir, { role: 'command', what: 'migrate' })).release();
  });

  it("on a shared volume, trusts the admin socket: a server of another host that answers keeps it, one that doesn't loses it", async () => {
    const dir = freshDir();
    writeHolder(dir, { hostname: 'another-container', role: 'serve', nonce: 'alive-nonce' });
    socket = await startAdminSocket({
      dataDir: dir,
      status: { pid: 4242, nonce: 'alive-nonce', startedAt: 'now' },
      run: async () => ({ exitCode: 0, stdout: '', stderr: '' }),
    });
    await expect(lockDataDir(dir, { role: 'serve', what: 'serve' })).rejects.toThrow(/in use by a running `tillpoint serve`/);
    await socket.close();
    socket = null;
    (await lockDataDir(dir, { role: 'serve', what: 'serve' })).release();
  });

  it('waits for a CLI command that holds it, then takes it', async () => {
    const dir = freshDir();
    const pid = liveProcess();
    writeHolder(dir, { pid, role: 'command', what: 'account create' });
    await expect(lockDataDir(dir, { role: 'command', what: 'migrate' })).rejects.toThrow(/`tillpoint account create`.*Wait for it to finish/);
    setTimeout(() => unlinkSync(path.join(dir, LOCK_FILE)), 300);
    (await lockDataDir(dir, { role: 'command', what: 'migrate' }, { waitMs: 10_000 })).release();
  });

  it('says so when DATA_DIR cannot be written', async () => {
    const file = path.join(freshDir(), 'a-file');
    writeFileSync(file, '');
    const error = await lockDataDir(path.join(file, 'data'), { role: 'serve', what: 'serve' }).catch((e: unknown) => e);
    expect((error as DataDirError).reason).toBe('not_writable');
    expect((error as Error).message).toMatch(/^DATA_DIR .*a-file\/data is not writable by this user.*set DATA_DIR to a folder it can write/);
  });
});
