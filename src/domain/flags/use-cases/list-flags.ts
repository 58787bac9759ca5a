import { builtInFlagKeys, builtInFlags } from '../flag-evaluation';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Flag } from '../entities';

/** Every flag of an account and mode: the built-in ones (set or not) first, then custom ones by key. */
export async function listFlags(deps: Deps, options: { scope: Scope }): Promise<Array<{ key: string; stored: Flag | null }>> {
  const stored = await deps.store.read((reader) => reader.flags.list(options.scope));
  const byKey = new Map(stored.map((f) => [f.key, f]));
  const builtIn = builtInFlagKeys.map((key) => ({ key, stored: byKey.get(key) ?? null }));
  const custom = stored.filter((f) => !Object.hasOwn(builtInFlags, f.key)).map((f) => ({ key: f.key, stored: f }));
  return [...builtIn, ...custom];
}
