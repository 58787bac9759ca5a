import { recordAudit } from '../audit';
import type { Deps } from '../../deps';
import type { Actor, Membership } from '../entities';
import { memberToChange } from '../rules';

/** Takes a user out of the account; their other accounts are untouched. */
export async function removeMember(deps: Deps, options: { by: Membership; actor: Actor; userId: string }): Promise<void> {
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    const target = await memberToChange(tx, { ...options, losesOwnership: true });
    await tx.memberships.delete(target.accountId, target.userId);
    await recordAudit(tx, { accountId: target.accountId, mode: null, actor: options.actor, action: 'member.remove', target: target.userId, at: now });
  });
}
