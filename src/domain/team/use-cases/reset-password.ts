import { resourceMissing } from '../../shared/errors';
import { sha256Hex } from '../../shared/digest';
import type { Deps } from '../../deps';
import { auditForUser, checkNewPassword, throttleSubjects, userActor } from '../access-rules';

/**
 * Redeems a reset link: sets the new password, ends every session of the person (whoever had their
 * old password is out) and lifts the sign-in lock of their email. Once, before it expires. A second
 * factor stays as it was: the next sign-in still asks for a code.
 */
export async function resetPassword(deps: Deps, options: { token: string; password: string; ip: string | null }): Promise<{ email: string }> {
  checkNewPassword(options.password);
  const hash = await sha256Hex(options.token);
  const passwordHash = await deps.passwords.hash(options.password);
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const reset = await tx.passwordResets.getByTokenHash(hash, { forUpdate: true });
    if (!reset || reset.usedAt || reset.revokedAt || reset.expiresAt <= now) throw resourceMissing('password reset link', 'link');
    const user = await tx.users.get(reset.userId);
    if (!user) throw resourceMissing('password reset link', 'link');
    await tx.passwordResets.markUsed(reset.id, now);
    await tx.passwordResets.revokeUnused(user.id, now);
    await tx.userSecrets.setPasswordHash(user.id, passwordHash);
    await tx.userSessions.deleteAll(user.id, null);
    await tx.signInFailures.clear(throttleSubjects(user.email, null)[0]!);
    await auditForUser(tx, { userId: user.id, actor: userActor(user, options.ip), action: 'user.password_reset', target: user.id, at: now });
    return { email: user.email };
  });
}
