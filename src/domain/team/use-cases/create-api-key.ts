import { recordAudit } from '../audit';
import type { Deps } from '../../deps';
import type { Actor, ApiKeyKind } from '../entities';
import type { Scope } from '../../shared/scope';
import { buildApiKey } from '../rules';

/** Makes a secret or publishable key for the scope's mode; the secret is returned once, never again. */
export async function createApiKey(
  deps: Deps,
  options: { scope: Scope; actor: Actor; kind: ApiKeyKind },
): Promise<{ id: string; secret: string }> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const { key, secret } = await buildApiKey({ accountId: options.scope.accountId, mode: options.scope.mode, kind: options.kind, at: now });
    await tx.apiKeys.insert(key);
    await recordAudit(tx, { accountId: options.scope.accountId, mode: options.scope.mode, actor: options.actor, action: `api_key.create.${options.kind}`, target: key.id, at: now });
    return { id: key.id, secret };
  });
}
