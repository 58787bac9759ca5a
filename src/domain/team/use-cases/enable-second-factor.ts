import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor, User } from '../entities';
import { auditForUser } from '../access-rules';
import { newRecoveryCodes } from '../second-factor';

/**
 * Turns the offered second factor on once a code from the app proves it was set up, and returns the
 * recovery codes (shown once, stored hashed).
 */
export async function enableSecondFactor(deps: Deps, options: { user: User; actor: Actor; code: string }): Promise<{ recoveryCodes: string[] }> {
  const now = deps.clock.now();
  const { codes, hashes } = await newRecoveryCodes();
  await deps.store.transaction(async (tx) => {
    const current = await tx.secondFactors.get(options.user.id, { forUpdate: true });
    if (current?.secret) throw new TillpointError('parameter_invalid', 'Two-step verification is on already');
    if (!current?.pendingSecret)
      throw new TillpointError('parameter_invalid', 'Start the set-up again: no authenticator app is waiting to be confirmed', { param: 'code' });
    const step = deps.access.secondFactorCodes.check(current.pendingSecret, options.code, now);
    if (step === null)
      throw new TillpointError('parameter_invalid', 'The code is not right: enter the code your authenticator app shows now', { param: 'code' });
    await tx.secondFactors.enable(options.user.id, current.pendingSecret, step, now);
    await tx.recoveryCodes.replace(options.user.id, hashes);
    await auditForUser(tx, { userId: options.user.id, actor: options.actor, action: 'user.second_factor_enable', target: options.user.id, at: now });
  });
  return { recoveryCodes: codes };
}
