import { recordAudit } from '../audit';
import type { Role } from '../permissions';
import type { Deps } from '../../deps';
import type { Actor, Membership } from '../entities';
import { assertMayAssign, memberToChange } from '../rules';

/** Gives a member another role. */
export async function changeMemberRole(deps: Deps, options: { by: Membership; actor: Actor; userId: string; role: Role }): Promise<Membership> {
  assertMayAssign(options.by, options.role);
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const target = await memberToChange(tx, { ...options, losesOwnership: options.role !== 'owner' });
    await tx.memberships.updateRole(target.accountId, target.userId, options.role);
    await recordAudit(tx, {
      accountId: target.accountId,
      mode: null,
      actor: options.actor,
      action: `member.role_change.${options.role}`,
      target: target.userId,
      at: now,
    });
    return { ...target, role: options.role };
  });
}
