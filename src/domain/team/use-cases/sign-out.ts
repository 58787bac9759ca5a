import type { Deps } from '../../deps';

/** Ends a dashboard session; the cookie is worthless from then on, on every instance. */
export async function signOut(deps: Deps, options: { sessionId: string }): Promise<void> {
  await deps.store.transaction((tx) => tx.dashboardSessions.delete(options.sessionId));
}
