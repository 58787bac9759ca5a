import { sha256Hex } from './digest';
import { newId } from './ids';

/** A random bearer token (≈190 bits) and the SHA-256 to store for it: enough entropy for a fast hash. */
export async function newSecretToken(prefix: string): Promise<{ token: string; hash: string }> {
  const token = newId(prefix, 32);
  return { token, hash: await sha256Hex(token) };
}
