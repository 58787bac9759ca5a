import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { ApiKey } from '../entities';

/** The scope's API keys, newest first, revoked ones included (their last use still matters). */
export async function listApiKeys(deps: Deps, options: { scope: Scope }): Promise<ApiKey[]> {
  return deps.store.read((reader) => reader.apiKeys.list(options.scope));
}
