import { recordAudit } from '../audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../entities';
import type { Scope } from '../../shared/scope';
import { apiKeyName } from './create-api-key';

/** Gives an unrevoked key a new name; what it may do and its secret stay as they are. */
export async function renameApiKey(deps: Deps, options: { scope: Scope; actor: Actor; id: string; name: string }): Promise<void> {
  const name = apiKeyName(options.name);
  const now = deps.clock.now();
  try {
    await deps.store.transaction(async (tx) => {
      if (!(await tx.apiKeys.rename(options.scope, options.id, name))) throw resourceMissing('API key', options.id);
      await recordAudit(tx, {
        accountId: options.scope.accountId,
        mode: options.scope.mode,
        actor: options.actor,
        action: 'api_key.rename',
        target: options.id,
        at: now,
      });
    });
  } finally {
    deps.apiKeyCache.forget(options.id);
  }
}
