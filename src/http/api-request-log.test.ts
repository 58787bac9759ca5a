import { describe, expect, it } from 'vitest';
import type { Deps, UnitOfWork } from '../domain/deps';
import type { ApiRequestRecord } from '../domain/team/entities';
import { ApiRequestLogBuffer } from './api-request-log';

/** A store whose request-log writes wait until released, noting each batch's size. */
function slowStore() {
  const batches: number[] = [];
  const release: Array<() => void> = [];
  const store = {
    once: async <T>(work: (db: UnitOfWork) => Promise<T>) =>
      work({
        apiRequests: {
          insertMany: async (records: ApiRequestRecord[]) => {
            batches.push(records.length);
            await new Promise<void>((resolve) => release.push(resolve));
          },
        },
      } as unknown as UnitOfWork),
  } as unknown as Deps['store'];
  return { store, batches, release };
}

const record = (n: number): ApiRequestRecord => ({
  id: `req_log_${n}`,
  accountId: 'acct_1',
  mode: 'test',
  keyId: 'key_1',
  method: 'POST',
  path: '/v1/checkout/sessions',
  status: 200,
  errorCode: null,
  requestId: `req_${n}`,
  at: new Date(0),
});
const quiet = { warn: () => undefined, error: () => undefined };
const settle = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the request log buffer', () => {
  it('calls noted while a batch is written wait for a full batch or 50 ms, not one statement each', async () => {
    const { store, batches, release } = slowStore();
    const buffer = new ApiRequestLogBuffer({ store }, quiet);
    for (let n = 0; n < 200; n++) buffer.add(record(n));
    await settle();
    expect(batches).toEqual([200]);
    // Calls keep coming while the database writes: each write done, a few more wait.
    let n = 200;
    for (let write = 0; write < 5; write++) {
      for (let i = 0; i < 5; i++) buffer.add(record(n++));
      release.shift()?.();
      await settle();
    }
    expect(batches).toEqual([200]);
    // The 25 go together once 50 ms have passed since the first of them.
    await sleep(70);
    expect(batches).toEqual([200, 25]);
    release.shift()!();
  });

  it('a backlog goes in full batches, one after another', async () => {
    const { store, batches, release } = slowStore();
    const buffer = new ApiRequestLogBuffer({ store }, quiet);
    for (let n = 0; n < 1000; n++) buffer.add(record(n));
    while (batches.length < 5) {
      release.shift()?.();
      await settle();
    }
    expect(batches).toEqual([200, 200, 200, 200, 200]);
    release.shift()!();
  });

  it('a flush writes what it found waiting; calls noted while it writes wait as usual', async () => {
    const { store, batches, release } = slowStore();
    const buffer = new ApiRequestLogBuffer({ store }, quiet);
    for (let n = 0; n < 150; n++) buffer.add(record(n));
    const flushed = buffer.flush();
    let n = 150;
    for (let write = 0; write < 4; write++) {
      for (let i = 0; i < 5; i++) buffer.add(record(n++));
      release.shift()?.();
      await settle();
    }
    await flushed;
    expect(batches).toEqual([150]);
    await sleep(70);
    expect(batches).toEqual([150, 20]);
    release.shift()!();
  });

  it('flush() resolves once everything noted before it is written, joining a write under way', async () => {
    const { store, batches, release } = slowStore();
    const buffer = new ApiRequestLogBuffer({ store }, quiet);
    for (let n = 0; n < 250; n++) buffer.add(record(n));
    await settle();
    let done = false;
    const flushed = buffer.flush().then(() => (done = true));
    release.shift()!();
    await settle();
    expect(done).toBe(false);
    expect(batches).toEqual([200, 50]);
    release.shift()!();
    await flushed;
    expect(done).toBe(true);
    // Nothing left: a later flush writes nothing.
    await buffer.flush();
    expect(batches).toEqual([200, 50]);
  });
});
