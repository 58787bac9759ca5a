import type { Deps } from '../../deps';
import type { MembershipWithAccount } from '../ports';

/** The accounts a user may switch between, with their role in each. */
export async function listUserAccounts(deps: Deps, options: { userId: string }): Promise<MembershipWithAccount[]> {
  return deps.store.read((reader) => reader.memberships.listForUser(options.userId));
}
