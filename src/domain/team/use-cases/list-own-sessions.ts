import type { Deps } from '../../deps';
import type { DashboardSession } from '../entities';

/** A person's signed-in browsers that have not expired, newest first. */
export async function listOwnSessions(deps: Deps, options: { userId: string }): Promise<DashboardSession[]> {
  const now = deps.clock.now();
  return deps.store.read((reader) => reader.userSessions.list(options.userId, now));
}
