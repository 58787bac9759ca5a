import { resourceMissing } from '../../shared/errors';
import { sha256Hex } from '../../shared/digest';
import type { Deps } from '../../deps';

/** Whom a reset link is for, shown above its form. */
export async function getPasswordReset(deps: Deps, options: { token: string }): Promise<{ email: string; expiresAt: Date }> {
  const hash = await sha256Hex(options.token);
  const now = deps.clock.now();
  const found = await deps.store.read(async (reader) => {
    const reset = await reader.passwordResets.getByTokenHash(hash);
    if (!reset || reset.usedAt || reset.revokedAt || reset.expiresAt <= now) return null;
    const user = await reader.users.get(reset.userId);
    return user && { email: user.email, expiresAt: reset.expiresAt };
  });
  if (!found) throw resourceMissing('password reset link', 'link');
  return found;
}
