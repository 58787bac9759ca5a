import type { Deps } from '../../deps';

/** Whether the account requires a second factor, and which of its members have one. */
export async function getAccountSecurity(
  deps: Deps,
  options: { accountId: string },
): Promise<{ requireSecondFactor: boolean; membersWithSecondFactor: string[] }> {
  return deps.store.read(async (reader) => {
    const members = await reader.memberships.listForAccount(options.accountId);
    const withFactor: string[] = [];
    for (const member of members) if ((await reader.secondFactors.get(member.userId))?.secret) withFactor.push(member.userId);
    return { requireSecondFactor: await reader.accountSecurity.requiresSecondFactor(options.accountId), membersWithSecondFactor: withFactor };
  });
}
