import { resourceMissing } from '../../shared/errors';
import { isBuiltInFlag } from '../flag-evaluation';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Flag } from '../entities';

/** One flag; a built-in flag that was never set reads as its default (`stored: null`). */
export async function getFlag(deps: Deps, options: { scope: Scope; key: string }): Promise<{ key: string; stored: Flag | null }> {
  const stored = await deps.store.read((reader) => reader.flags.get(options.scope, options.key));
  if (!stored && !isBuiltInFlag(options.key)) throw resourceMissing('flag', options.key);
  return { key: options.key, stored };
}
