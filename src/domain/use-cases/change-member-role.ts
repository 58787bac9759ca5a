import { recordAudit } from '../audit';
import { resourceMissing, TillpointError } from '../errors';
import type { Role } from '../permissions';
import type { Deps, UnitOfWork } from '../ports';
import type { Actor, Membership } from '../team-entities';
import { assertMayAssign } from './create-invite';

/**
 * Finds the member another member wants to change, refusing what would take control away from the
 * owners: only an owner may touch an owner, and the last owner stays.
 */
export async function memberToChange(
  tx: UnitOfWork,
  options: { by: Membership; userId: string; losesOwnership: boolean },
): Promise<Membership> {
  // Owners first, in one order, then the target: two requests demoting two owners cannot deadlock.
  const owners = await tx.memberships.ownersForUpdate(options.by.accountId);
  const target = await tx.memberships.get(options.by.accountId, options.userId, { forUpdate: true });
  if (!target) throw resourceMissing('member', options.userId);
  if (target.role === 'owner') {
    assertMayAssign(options.by, 'owner');
    if (options.losesOwnership && owners.length <= 1) {
      throw new TillpointError('parameter_invalid', 'An account needs at least one owner: make someone else owner first', {
        param: 'role',
      });
    }
  }
  return target;
}

/** Gives a member another role. */
export async function changeMemberRole(
  deps: Deps,
  options: { by: Membership; actor: Actor; userId: string; role: Role },
): Promise<Membership> {
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
