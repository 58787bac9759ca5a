import { hashApiKey, parseApiKey } from '../../team/api-key-secret';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Mode } from '../../shared/events';
import type { ApiKey } from '../../team/entities';
import type { RateLimitQuota } from '../ports';
import { RateLimitedError, rateLimitLeaseSize } from '../rules';

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The key of `Authorization: Bearer <key>`, or of HTTP Basic auth with the key as the user name and
 * any password (`curl -u sk_test_…:`, as Stripe's docs show it); null for any other scheme.
 */
function presentedSecret(header: string): string | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer) return bearer[1]!;
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  if (!basic) return null;
  let credentials: string;
  try {
    credentials = atob(basic[1]!);
  } catch {
    return '';
  }
  const colon = credentials.indexOf(':');
  return colon === -1 ? '' : credentials.slice(0, colon);
}

/**
 * Resolves the `Authorization: Bearer …` (or Basic) header of a merchant API call to its key, and counts the
 * call against its account and mode's rate limit (design.md §9: 100/s live, 25/s test) in a
 * one-second window shared by every instance. Only secret and restricted keys may call the merchant API (what a restricted one may do is checked per route: merchant-auth.ts).
 * `rateLimited` is set when the call is over the limit: it must be answered with that error.
 *
 * Most calls send no statement: the key comes from this instance's cache (deps.apiKeyCache) and
 * the call spends a request this instance leased from the shared counter (deps.rateLimitLeases).
 * A key not cached is found in the same statement that leases its scope's first block.
 */
export async function authenticateApiKey(
  deps: Deps,
  options: { authorization: string | undefined },
): Promise<{ key: ApiKey; rateLimited: RateLimitedError | null }> {
  const header = options.authorization?.trim();
  if (!header) {
    throw new TillpointError('api_key_missing', 'No API key provided: send Authorization: Bearer sk_…');
  }
  const secret = presentedSecret(header);
  if (secret === null) {
    throw new TillpointError('api_key_invalid', 'Invalid API key provided: send Authorization: Bearer sk_… (or Basic auth with the key as the user name)');
  }
  const parsed = parseApiKey(secret);
  if (!parsed) throw new TillpointError('api_key_invalid', 'Invalid API key provided');
  const hash = await hashApiKey(secret);
  const now = deps.clock.now();
  const nowMs = now.getTime();
  const second = Math.floor(nowMs / 1000);
  const quota = (mode: Mode): RateLimitQuota => {
    const limit = deps.rateLimitPerSecond[mode];
    return { limit, block: rateLimitLeaseSize(limit) };
  };
  let key = deps.apiKeyCache.get(hash, nowMs);
  if (!key) {
    // One round trip finds the key and leases its scope's first block (only for a key that may call the API).
    const found = await deps.apiKeyCache.find(hash, nowMs, async () => {
      const admitted = await deps.rateLimits.admit(hash, second, { test: quota('test'), live: quota('live') });
      if (admitted && admitted.granted !== null) {
        deps.rateLimitLeases.grant({ accountId: admitted.key.accountId, mode: admitted.key.mode }, second, admitted.granted);
      }
      return admitted;
    });
    if (!found) throw new TillpointError('api_key_invalid', 'Invalid API key provided');
    key = found.key;
  }
  if (key.revokedAt) throw new TillpointError('api_key_revoked', 'This API key has been revoked');
  // A rolled key works until the expiry chosen when it was rolled, then is refused like an unknown
  // one. The cached copy carries expiresAt, so no instance needs news to stop accepting it.
  if (key.expiresAt && key.expiresAt.getTime() <= nowMs) throw new TillpointError('api_key_invalid', 'This API key has expired');
  if (key.kind === 'publishable') {
    throw new TillpointError('publishable_key_not_allowed', 'A publishable key cannot call this endpoint');
  }
  const scope = { accountId: key.accountId, mode: key.mode };
  const admitted = await deps.rateLimitLeases.take(scope, second, () => deps.rateLimits.lease(scope, second, quota(key.mode)));
  // "Last used" is shown to the minute: refreshing it at most once a minute (per instance) keeps a
  // write off every API call. The cached copy is brought forward first, so calls meanwhile do not
  // write it too.
  const lastUsedAt = key.lastUsedAt;
  if (!lastUsedAt || nowMs - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    deps.apiKeyCache.touch(key, now);
    try {
      await deps.store.transaction((tx) => tx.apiKeys.markUsed(key.id, now));
    } catch (error) {
      deps.apiKeyCache.touch(key, lastUsedAt);
      throw error;
    }
  }
  const limited = admitted ? null : new RateLimitedError(Math.max(1, Math.ceil(((second + 1) * 1000 - nowMs) / 1000)));
  return { key, rateLimited: limited };
}
