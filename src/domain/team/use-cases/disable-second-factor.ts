import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor, User } from '../entities';
import { auditForUser, verifyCurrentPassword } from '../access-rules';

/** Turns a person's second factor off (their current password required); their recovery codes go with it. */
export async function disableSecondFactor(deps: Deps, options: { user: User; actor: Actor; password: string }): Promise<void> {
  await verifyCurrentPassword(deps, { user: options.user, password: options.password, ip: options.actor.ip, param: 'password' });
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    const current = await tx.secondFactors.get(options.user.id, { forUpdate: true });
    if (!current?.secret) throw new TillpointError('parameter_invalid', 'Two-step verification is not on');
    await tx.secondFactors.remove(options.user.id);
    await auditForUser(tx, { userId: options.user.id, actor: options.actor, action: 'user.second_factor_disable', target: options.user.id, at: now });
  });
}
