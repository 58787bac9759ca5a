import { resourceMissing, TillpointError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { newSecretToken } from '../../shared/secret-token';
import type { Deps, UnitOfWork } from '../../deps';
import type { Actor, Membership, PasswordReset, User } from '../entities';
import { auditForUser, HANDED_RESET_LIFETIME_MS } from '../access-rules';
import { can } from '../permissions';

export interface CreatedResetLink {
  url: string;
  expiresAt: Date;
  email: string;
}

/** Stores a new reset link for a user (earlier unused ones stop working) and returns its URL. */
export async function issuePasswordReset(
  deps: Deps,
  tx: UnitOfWork,
  options: { user: User; createdBy: string | null; lifetimeMs: number; at: Date },
): Promise<CreatedResetLink> {
  const { token, hash } = await newSecretToken('pwr');
  const reset: PasswordReset = {
    id: newId('pwreset', 16),
    userId: options.user.id,
    tokenHash: hash,
    createdBy: options.createdBy,
    createdAt: options.at,
    expiresAt: new Date(options.at.getTime() + options.lifetimeMs),
    usedAt: null,
    revokedAt: null,
  };
  await tx.passwordResets.revokeUnused(options.user.id, options.at);
  await tx.passwordResets.insert(reset);
  return { url: `${deps.publicUrl}/dashboard/reset-password/${token}`, expiresAt: reset.expiresAt, email: options.user.email };
}

/**
 * Makes a one-time password reset link to hand to a person, valid 24 hours. By a member who manages
 * the team (an owner or an admin), for a member who belongs to no account the maker does not manage,
 * and who is owner only where the maker is owner too: no one takes over an account by resetting the
 * password of someone with more rights there. Or by the operator's CLI (no `by`), for any user.
 */
export async function createPasswordResetLink(
  deps: Deps,
  options: { by: { membership: Membership; actor: Actor } | null; userId?: string; email?: string },
): Promise<CreatedResetLink> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const user = options.userId ? await tx.users.get(options.userId) : await tx.users.getByEmail((options.email ?? '').trim().toLowerCase());
    if (!user) throw resourceMissing('user', options.userId ?? options.email ?? '');
    if (options.by) {
      const { membership, actor } = options.by;
      const theirs = await tx.memberships.listForUser(user.id);
      if (!theirs.some((m) => m.accountId === membership.accountId)) throw resourceMissing('member', user.id);
      const mine = new Map((await tx.memberships.listForUser(actor.id)).map((m) => [m.accountId, m.role]));
      const mayReset = theirs.every((m) => {
        const role = mine.get(m.accountId);
        return role !== undefined && can(role, 'team.manage') && (m.role !== 'owner' || role === 'owner');
      });
      if (!mayReset) {
        throw new TillpointError(
          'insufficient_role',
          'This person belongs to an account you do not manage, or is an owner where you are not: they can reset by email, or the operator with `tillpoint password-reset-link`',
        );
      }
    }
    const link = await issuePasswordReset(deps, tx, { user, createdBy: options.by?.actor.id ?? null, lifetimeMs: HANDED_RESET_LIFETIME_MS, at: now });
    if (options.by) {
      await auditForUser(tx, { userId: user.id, actor: options.by.actor, action: 'user.password_reset_link', target: user.id, at: now });
    }
    return link;
  });
}
