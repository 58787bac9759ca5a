import { recordAudit } from '../audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../entities';
import type { Scope } from '../../shared/scope';

/** Revokes a key at once: calls with it answer 401 api_key_revoked on every instance. */
export async function revokeApiKey(deps: Deps, options: { scope: Scope; actor: Actor; id: string }): Promise<void> {
  const now = deps.clock.now();
  try {
    await deps.store.transaction(async (tx) => {
      if (!(await tx.apiKeys.revoke(options.scope, options.id, now))) throw resourceMissing('API key', options.id);
      await recordAudit(tx, {
        accountId: options.scope.accountId,
        mode: options.scope.mode,
        actor: options.actor,
        action: 'api_key.revoke',
        target: options.id,
        at: now,
      });
    });
  } finally {
    // This instance forgets the key at once (even when the commit's fate is unknown); the others
    // hear of the change from the database (notifications.ts).
    deps.apiKeyCache.forget(options.id);
  }
}
