import { sha256Hex } from '../shared/digest';
import { newId } from '../shared/ids';

/** How many recovery codes a person gets when they turn on a second factor. */
export const RECOVERY_CODE_COUNT = 10;

/** Recovery codes are typed by hand: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

/**
 * New recovery codes (`xxxxx-xxxxx`, ≈ 50 bits each: they are tried under the sign-in throttle) and
 * the SHA-256 of each to store.
 */
export async function newRecoveryCodes(): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = newId('r', 10).slice(2).toLowerCase();
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  return { codes, hashes: await Promise.all(codes.map((code) => sha256Hex(normalizeRecoveryCode(code)))) };
}
