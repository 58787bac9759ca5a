import { recordAudit } from '../audit';
import { newId } from '../../shared/ids';
import type { Role } from '../permissions';
import type { Deps } from '../../deps';
import { newSecretToken } from '../../shared/secret-token';
import type { Actor, Invite, Membership } from '../entities';
import { assertMayAssign } from '../rules';

export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** Creates a single-use invite link for a role; the token is in the returned URL only. */
export async function createInvite(deps: Deps, options: { by: Membership; actor: Actor; role: Role }): Promise<{ invite: Invite; url: string }> {
  assertMayAssign(options.by, options.role);
  const now = deps.clock.now();
  const { token, hash } = await newSecretToken('inv');
  const invite: Invite = {
    id: newId('invite', 16),
    accountId: options.by.accountId,
    role: options.role,
    tokenHash: hash,
    createdBy: options.actor.id,
    createdAt: now,
    expiresAt: new Date(now.getTime() + INVITE_LIFETIME_MS),
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
  };
  await deps.store.transaction(async (tx) => {
    await tx.invites.insert(invite);
    await recordAudit(tx, { accountId: invite.accountId, mode: null, actor: options.actor, action: 'invite.create', target: invite.id, at: now });
  });
  return { invite, url: `${deps.publicUrl}/dashboard/invite/${token}` };
}
