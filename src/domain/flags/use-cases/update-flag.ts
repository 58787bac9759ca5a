import { auditWrite } from '../../team/audit';
import { resourceMissing, TillpointError } from '../../shared/errors';
import { builtInFlags, isBuiltInFlag } from '../flag-evaluation';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { FlagValue, Flag } from '../entities';

/**
 * Changes a flag's value or description. Takes effect on the next evaluation, on every instance:
 * this is how a kill switch is thrown without a deploy. A flag keeps its type.
 */
export async function updateFlag(
  deps: Deps,
  options: { scope: Scope; key: string; value?: FlagValue; description?: string | null; actor: Actor | null },
): Promise<Flag> {
  const { scope, key } = options;
  return deps.store.transaction(async (tx) => {
    const stored = await tx.flags.get(scope, key);
    const builtIn = isBuiltInFlag(key) ? builtInFlags[key] : null;
    if (!stored && !builtIn) throw resourceMissing('flag', key);
    const current = stored?.value ?? builtIn!.default;
    const value = options.value ?? current;
    if (typeof value !== typeof current) {
      throw new TillpointError('parameter_invalid', `${key} is a ${typeof current} flag`, { param: 'value' });
    }
    if (builtIn?.values && !(builtIn.values as readonly FlagValue[]).includes(value)) {
      throw new TillpointError('parameter_invalid', `${key} must be one of: ${builtIn.values.join(', ')}`, { param: 'value' });
    }
    const now = deps.clock.now();
    const description = options.description === undefined ? (stored?.description ?? null) : options.description;
    await auditWrite(tx, { scope, actor: options.actor, action: 'flag.update', target: key, at: now });
    if (stored) {
      const next: Flag = { ...stored, value, description, updatedAt: now };
      await tx.flags.update(next);
      return next;
    }
    const created: Flag = { ...scope, key, value, description, createdAt: now, updatedAt: now };
    await tx.flags.insert(created);
    return created;
  });
}
