import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex, useSha256Hex } from './shared/digest';

describe('sha256Hex', () => {
  afterEach(() => useSha256Hex(null));

  it.each(['', 'sk_test_abc', 'ünïcödé ✓', 'x'.repeat(1000)])('gives the same digest through Web Crypto and a runtime-given hash (%#)', async (text) => {
    const expected = createHash('sha256').update(text).digest('hex');
    expect(await sha256Hex(text)).toBe(expected);
    let calls = 0;
    useSha256Hex((t) => {
      calls += 1;
      return createHash('sha256').update(t).digest('hex');
    });
    expect(await sha256Hex(text)).toBe(expected);
    expect(calls).toBe(1);
  });
});
