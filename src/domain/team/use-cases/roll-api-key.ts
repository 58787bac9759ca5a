import { recordAudit } from '../audit';
import { TillpointError, resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../entities';
import type { Scope } from '../../shared/scope';
import { rollExpiries, type RollExpiry } from '../api-key-permissions';
import { buildApiKey } from '../rules';

/**
 * Rolls a key (as Stripe does): a new key of the same kind, name and permissions is made, its secret
 * returned once; the old one keeps working for `expiresInSeconds` (0: it stops now), then is refused
 * with api_key_invalid. An old key that already expires sooner keeps its earlier expiry.
 */
export async function rollApiKey(
  deps: Deps,
  options: { scope: Scope; actor: Actor; id: string; expiresInSeconds: number },
): Promise<{ id: string; secret: string; oldExpiresAt: Date }> {
  if (!(rollExpiries as readonly number[]).includes(options.expiresInSeconds)) {
    throw new TillpointError('parameter_invalid', `expires_in must be one of ${rollExpiries.join(', ')} (seconds)`, { param: 'expires_in' });
  }
  const now = deps.clock.now();
  const oldExpiresAt = new Date(now.getTime() + (options.expiresInSeconds as RollExpiry) * 1000);
  try {
    return await deps.store.transaction(async (tx) => {
      const old = await tx.apiKeys.get(options.scope, options.id);
      if (!old || old.revokedAt || (old.expiresAt && old.expiresAt.getTime() <= now.getTime())) throw resourceMissing('API key', options.id);
      const { key, secret } = await buildApiKey({
        accountId: old.accountId,
        mode: old.mode,
        kind: old.kind,
        at: now,
        name: old.name,
        permissions: old.permissions,
      });
      await tx.apiKeys.insert(key);
      await tx.apiKeys.expire(options.scope, old.id, oldExpiresAt);
      await recordAudit(tx, {
        accountId: options.scope.accountId,
        mode: options.scope.mode,
        actor: options.actor,
        action: 'api_key.roll',
        target: old.id,
        at: now,
      });
      const kept = await tx.apiKeys.get(options.scope, old.id);
      return { id: key.id, secret, oldExpiresAt: kept?.expiresAt ?? oldExpiresAt };
    });
  } finally {
    deps.apiKeyCache.forget(options.id);
  }
}
