import type { Deps } from '../../deps';
import type { Account } from '../entities';

/** Every account of this install, oldest first: for the operator at the command line. */
export async function listAccounts(deps: Deps): Promise<Account[]> {
  return deps.store.read((reader) => reader.accounts.list());
}
