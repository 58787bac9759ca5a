import { recordAudit } from '../audit';
import { startDashboardSession, type StartedSession } from '../dashboard-session';
import { resourceMissing, TillpointError } from '../../shared/errors';
import { sha256Hex } from '../../shared/digest';
import { newId } from '../../shared/ids';
import type { Deps } from '../../deps';
import type { User } from '../entities';
import { assertNotThrottled, throttleSubjects, userActor } from '../access-rules';
import { checkNewUser } from './sign-up';

/**
 * Redeems a setup link: creates the person's user (or, for an email that has one, checks its
 * password) and makes them an owner of the link's account, then signs them in. Once, before it expires.
 */
export async function claimSetupLink(
  deps: Deps,
  options: { token: string; email: string; name: string; password: string; ip: string | null; userAgent?: string | null },
): Promise<StartedSession & { user: User; accountId: string }> {
  const { email, name } = checkNewUser(options);
  const hash = await sha256Hex(options.token);
  const now = deps.clock.now();
  const subjects = throttleSubjects(email, options.ip);
  const existing = await deps.store.transaction(async (tx) => {
    const link = await tx.setupLinks.getByTokenHash(hash);
    if (!link || link.usedAt || link.revokedAt || link.expiresAt <= now) throw resourceMissing('setup link', 'link');
    await assertNotThrottled(tx, subjects, now);
    return tx.users.getByEmail(email);
  });
  let user: User;
  if (existing) {
    if (!(await deps.passwords.verify(existing.passwordHash, options.password))) {
      await deps.store.transaction((tx) => tx.signInFailures.record(subjects, now));
      throw new TillpointError('parameter_invalid', 'This email already has a user: enter its password to add the account to it', { param: 'password' });
    }
    user = existing;
  } else {
    // Hashing is deliberately slow; it runs before the transaction opens.
    user = { id: newId('user', 16), email, name, passwordHash: await deps.passwords.hash(options.password), createdAt: now };
  }
  return deps.store.transaction(async (tx) => {
    const link = await tx.setupLinks.getByTokenHash(hash, { forUpdate: true });
    if (!link || link.usedAt || link.revokedAt || link.expiresAt <= now) throw resourceMissing('setup link', 'link');
    if (!existing) {
      if (await tx.users.getByEmail(email)) {
        throw new TillpointError('parameter_invalid', 'This email already has a user: enter its password to add the account to it', { param: 'email' });
      }
      await tx.users.insert(user);
    }
    await tx.setupLinks.markUsed(link.id, user.id, now);
    const membership = await tx.memberships.get(link.accountId, user.id, { forUpdate: true });
    if (!membership) await tx.memberships.insert({ accountId: link.accountId, userId: user.id, role: 'owner', createdAt: now });
    else if (membership.role !== 'owner') await tx.memberships.updateRole(link.accountId, user.id, 'owner');
    await recordAudit(tx, { accountId: link.accountId, mode: null, actor: userActor(user, options.ip), action: 'setup_link.claim', target: link.id, at: now });
    await tx.signInFailures.clear(subjects[0]!);
    const started = await startDashboardSession(tx, { userId: user.id, ip: options.ip, userAgent: options.userAgent ?? null, at: now });
    return { ...started, user, accountId: link.accountId };
  });
}
