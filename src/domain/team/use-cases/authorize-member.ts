import { resourceMissing, TillpointError } from '../../shared/errors';
import { can, type Permission } from '../permissions';
import type { Deps } from '../../deps';
import type { Membership } from '../entities';

/**
 * The dashboard's access check: the user must belong to the account (else the account does not
 * exist for them: 404), their role must carry the permission (else 403 insufficient_role), and when
 * the account requires a second factor they must have one (else 403 second_factor_enrolment_required).
 */
export async function authorizeMember(deps: Deps, options: { userId: string; accountId: string; permission: Permission }): Promise<Membership> {
  const { membership, missingFactor } = await deps.store.read(async (tx) => {
    const found = await tx.memberships.get(options.accountId, options.userId);
    const required = found ? await tx.accountSecurity.requiresSecondFactor(options.accountId) : false;
    return { membership: found, missingFactor: required && !(await tx.secondFactors.get(options.userId))?.secret };
  });
  if (!membership) throw resourceMissing('account', options.accountId);
  if (!can(membership.role, options.permission)) {
    throw new TillpointError('insufficient_role', `The ${membership.role} role may not do this (${options.permission})`);
  }
  if (missingFactor) {
    throw new TillpointError('second_factor_enrolment_required', 'This account requires two-step verification: turn it on under Your security first');
  }
  return membership;
}
