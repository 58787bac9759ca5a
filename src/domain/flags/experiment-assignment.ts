import type { ExperimentVariant } from './entities';

/**
 * MurmurHash3 (x86, 32-bit) of a string's UTF-8 bytes. Fast, well mixed, and identical on every
 * instance and in every runtime, which is what makes an assignment sticky.
 */
export function murmur3(text: string, seed = 0): number {
  const bytes = new TextEncoder().encode(text);
  let h = seed >>> 0;
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  const blocks = bytes.length & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  switch (bytes.length & 3) {
    // biome-ignore lint/suspicious/noFallthroughSwitchClause: MurmurHash3's tail: each case adds its byte, then falls to the next.
    case 3:
      k ^= bytes[blocks + 2]! << 16;
    // biome-ignore lint/suspicious/noFallthroughSwitchClause: MurmurHash3's tail, as above.
    case 2:
      k ^= bytes[blocks + 1]! << 8;
    case 1:
      k ^= bytes[blocks]!;
      k = Math.imul(k, c1);
      k = (k << 15) | (k >>> 17);
      k = Math.imul(k, c2);
      h ^= k;
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The variant a unit (a checkout session id) sees in an experiment: a hash of experiment id and
 * unit picks a point in [0, 1), and the variants' weights divide that interval. The experiment id
 * salts the hash so two experiments do not assign the same sessions together.
 */
export function assignVariant(experimentId: string, unitId: string, variants: readonly ExperimentVariant[]): string {
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  if (!variants.length || total <= 0) throw new RangeError('an experiment needs a variant with a positive weight');
  const point = (murmur3(`${experimentId}:${unitId}`) / 2 ** 32) * total;
  let cumulative = 0;
  for (const variant of variants) {
    cumulative += variant.weight;
    if (point < cumulative) return variant.key;
  }
  return variants.filter((v) => v.weight > 0).at(-1)!.key;
}
