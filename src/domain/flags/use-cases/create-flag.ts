import { auditWrite } from '../../team/audit';
import { TillpointError } from '../../shared/errors';
import { isBuiltInFlag, isExperimentSurface } from '../flag-evaluation';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { FlagValue, Flag } from '../entities';

export const FLAG_KEY = /^[a-z][a-z0-9_]{0,63}$/;

/** Creates a custom flag. Built-in flags always exist; change them with `updateFlag`. */
export async function createFlag(
  deps: Deps,
  options: { scope: Scope; key: string; value: FlagValue; description?: string | null; actor: Actor | null },
): Promise<Flag> {
  const { scope, key } = options;
  if (!FLAG_KEY.test(key)) {
    throw new TillpointError('parameter_invalid', 'A flag key is 1–64 lowercase letters, digits and underscores, starting with a letter', { param: 'key' });
  }
  if (isBuiltInFlag(key) || isExperimentSurface(key)) {
    throw new TillpointError('parameter_invalid', `${key} is built in: change it with POST /v1/flags/${key}`, { param: 'key' });
  }
  const now = deps.clock.now();
  const flag: Flag = { ...scope, key, value: options.value, description: options.description ?? null, createdAt: now, updatedAt: now };
  return deps.store.transaction(async (tx) => {
    if (await tx.flags.get(scope, key)) {
      throw new TillpointError('parameter_invalid', `A flag named ${key} already exists: update it with POST /v1/flags/${key}`, { param: 'key' });
    }
    await tx.flags.insert(flag);
    await auditWrite(tx, { scope, actor: options.actor, action: 'flag.create', target: key, at: now });
    return flag;
  });
}
