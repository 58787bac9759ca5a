import { resourceMissing } from '../../shared/errors';
import type { Role } from '../permissions';
import type { Deps } from '../../deps';
import { sha256Hex } from '../../shared/digest';

/** What an invite link offers, shown before the person signs up or in: the account and the role. */
export async function getInvite(deps: Deps, options: { token: string }): Promise<{ accountName: string; role: Role; expiresAt: Date }> {
  const hash = await sha256Hex(options.token);
  const now = deps.clock.now();
  const found = await deps.store.read(async (reader) => {
    const invite = await reader.invites.getByTokenHash(hash);
    if (!invite || invite.acceptedAt || invite.revokedAt || invite.expiresAt <= now) return null;
    const account = await reader.accounts.get(invite.accountId);
    return account && { accountName: account.branding.displayName ?? account.name, role: invite.role, expiresAt: invite.expiresAt };
  });
  if (!found) throw resourceMissing('invite', 'link');
  return found;
}
