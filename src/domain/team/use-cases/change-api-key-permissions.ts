import { recordAudit } from '../audit';
import { resourceMissing, TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../entities';
import type { Scope } from '../../shared/scope';
import { normalizePermissions, type ApiKeyPermissions } from '../api-key-permissions';

/**
 * Replaces what a restricted key may do (a resource left out is `none`); its secret and name stay.
 * The key's next call obeys the new grants. Only an unrevoked, unexpired restricted key.
 */
export async function changeApiKeyPermissions(deps: Deps, options: { scope: Scope; actor: Actor; id: string; permissions: ApiKeyPermissions }): Promise<void> {
  const now = deps.clock.now();
  try {
    await deps.store.transaction(async (tx) => {
      const key = await tx.apiKeys.get(options.scope, options.id);
      if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= now)) throw resourceMissing('API key', options.id);
      if (key.kind !== 'restricted') {
        throw new TillpointError('parameter_invalid', 'Only a restricted key has permissions; a secret key may make every call', { param: 'permissions' });
      }
      if (!(await tx.apiKeys.setPermissions(options.scope, options.id, normalizePermissions(options.permissions))))
        throw resourceMissing('API key', options.id);
      await recordAudit(tx, {
        accountId: options.scope.accountId,
        mode: options.scope.mode,
        actor: options.actor,
        action: 'api_key.permissions_change',
        target: options.id,
        at: now,
      });
    });
  } finally {
    deps.apiKeyCache.forget(options.id);
  }
}
