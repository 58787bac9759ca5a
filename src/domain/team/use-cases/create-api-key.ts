import { recordAudit } from '../audit';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor, ApiKeyKind } from '../entities';
import type { Scope } from '../../shared/scope';
import type { ApiKeyPermissions } from '../api-key-permissions';
import { buildApiKey } from '../rules';

/** A key's name: what a person reads in the list; up to 100 characters, spaces trimmed. */
export function apiKeyName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  if (trimmed.length > 100) throw new TillpointError('parameter_invalid', 'A key name has at most 100 characters', { param: 'name' });
  return trimmed;
}

/**
 * Makes a secret, restricted or publishable key for the scope's mode; the secret is returned once,
 * never again. A restricted key needs its permissions; an expiry, when given, must be in the future.
 */
export async function createApiKey(
  deps: Deps,
  options: { scope: Scope; actor: Actor; kind: ApiKeyKind; name?: string; permissions?: ApiKeyPermissions; expiresAt?: Date | null },
): Promise<{ id: string; secret: string }> {
  const now = deps.clock.now();
  const name = apiKeyName(options.name);
  if (options.kind === 'restricted' && !options.permissions) {
    throw new TillpointError('parameter_missing', 'A restricted key needs permissions: { resource: "none" | "read" | "write" }', { param: 'permissions' });
  }
  if (options.kind !== 'restricted' && options.permissions) {
    throw new TillpointError('parameter_invalid', 'Only a restricted key takes permissions', { param: 'permissions' });
  }
  if (options.expiresAt && options.expiresAt.getTime() <= now.getTime()) {
    throw new TillpointError('parameter_invalid', 'expires_at must be in the future', { param: 'expires_at' });
  }
  return deps.store.transaction(async (tx) => {
    const { key, secret } = await buildApiKey({
      accountId: options.scope.accountId,
      mode: options.scope.mode,
      kind: options.kind,
      at: now,
      name,
      permissions: options.permissions ?? null,
      expiresAt: options.expiresAt ?? null,
    });
    await tx.apiKeys.insert(key);
    await recordAudit(tx, {
      accountId: options.scope.accountId,
      mode: options.scope.mode,
      actor: options.actor,
      action: `api_key.create.${options.kind}`,
      target: key.id,
      at: now,
    });
    return { id: key.id, secret };
  });
}
