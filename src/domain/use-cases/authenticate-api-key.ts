import { hashApiKey, parseApiKey } from '../api-key-secret';
import type { ApiKey } from '../entities';
import { TillpointError } from '../errors';
import type { Deps } from '../ports';

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves the `Authorization: Bearer …` header of a merchant API call to its key. Only secret keys
 * may call the merchant API.
 */
export async function authenticateApiKey(deps: Deps, options: { authorization: string | undefined }): Promise<ApiKey> {
  const header = options.authorization?.trim();
  if (!header) {
    throw new TillpointError('api_key_missing', 'No API key provided: send Authorization: Bearer sk_…');
  }
  const secret = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
  const parsed = parseApiKey(secret);
  if (!parsed) throw new TillpointError('api_key_invalid', 'Invalid API key provided');
  const hash = await hashApiKey(secret);
  return deps.store.transaction(async (tx) => {
    const key = await tx.apiKeys.findBySecretHash(hash);
    if (!key) throw new TillpointError('api_key_invalid', 'Invalid API key provided');
    if (key.revokedAt) throw new TillpointError('api_key_revoked', 'This API key has been revoked');
    if (key.kind !== 'secret') {
      throw new TillpointError('publishable_key_not_allowed', 'A publishable key cannot call this endpoint');
    }
    // "Last used" is shown to the minute: refreshing it at most once a minute keeps a write off
    // every API call.
    const now = deps.clock.now();
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await tx.apiKeys.markUsed(key.id, now);
    }
    return key;
  });
}
