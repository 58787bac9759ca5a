import { recordAudit } from '../audit';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor, Membership } from '../entities';

/**
 * Requires (or stops requiring) a second factor of every member of the account: a member without
 * one can then reach the account's pages only after setting one up. The one who turns it on must
 * have one, so they do not lock themselves out.
 */
export async function setSecondFactorRequirement(deps: Deps, options: { by: Membership; actor: Actor; required: boolean }): Promise<{ required: boolean }> {
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    if (options.required && !(await tx.secondFactors.get(options.actor.id))?.secret) {
      throw new TillpointError('parameter_invalid', 'Turn on two-step verification for yourself first', { param: 'require_second_factor' });
    }
    await tx.accountSecurity.setRequireSecondFactor(options.by.accountId, options.required, now);
    await recordAudit(tx, {
      accountId: options.by.accountId,
      mode: null,
      actor: options.actor,
      action: `account.second_factor_requirement.${options.required ? 'on' : 'off'}`,
      target: options.by.accountId,
      at: now,
    });
  });
  return { required: options.required };
}
