const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from the platform's CSPRNG a pool at a time: one `getRandomValues` per 4 KiB
 * (≈ 140 ids), not one per id, as Node's own `randomUUID` does.
 */
const pool = new Uint8Array(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    globalThis.crypto.getRandomValues(pool);
    used = 0;
  }
  return pool[used++]!;
}

/**
 * A random identifier with a type prefix, e.g. `cs_3kT9…`. 24 base62 characters carry ~142 bits,
 * so a checkout session id is unguessable and can serve as the shopper's only credential.
 */
export function newId(prefix: string, length = 24): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps every character equally likely.
    if (b < 248) out += alphabet[b % 62];
  }
  return `${prefix}_${out}`;
}

/** `bytes` random bytes from the same pool, as lowercase hex (a test processor transaction's id). */
export function randomHex(bytes: number): string {
  let out = '';
  for (let i = 0; i < bytes; i++) out += (randomByte() + 0x100).toString(16).slice(1);
  return out;
}
