import type { Deps } from '../../deps';
import type { Invite } from '../entities';
import type { MemberWithUser } from '../ports';

/** The account's members and its invites still waiting to be accepted. */
export async function listTeam(deps: Deps, options: { accountId: string }): Promise<{ members: MemberWithUser[]; invites: Invite[] }> {
  const now = deps.clock.now();
  return deps.store.read(async (reader) => ({
    members: await reader.memberships.listForAccount(options.accountId),
    invites: await reader.invites.listPending(options.accountId, now),
  }));
}
