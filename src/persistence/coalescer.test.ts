import { describe, expect, it, vi } from 'vitest';
import { ReadCoalescer, StatementCoalescer } from './coalescer';

const lanes = { inFlight: 1, most: 16 };
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('ReadCoalescer', () => {
  it('reads asked for while one is on its way go together next; each caller gets its own row, or null', async () => {
    const reads: string[][] = [];
    const reader = new ReadCoalescer(async (keys: string[]) => {
      reads.push(keys);
      await tick();
      return new Map(keys.filter((key) => key !== 'missing').map((key) => [key, `row of ${key}`]));
    }, lanes);
    const found = await Promise.all(['a', 'b', 'c', 'b', 'missing'].map((key) => reader.get(key)));
    expect(found).toEqual(['row of a', 'row of b', 'row of c', 'row of b', null]);
    // The first goes at once, alone; the rest wait for it and go as one read, each key once.
    expect(reads).toEqual([['a'], ['b', 'c', 'missing']]);
  });

  it('a failed read fails its callers only', async () => {
    const reader = new ReadCoalescer(async (keys: string[]) => {
      await tick();
      if (keys.includes('bad')) throw new Error('connection lost');
      return new Map(keys.map((key) => [key, key]));
    }, lanes);
    const first = reader.get('ok');
    const group = [reader.get('bad'), reader.get('also')];
    await expect(first).resolves.toBe('ok');
    await expect(Promise.all(group)).rejects.toThrow('connection lost');
    await expect(reader.get('later')).resolves.toBe('later');
  });
});

describe('StatementCoalescer', () => {
  interface Item {
    key: string;
    value: number;
  }
  /** A database that sums each item's value, refuses a group holding a negative one, and logs its statements. */
  function database(options: { unreachable?: boolean } = {}) {
    const sent: string[][] = [];
    const query = async (_text: string, params: unknown[]) => {
      const items = JSON.parse(params[0] as string) as Item[];
      sent.push(items.map((item) => item.key));
      await tick();
      if (items.some((item) => item.value < 0)) throw Object.assign(new Error('division by zero'), { code: '22012' });
      return { rows: items.map((item, n) => ({ n, result: item.value * 10 })) };
    };
    const coalescer = new StatementCoalescer<Item>(
      query,
      (items) => ({ text: 'WITH … SELECT n, result', params: [JSON.stringify(items)] }),
      (item) => item.key,
      lanes,
      () => options.unreachable ?? false,
    );
    return { sent, coalescer };
  }

  it('items under way at once share one statement, and each gets its own result', async () => {
    const { sent, coalescer } = database();
    const results = await Promise.all([1, 2, 3, 4].map((value) => coalescer.run({ key: `k${value}`, value })));
    expect(results).toEqual([10, 20, 30, 40]);
    expect(sent).toEqual([['k1'], ['k2', 'k3', 'k4']]);
  });

  it('a refused statement is sent again item by item, so only the refused one fails', async () => {
    const { sent, coalescer } = database();
    const results = await Promise.allSettled([
      coalescer.run({ key: 'first', value: 1 }),
      coalescer.run({ key: 'a', value: 2 }),
      coalescer.run({ key: 'bad', value: -1 }),
      coalescer.run({ key: 'b', value: 3 }),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([10, 20, 'division by zero', 30]);
    expect(sent).toEqual([['first'], ['a', 'bad', 'b'], ['a'], ['bad'], ['b']]);
  });

  it('with the database lost, every item of the statement fails and none is sent again', async () => {
    const { sent, coalescer } = database({ unreachable: true });
    const results = await Promise.allSettled([
      coalescer.run({ key: 'first', value: 1 }),
      coalescer.run({ key: 'a', value: 2 }),
      coalescer.run({ key: 'bad', value: -1 }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(sent).toEqual([['first'], ['a', 'bad']]);
  });

  it('two items of one key never share a statement', async () => {
    const { sent, coalescer } = database();
    const results = await Promise.all([
      coalescer.run({ key: 'first', value: 1 }),
      coalescer.run({ key: 'session', value: 2 }),
      coalescer.run({ key: 'other', value: 3 }),
      coalescer.run({ key: 'session', value: 4 }),
    ]);
    expect(results).toEqual([10, 20, 30, 40]);
    expect(sent).toEqual([['first'], ['session', 'other'], ['session']]);
  });
});

describe('Coalescer lanes: full groups and stalled statements', () => {
  /** Reads that stay on their way until released, logging each group and when it went. */
  function heldReads(lanesOf: { inFlight: number; most: number; atMost?: number; stalledAfterMs?: number }) {
    const sent: string[][] = [];
    const release: Array<() => void> = [];
    const reader = new ReadCoalescer(async (keys: string[]) => {
      sent.push(keys);
      await new Promise<void>((resolve) => release.push(resolve));
      return new Map(keys.map((key) => [key, key]));
    }, lanesOf);
    return { sent, release, reader };
  }

  it('a full group goes at once beside the one on its way; a partial one waits for it', async () => {
    const { sent, release, reader } = heldReads({ inFlight: 1, most: 3, atMost: 3 });
    const reads = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((key) => reader.get(key));
    await tick();
    // 'a' alone, then two full groups at once; 'h' waits, as nothing on the way has stalled.
    expect(sent).toEqual([['a'], ['b', 'c', 'd'], ['e', 'f', 'g']]);
    // It goes once fewer than inFlight are on their way: after all three.
    release.shift()!();
    release.shift()!();
    await tick();
    expect(sent).toHaveLength(3);
    release.shift()!();
    await tick();
    expect(sent.at(-1)).toEqual(['h']);
    release.shift()!();
    expect(await Promise.all(reads)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });

  it('never more groups on their way than atMost, full or not', async () => {
    const { sent, release, reader } = heldReads({ inFlight: 1, most: 2, atMost: 2 });
    void ['a', 'b', 'c', 'd', 'e'].map((key) => reader.get(key));
    await tick();
    expect(sent).toEqual([['a'], ['b', 'c']]);
    release.splice(0).forEach((done) => done());
  });

  it('a group on its way longer than stalledAfterMs lets the next one go; before that it waits', async () => {
    const { sent, release, reader } = heldReads({ inFlight: 1, most: 10, atMost: 2, stalledAfterMs: 40 });
    const stuck = reader.get('locked');
    await tick();
    const next = reader.get('other');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual([['locked']]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(sent).toEqual([['locked'], ['other']]);
    release[1]!();
    await expect(next).resolves.toBe('other');
    release[0]!();
    await expect(stuck).resolves.toBe('locked');
  });

  it('at atMost, stalled groups arm no timer: a group coming back lets the next one go', async () => {
    const { sent, release, reader } = heldReads({ inFlight: 1, most: 10, atMost: 2, stalledAfterMs: 20 });
    const reads = [reader.get('a')];
    await tick();
    reads.push(reader.get('b'));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(sent).toEqual([['a'], ['b']]);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      reads.push(reader.get('c'));
      await new Promise((resolve) => setTimeout(resolve, 60));
      // One call is the wait above; before, a timer was armed again every millisecond.
      expect(timers.mock.calls.length).toBeLessThanOrEqual(1);
      expect(sent).toHaveLength(2);
    } finally {
      timers.mockRestore();
    }
    release.shift()!();
    await tick();
    expect(sent.at(-1)).toEqual(['c']);
    release.splice(0).forEach((done) => done());
    expect(await Promise.all(reads)).toEqual(['a', 'b', 'c']);
  });
});
