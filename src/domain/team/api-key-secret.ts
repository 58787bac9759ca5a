import { sha256Hex } from '../shared/digest';
import type { Mode } from '../shared/events';
import type { ApiKeyKind } from './entities';

/** `sk_test_`, `pk_live_`…: the kind and mode a key belongs to, readable at a glance. */
export function apiKeyPrefix(kind: ApiKeyKind, mode: Mode): string {
  return `${kind === 'secret' ? 'sk' : 'pk'}_${mode}_`;
}

/** The stored form of a key: its SHA-256, hex. Keys carry ≥140 random bits, so a fast hash is enough. */
export async function hashApiKey(secret: string): Promise<string> {
  return sha256Hex(secret);
}

/** Reads kind and mode off a presented key, or null when it is not shaped like one of ours. */
export function parseApiKey(secret: string): { kind: ApiKeyKind; mode: Mode } | null {
  const match = /^(sk|pk)_(test|live)_[0-9A-Za-z]{24,}$/.exec(secret);
  if (!match) return null;
  return { kind: match[1] === 'sk' ? 'secret' : 'publishable', mode: match[2] as Mode };
}
