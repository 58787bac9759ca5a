import type { Deps } from '../../deps';
import { expireIfOverdue } from '../rules';

/** Sweeps sessions past `expires_at` into `expired` (and their events), a batch at a time. */
export async function expireOverdueSessions(deps: Deps, options: { batchSize?: number } = {}): Promise<number> {
  const now = deps.clock.now();
  const overdue = await deps.store.transaction((tx) => tx.checkoutSessions.listOpenExpiredBefore(now, options.batchSize ?? 100));
  let expired = 0;
  for (const candidate of overdue) {
    const changed = await deps.store.transaction(async (tx) => {
      const session = await tx.checkoutSessions.get(null, candidate.id, { forUpdate: true });
      if (!session) return false;
      return (await expireIfOverdue(deps, tx, session)).status === 'expired' && session.status === 'open';
    });
    if (changed) expired += 1;
  }
  return expired;
}
