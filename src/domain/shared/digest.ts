/** Bytes as lower-case hex. */
export function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A synchronous SHA-256 (text → hex) the runtime may hand the domain; see `useSha256Hex`. */
export type Sha256Hex = (text: string) => string;
let synchronous: Sha256Hex | null = null;

/**
 * Lets the runtime give a synchronous SHA-256 (Node's `createHash`): Web Crypto's digest is a
 * thread-pool job and a promise per call, a measurable share of every merchant API call's CPU
 * (docs/performance.md, issue 9). The domain itself stays free of Node APIs.
 */
export function useSha256Hex(hash: Sha256Hex | null): void {
  synchronous = hash;
}

/** SHA-256 of a text, hex (Web Crypto unless the runtime gave a synchronous one). */
export async function sha256Hex(text: string): Promise<string> {
  if (synchronous) return synchronous(text);
  return toHex(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}
