import { hashApiKey, parseApiKey } from '../../team/api-key-secret';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import { assertKeyPermits } from '../../team/api-key-permissions';

/**
 * Who may read flags, and for which account and mode (design.md §6): a publishable or secret key of
 * the account, or, for the checkout page, the checkout session id it already holds, sent as the
 * evaluation context's `targetingKey`. The session id is unguessable and identifies account and
 * mode, so the page needs no key.
 */
export async function authorizeFlagReader(deps: Deps, options: { authorization: string | undefined; targetingKey: string | null }): Promise<Scope | null> {
  const secret = options.authorization ? /^Bearer\s+(\S+)$/i.exec(options.authorization.trim())?.[1] : undefined;
  if (options.authorization !== undefined) {
    if (!secret || !parseApiKey(secret)) throw new TillpointError('api_key_invalid', 'Invalid API key provided');
    const hash = await hashApiKey(secret);
    // The instance's key cache serves here as it does for the merchant API (api-key-cache.ts).
    const nowMs = deps.clock.now().getTime();
    const key =
      deps.apiKeyCache.get(hash, nowMs) ??
      (
        await deps.apiKeyCache.find(hash, nowMs, async () => {
          const found = await deps.store.read((reader) => reader.apiKeys.findBySecretHash(hash));
          return found && { key: found };
        })
      )?.key;
    if (!key) throw new TillpointError('api_key_invalid', 'Invalid API key provided');
    if (key.revokedAt) throw new TillpointError('api_key_revoked', 'This API key has been revoked');
    if (key.expiresAt && key.expiresAt.getTime() <= nowMs) throw new TillpointError('api_key_invalid', 'This API key has expired');
    assertKeyPermits(key, 'flags', 'read');
    return { accountId: key.accountId, mode: key.mode };
  }
  if (!options.targetingKey) return null;
  const session = await deps.store.read((reader) => reader.checkoutSessions.get(null, options.targetingKey!));
  return session && { accountId: session.accountId, mode: session.mode };
}
