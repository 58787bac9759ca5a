const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A random identifier with a type prefix, e.g. `cs_3kT9…`. 24 base62 characters carry ~142 bits,
 * so a checkout session id is unguessable and can serve as the shopper's only credential.
 */
export function newId(prefix: string, length = 24): string {
  const bytes = new Uint8Array(length);
  globalThis.crypto.getRandomValues(bytes);
  let out = '';
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps every character equally likely.
  for (let i = 0; out.length < length; i++) {
    if (i >= bytes.length) {
      globalThis.crypto.getRandomValues(bytes);
      i = 0;
    }
    const b = bytes[i]!;
    if (b < 248) out += alphabet[b % 62];
  }
  return `${prefix}_${out}`;
}
