import { resourceMissing } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { newSecretToken } from '../../shared/secret-token';
import type { Deps } from '../../deps';
import type { SetupLink } from '../entities';
import { SETUP_LINK_LIFETIME_MS } from '../access-rules';

/**
 * Makes the one-time link that creates an owner's sign-in on an account: how the operator who started
 * the install claims its demo account. Only the newest link of an account works; it expires in 24 h.
 */
export async function createSetupLink(deps: Deps, options: { accountId: string }): Promise<{ url: string; expiresAt: Date; accountName: string }> {
  const now = deps.clock.now();
  const { token, hash } = await newSecretToken('setup');
  const link: SetupLink = {
    id: newId('setup', 16),
    accountId: options.accountId,
    tokenHash: hash,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SETUP_LINK_LIFETIME_MS),
    usedAt: null,
    usedBy: null,
    revokedAt: null,
  };
  const account = await deps.store.transaction(async (tx) => {
    const found = await tx.accounts.get(options.accountId);
    if (!found) throw resourceMissing('account', options.accountId);
    await tx.setupLinks.revokeUnused(options.accountId, now);
    await tx.setupLinks.insert(link);
    return found;
  });
  return { url: `${deps.publicUrl}/dashboard/setup/${token}`, expiresAt: link.expiresAt, accountName: account.name };
}
