import { resourceMissing, TillpointError } from '../../shared/errors';
import { can, type Permission } from '../permissions';
import type { Deps } from '../../deps';
import type { Membership } from '../entities';

/**
 * The dashboard's access check: the user must belong to the account (else the account does not
 * exist for them: 404) and their role must carry the permission (else 403 insufficient_role).
 */
export async function authorizeMember(
  deps: Deps,
  options: { userId: string; accountId: string; permission: Permission },
): Promise<Membership> {
  const membership = await deps.store.transaction((tx) => tx.memberships.get(options.accountId, options.userId));
  if (!membership) throw resourceMissing('account', options.accountId);
  if (!can(membership.role, options.permission)) {
    throw new TillpointError('insufficient_role', `The ${membership.role} role may not do this (${options.permission})`);
  }
  return membership;
}
