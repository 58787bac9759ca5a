import { hashApiKey, parseApiKey } from '../../team/api-key-secret';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { ApiKey } from '../../team/entities';
import { RateLimitedError } from '../rules';

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves the `Authorization: Bearer …` header of a merchant API call to its key, and counts the
 * call against its account and mode's rate limit (design.md §9: 100/s live, 25/s test) in a
 * one-second window shared by every instance. Only secret keys may call the merchant API.
 * `rateLimited` is set when the call is over the limit: it must be answered with that error.
 */
export async function authenticateApiKey(
  deps: Deps,
  options: { authorization: string | undefined },
): Promise<{ key: ApiKey; rateLimited: RateLimitedError | null }> {
  const header = options.authorization?.trim();
  if (!header) {
    throw new TillpointError('api_key_missing', 'No API key provided: send Authorization: Bearer sk_…');
  }
  const secret = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
  const parsed = parseApiKey(secret);
  if (!parsed) throw new TillpointError('api_key_invalid', 'Invalid API key provided');
  const hash = await hashApiKey(secret);
  const now = deps.clock.now();
  const nowMs = now.getTime();
  const second = Math.floor(nowMs / 1000);
  // One round trip finds the key and counts the call (only for a key that may call the API).
  const admitted = await deps.rateLimits.admit(hash, second);
  if (!admitted) throw new TillpointError('api_key_invalid', 'Invalid API key provided');
  const { key, hits } = admitted;
  if (key.revokedAt) throw new TillpointError('api_key_revoked', 'This API key has been revoked');
  if (key.kind !== 'secret') {
    throw new TillpointError('publishable_key_not_allowed', 'A publishable key cannot call this endpoint');
  }
  // "Last used" is shown to the minute: refreshing it at most once a minute keeps a write off
  // every API call.
  if (!key.lastUsedAt || nowMs - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await deps.store.transaction((tx) => tx.apiKeys.markUsed(key.id, now));
  }
  const limited =
    hits !== null && hits > deps.rateLimitPerSecond[key.mode]
      ? new RateLimitedError(Math.max(1, Math.ceil(((second + 1) * 1000 - nowMs) / 1000)))
      : null;
  return { key, rateLimited: limited };
}
