import { describe, expect, it } from 'vitest';
import { batchedLogStream } from './log-stream';

describe('batchedLogStream', () => {
  it('writes the lines of one event-loop turn together, in order, by the next turn', async () => {
    const writes: string[] = [];
    const stream = batchedLogStream({ write: (text: string) => writes.push(text) });
    stream.write('{"a":1}\n');
    stream.write('{"b":2}\n');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n']);
    stream.write('{"c":3}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n', '{"c":3}\n']);
  });

  it('flush writes what waits at once (the process exit does the same)', () => {
    const writes: string[] = [];
    const stream = batchedLogStream({ write: (text: string) => writes.push(text) });
    stream.write('last words\n');
    stream.flush();
    expect(writes).toEqual(['last words\n']);
    stream.flush();
    expect(writes).toHaveLength(1);
  });
});
