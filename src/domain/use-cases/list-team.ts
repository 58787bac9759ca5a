import type { Deps } from '../ports';
import type { Invite } from '../team-entities';
import type { MemberWithUser } from '../team-ports';

/** The account's members and its invites still waiting to be accepted. */
export async function listTeam(
  deps: Deps,
  options: { accountId: string },
): Promise<{ members: MemberWithUser[]; invites: Invite[] }> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => ({
    members: await tx.memberships.listForAccount(options.accountId),
    invites: await tx.invites.listPending(options.accountId, now),
  }));
}
