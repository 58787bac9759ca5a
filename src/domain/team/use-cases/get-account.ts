import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Account } from '../entities';

/** Reads an account's profile and branding. */
export async function getAccount(deps: Deps, options: { accountId: string }): Promise<Account> {
  const account = await deps.store.read((reader) => reader.accounts.get(options.accountId));
  if (!account) throw resourceMissing('account', options.accountId);
  return account;
}
