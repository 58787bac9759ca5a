import type { Deps } from '../../deps';

/** A person's own sign-in security: whether their second factor is on, and how many recovery codes remain. */
export async function getOwnSecurity(deps: Deps, options: { userId: string }): Promise<{ secondFactor: boolean; recoveryCodesLeft: number }> {
  return deps.store.read(async (reader) => {
    const factor = await reader.secondFactors.get(options.userId);
    return { secondFactor: Boolean(factor?.secret), recoveryCodesLeft: factor?.secret ? await reader.recoveryCodes.countUnused(options.userId) : 0 };
  });
}
