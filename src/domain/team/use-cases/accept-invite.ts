import { recordAudit } from '../audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps, UnitOfWork } from '../../deps';
import { sha256Hex } from '../../shared/digest';
import type { Actor, Membership } from '../entities';

/**
 * Redeems an invite token inside the caller's transaction: once, before it expires. A user already
 * in the account keeps the role they have.
 */
export async function joinWithInvite(
  tx: UnitOfWork,
  options: { token: string; actor: Actor; at: Date },
): Promise<Membership> {
  const invite = await tx.invites.getByTokenHash(await sha256Hex(options.token), { forUpdate: true });
  if (!invite || invite.acceptedAt || invite.revokedAt || invite.expiresAt <= options.at) {
    throw resourceMissing('invite', 'link');
  }
  await tx.invites.accept(invite.id, options.actor.id, options.at);
  const existing = await tx.memberships.get(invite.accountId, options.actor.id);
  if (existing) return existing;
  const membership: Membership = { accountId: invite.accountId, userId: options.actor.id, role: invite.role, createdAt: options.at };
  await tx.memberships.insert(membership);
  await recordAudit(tx, {
    accountId: invite.accountId,
    mode: null,
    actor: options.actor,
    action: 'invite.accept',
    target: invite.id,
    at: options.at,
  });
  return membership;
}

/** A signed-in user accepts an invite link. */
export async function acceptInvite(deps: Deps, options: { token: string; actor: Actor }): Promise<Membership> {
  return deps.store.transaction((tx) => joinWithInvite(tx, { ...options, at: deps.clock.now() }));
}
