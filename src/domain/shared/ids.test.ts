import { describe, expect, it } from 'vitest';
import { newId, randomHex } from './ids';

const base62 = /^[0-9A-Za-z]+$/;

describe('newId', () => {
  it.each(['cs', 'pay', 're', 'evt', 'whsec'])('starts with the %s_ prefix', (prefix) => {
    const id = newId(prefix);
    expect(id.startsWith(`${prefix}_`)).toBe(true);
  });

  it('has 24 base62 characters after the prefix by default', () => {
    for (let i = 0; i < 1000; i++) {
      const body = newId('cs').slice('cs_'.length);
      expect(body).toHaveLength(24);
      expect(body).toMatch(base62);
    }
  });

  it('carries at least 128 random bits (24 base62 characters ≈ 142.9 bits)', () => {
    const body = newId('cs').slice(3);
    expect(body.length * Math.log2(62)).toBeGreaterThanOrEqual(128);
  });

  it('honours a custom length, including ones longer than one batch of random bytes', () => {
    expect(newId('sk_test', 32).slice('sk_test_'.length)).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(newId('x', 1).slice(2)).toMatch(/^[0-9A-Za-z]$/);
    // Rejection sampling throws some bytes away: a length needing a refill must still be filled.
    expect(newId('x', 200).slice(2)).toMatch(/^[0-9A-Za-z]{200}$/);
  });

  it('never repeats over 10,000 ids', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('cs')));
    expect(ids.size).toBe(10_000);
  });

  it('uses the whole alphabet roughly evenly (no bias toward some characters)', () => {
    const counts = new Map<string, number>();
    const n = 10_000;
    for (let i = 0; i < n; i++) {
      for (const c of newId('t').slice(2)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    // All 62 characters appear.
    expect(counts.size).toBe(62);
    const expected = (n * 24) / 62; // ≈ 3871 per character, σ ≈ 62
    for (const [c, count] of counts) {
      // ±12% is 7.5 standard deviations: a failure means real bias, not bad luck. A plain
      // `byte % 62` (no rejection of bytes ≥ 248) would put 8 characters ~21% above the rest.
      expect(Math.abs(count - expected) / expected, `character ${c}: ${count}`).toBeLessThan(0.12);
    }
  });
});

describe('randomHex', () => {
  it('gives 2 lowercase hex characters per byte, every digit about as often, and no repeats in 100,000', () => {
    const seen = new Set<string>();
    const counts = new Map<string, number>();
    for (let i = 0; i < 100_000; i++) {
      const hex = randomHex(8);
      expect(hex).toMatch(/^[0-9a-f]{16}$/);
      seen.add(hex);
      for (const digit of hex) counts.set(digit, (counts.get(digit) ?? 0) + 1);
    }
    expect(seen.size).toBe(100_000);
    const expected = (100_000 * 16) / 16;
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.02);
  });
});
