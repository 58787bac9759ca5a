import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { ArrivalOrderGate, asArrivedAt } from './arrival-order';

/** A piece of work that runs until `finish()` is called, noting when it started. */
function held(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: async () => { log.push(name); await done; }, finish: () => finish() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ArrivalOrderGate', () => {
  it('lets the statements of the earliest request in first, whatever order they were sent in', async () => {
    const gate = new ArrivalOrderGate(1, 5_000, () => new Error('timeout'));
    const log: string[] = [];
    const first = held(log, 'busy');
    const running = gate.run(first.work);
    await tick();
    // Sent in this order while the only connection is busy: a later request's statement, then an
    // earlier request's follow-up, then work outside any request (it arrives as it asks: now).
    const now = performance.now();
    const late = held(log, 'request 100 ms ago');
    const early = held(log, 'request 200 ms ago');
    const background = held(log, 'background');
    const waits = [
      asArrivedAt(now - 100, () => gate.run(late.work)),
      asArrivedAt(now - 200, () => gate.run(early.work)),
      gate.run(background.work),
    ];
    expect(gate.queued).toBe(3);
    for (const work of [first, early, late, background]) {
      work.finish();
      await tick();
    }
    await Promise.all([running, ...waits]);
    expect(log).toEqual(['busy', 'request 200 ms ago', 'request 100 ms ago', 'background']);
  });

  it('serves equal arrivals in the order they asked, and runs up to its size at once', async () => {
    const gate = new ArrivalOrderGate(2, 5_000, () => new Error('timeout'));
    const log: string[] = [];
    const works = ['a', 'b', 'c', 'd'].map((name) => held(log, name));
    const runs = works.map((w) => asArrivedAt(1, () => gate.run(w.work)));
    await tick();
    expect(log).toEqual(['a', 'b']);
    works[1]!.finish();
    await tick();
    expect(log).toEqual(['a', 'b', 'c']);
    for (const w of works) w.finish();
    await Promise.all(runs);
    expect(log).toEqual(['a', 'b', 'c', 'd']);
  });

  it('gives up a wait after its timeout with the given error, and the slot still passes on', async () => {
    const gate = new ArrivalOrderGate(1, 50, () => new Error('no connection in time'));
    const log: string[] = [];
    const busy = held(log, 'busy');
    const running = gate.run(busy.work);
    await expect(gate.run(async () => log.push('never'))).rejects.toThrow('no connection in time');
    expect(gate.queued).toBe(0);
    const after = gate.run(async () => log.push('after'));
    busy.finish();
    await Promise.all([running, after]);
    expect(log).toEqual(['busy', 'after']);
  });

  it('frees its slot when the work fails', async () => {
    const gate = new ArrivalOrderGate(1, 5_000, () => new Error('timeout'));
    await expect(gate.run(async () => { throw new Error('statement failed'); })).rejects.toThrow('statement failed');
    await expect(gate.run(async () => 'next')).resolves.toBe('next');
  });
});
