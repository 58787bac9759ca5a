import { describe, expect, it } from 'vitest';
import { assignVariant, murmur3 } from './experiment-assignment';

describe('murmur3', () => {
  it('matches the reference MurmurHash3_x86_32 values', () => {
    expect(murmur3('')).toBe(0);
    expect(murmur3('', 1)).toBe(0x514e28b7);
    expect(murmur3('hello')).toBe(0x248bfa47);
    expect(murmur3('The quick brown fox jumps over the lazy dog')).toBe(0x2e4ff723);
  });
});

/** Pearson's chi-square statistic of observed counts against expected shares. */
function chiSquare(observed: number[], shares: number[]): number {
  const total = observed.reduce((a, b) => a + b, 0);
  const sum = shares.reduce((a, b) => a + b, 0);
  return observed.reduce((chi, o, i) => {
    const expected = (total * shares[i]!) / sum;
    return chi + (o - expected) ** 2 / expected;
  }, 0);
}

const ids = Array.from({ length: 10_000 }, (_, i) => `cs_${i.toString(36).padStart(8, '0')}`);

describe('assignVariant', () => {
  it('is sticky: the same session gets the same variant every time, on any instance', () => {
    const variants = [
      { key: 'wallet_first', weight: 1 },
      { key: 'card_first', weight: 1 },
    ];
    const first = ids.slice(0, 200).map((id) => assignVariant('exp_a', id, variants));
    const again = ids.slice(0, 200).map((id) => assignVariant('exp_a', id, [...variants]));
    expect(again).toEqual(first);
  });

  it('splits 10,000 sequential ids 50/50 within the chi-square bound (df 1, p = 0.001: 10.83)', () => {
    const variants = [
      { key: 'wallet_first', weight: 50 },
      { key: 'card_first', weight: 50 },
    ];
    const counts = [0, 0];
    for (const id of ids) counts[variants.findIndex((v) => v.key === assignVariant('exp_layout', id, variants))]!++;
    expect(chiSquare(counts, [50, 50])).toBeLessThan(10.83);
  });

  it('honours unequal weights 1:1:2 within the chi-square bound (df 2, p = 0.001: 13.82)', () => {
    const variants = [
      { key: 'pay', weight: 1 },
      { key: 'pay_now', weight: 1 },
      { key: 'complete_purchase', weight: 2 },
    ];
    const counts = [0, 0, 0];
    for (const id of ids) counts[variants.findIndex((v) => v.key === assignVariant('exp_wording', id, variants))]!++;
    expect(chiSquare(counts, [1, 1, 2])).toBeLessThan(13.82);
    expect(counts[2]! / 10_000).toBeGreaterThan(0.45);
  });

  it('gives a zero-weight variant nobody, and salts by experiment so experiments split independently', () => {
    const variants = [
      { key: 'a', weight: 0 },
      { key: 'b', weight: 3 },
    ];
    expect(ids.slice(0, 500).every((id) => assignVariant('exp_z', id, variants) === 'b')).toBe(true);
    const half = [
      { key: 'a', weight: 1 },
      { key: 'b', weight: 1 },
    ];
    const together = ids.filter((id) => assignVariant('exp_1', id, half) === assignVariant('exp_2', id, half)).length;
    // Independent splits agree about half the time; identical ones would agree always.
    expect(together / ids.length).toBeGreaterThan(0.45);
    expect(together / ids.length).toBeLessThan(0.55);
  });
});
