import { sha256Hex } from '../shared/digest';
import type { Mode } from '../shared/events';
import type { ApiKeyKind } from './entities';

const prefixOfKind: Record<ApiKeyKind, string> = { secret: 'sk', restricted: 'rk', publishable: 'pk' };

/** `sk_test_`, `rk_test_`, `pk_live_`…: the kind and mode a key belongs to, readable at a glance. */
export function apiKeyPrefix(kind: ApiKeyKind, mode: Mode): string {
  return `${prefixOfKind[kind]}_${mode}_`;
}

/** The stored form of a key: its SHA-256, hex. Keys carry ≥140 random bits, so a fast hash is enough. */
export async function hashApiKey(secret: string): Promise<string> {
  return sha256Hex(secret);
}

/** Reads kind and mode off a presented key, or null when it is not shaped like one of ours. */
export function parseApiKey(secret: string): { kind: ApiKeyKind; mode: Mode } | null {
  const match = /^(sk|rk|pk)_(test|live)_[0-9A-Za-z]{24,}$/.exec(secret);
  if (!match) return null;
  const kind: ApiKeyKind = match[1] === 'sk' ? 'secret' : match[1] === 'rk' ? 'restricted' : 'publishable';
  return { kind, mode: match[2] as Mode };
}
