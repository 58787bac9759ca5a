import type { Deps } from '../../deps';

/** Whether the account requires a second factor, and which of its members have one. */
export async function getAccountSecurity(
  deps: Deps,
  options: { accountId: string },
): Promise<{ requireSecondFactor: boolean; membersWithSecondFactor: string[] }> {
  return deps.store.transaction(async (tx) => {
    const members = await tx.memberships.listForAccount(options.accountId);
    const withFactor: string[] = [];
    for (const member of members) if ((await tx.secondFactors.get(member.userId))?.secret) withFactor.push(member.userId);
    return { requireSecondFactor: await tx.accountSecurity.requiresSecondFactor(options.accountId), membersWithSecondFactor: withFactor };
  });
}
