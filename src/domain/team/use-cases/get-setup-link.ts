import { resourceMissing } from '../../shared/errors';
import { sha256Hex } from '../../shared/digest';
import type { Deps } from '../../deps';

/** What a setup link offers, before the operator fills in the form: the account it claims. */
export async function getSetupLink(deps: Deps, options: { token: string }): Promise<{ accountName: string; expiresAt: Date }> {
  const hash = await sha256Hex(options.token);
  const now = deps.clock.now();
  const found = await deps.store.read(async (reader) => {
    const link = await reader.setupLinks.getByTokenHash(hash);
    if (!link || link.usedAt || link.revokedAt || link.expiresAt <= now) return null;
    const account = await reader.accounts.get(link.accountId);
    return account && { accountName: account.branding.displayName ?? account.name, expiresAt: link.expiresAt };
  });
  if (!found) throw resourceMissing('setup link', 'link');
  return found;
}
