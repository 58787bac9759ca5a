import type { Account } from '../entities';
import { resourceMissing } from '../errors';
import type { Deps } from '../ports';

/** Reads an account's profile and branding. */
export async function getAccount(deps: Deps, options: { accountId: string }): Promise<Account> {
  const account = await deps.store.transaction((tx) => tx.accounts.get(options.accountId));
  if (!account) throw resourceMissing('account', options.accountId);
  return account;
}
