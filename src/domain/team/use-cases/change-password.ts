import type { Deps } from '../../deps';
import { TillpointError } from '../../shared/errors';
import type { Actor, User } from '../entities';
import { auditForUser, checkNewPassword, verifyCurrentPassword } from '../access-rules';

/**
 * Sets a new password after checking the current one; the same password again is refused. Every other session of the person ends (a
 * password changed because it leaked must lock out whoever used it); this one stays.
 */
export async function changePassword(
  deps: Deps,
  options: { user: User; sessionId: string; actor: Actor; currentPassword: string; newPassword: string },
): Promise<void> {
  checkNewPassword(options.newPassword, 'new_password');
  await verifyCurrentPassword(deps, { user: options.user, password: options.currentPassword, ip: options.actor.ip, param: 'current_password' });
  if (options.newPassword === options.currentPassword) {
    throw new TillpointError('parameter_invalid', 'The new password is your current password: choose a different one', { param: 'new_password' });
  }
  const hash = await deps.passwords.hash(options.newPassword);
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    await tx.userSecrets.setPasswordHash(options.user.id, hash);
    await tx.userSessions.deleteAll(options.user.id, options.sessionId);
    await tx.passwordResets.revokeUnused(options.user.id, now);
    await auditForUser(tx, { userId: options.user.id, actor: options.actor, action: 'user.password_change', target: options.user.id, at: now });
  });
}
