import { describe, expect, it } from 'vitest';
import { BackgroundWork } from './background-work';

describe('BackgroundWork', () => {
  it('idle() waits for work started before it and while it waits, and a failure does not escape', async () => {
    const work = new BackgroundWork();
    const done: string[] = [];
    let release!: () => void;
    work.start(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      done.push('first');
      // Work started by work: idle() waits for it too.
      work.start(async () => {
        await Promise.resolve();
        done.push('second');
      });
    });
    work.start(async () => {
      throw new Error('the mailer said no');
    });
    let idle = false;
    const waiting = work.idle().then(() => (idle = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    release();
    await waiting;
    expect(done).toEqual(['first', 'second']);
  });

  it('idle() resolves at once when nothing runs', async () => {
    await expect(new BackgroundWork().idle()).resolves.toBeUndefined();
  });
});
