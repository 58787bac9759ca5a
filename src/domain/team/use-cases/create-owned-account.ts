import { recordAudit } from '../audit';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Account, Actor } from '../entities';
import { newAccount } from '../rules';

/**
 * An owner creates another merchant account from the dashboard and becomes its owner: on an install
 * whose sign-up is closed, the way a second business joins an owner's dashboard.
 */
export async function createOwnedAccount(deps: Deps, options: { actor: Actor; name: string; defaultCurrency?: string }): Promise<Account> {
  const now = deps.clock.now();
  const account = newAccount({ name: options.name, defaultCurrency: options.defaultCurrency }, now);
  return deps.store.transaction(async (tx) => {
    const memberships = await tx.memberships.listForUser(options.actor.id);
    if (!memberships.some((m) => m.role === 'owner')) {
      throw new TillpointError('insufficient_role', 'Only an owner of an account may create another account');
    }
    await tx.accounts.insert(account);
    await tx.memberships.insert({ accountId: account.id, userId: options.actor.id, role: 'owner', createdAt: now });
    await recordAudit(tx, { accountId: account.id, mode: null, actor: options.actor, action: 'account.create', target: account.id, at: now });
    return account;
  });
}
