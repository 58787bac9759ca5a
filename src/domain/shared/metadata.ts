import { TillpointError } from './errors';

/** Bounds of an object's `metadata` (design.md §5). */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

/** Throws `parameter_invalid`, naming the key at fault, when `metadata` breaks a bound of design.md §5. */
export function checkMetadata(metadata: Record<string, string>): void {
  const keys = Object.keys(metadata);
  if (keys.length > METADATA_LIMITS.keys) {
    throw new TillpointError('parameter_invalid', `metadata may have at most ${METADATA_LIMITS.keys} keys`, { param: 'metadata' });
  }
  for (const key of keys) {
    if (key.length === 0 || key.length > METADATA_LIMITS.keyLength) {
      throw new TillpointError('parameter_invalid', `metadata keys must be 1 to ${METADATA_LIMITS.keyLength} characters`, { param: `metadata[${key}]` });
    }
    if (metadata[key]!.length > METADATA_LIMITS.valueLength) {
      throw new TillpointError('parameter_invalid', `metadata values must be at most ${METADATA_LIMITS.valueLength} characters`, { param: `metadata[${key}]` });
    }
  }
}
