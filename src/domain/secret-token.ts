import { newId } from './ids';

/** SHA-256 of a high-entropy secret, hex: what is stored in place of a session or invite token. */
export async function sha256Hex(secret: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A random bearer token (≈190 bits) and the hash to store for it. */
export async function newSecretToken(prefix: string): Promise<{ token: string; hash: string }> {
  const token = newId(prefix, 32);
  return { token, hash: await sha256Hex(token) };
}
