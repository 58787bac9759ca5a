import { recordAudit } from '../audit';
import { resourceMissing } from '../errors';
import type { Deps, Scope } from '../ports';
import type { Actor } from '../team-entities';

/** Revokes a key at once: calls with it answer 401 api_key_revoked on every instance. */
export async function revokeApiKey(deps: Deps, options: { scope: Scope; actor: Actor; id: string }): Promise<void> {
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    if (!(await tx.apiKeys.revoke(options.scope, options.id, now))) throw resourceMissing('API key', options.id);
    await recordAudit(tx, { accountId: options.scope.accountId, mode: options.scope.mode, actor: options.actor, action: 'api_key.revoke', target: options.id, at: now });
  });
}
