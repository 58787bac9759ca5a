import { dashboardSessionLifetime } from '../dashboard-session';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import { sha256Hex } from '../../shared/digest';
import type { DashboardSession, User } from '../entities';

/** Pushing the idle expiry forward at most every few minutes keeps reads from writing every time. */
const EXTEND_EVERY_MS = 5 * 60 * 1000;

/** Resolves a session cookie to its session and user, sliding the idle expiry forward. */
export async function authenticateDashboardSession(deps: Deps, options: { token: string | undefined }): Promise<{ session: DashboardSession; user: User }> {
  const missing = new TillpointError('not_signed_in', 'Sign in to continue');
  if (!options.token) throw missing;
  const hash = await sha256Hex(options.token);
  const now = deps.clock.now();
  // Reads without a transaction; the idle expiry, when it is due to move, is one statement of its own.
  const found = await deps.store.read(async (reader) => {
    const session = await reader.dashboardSessions.getByTokenHash(hash);
    if (!session || session.expiresAt <= now) return null;
    const user = await reader.users.get(session.userId);
    return user ? { session, user } : null;
  });
  if (!found) throw missing;
  const { session } = found;
  const latest = Math.min(now.getTime() + dashboardSessionLifetime.idleMs, session.createdAt.getTime() + dashboardSessionLifetime.absoluteMs);
  if (latest - session.expiresAt.getTime() > EXTEND_EVERY_MS) {
    session.expiresAt = new Date(latest);
    await deps.store.once((db) => db.dashboardSessions.extend(session.id, session.expiresAt));
  }
  return found;
}
