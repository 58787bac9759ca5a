import type { Deps } from '../ports';
import type { MembershipWithAccount } from '../team-ports';

/** The accounts a user may switch between, with their role in each. */
export async function listUserAccounts(deps: Deps, options: { userId: string }): Promise<MembershipWithAccount[]> {
  return deps.store.transaction((tx) => tx.memberships.listForUser(options.userId));
}
