import { newId } from '../shared/ids';
import type { UnitOfWork } from '../deps';
import { newSecretToken } from '../shared/secret-token';
import type { DashboardSession } from './entities';

/** A session ends after 12 hours without use, and after 7 days whatever happens. */
export const dashboardSessionLifetime = {
  idleMs: 12 * 60 * 60 * 1000,
  absoluteMs: 7 * 24 * 60 * 60 * 1000,
};

export interface StartedSession {
  session: DashboardSession;
  /** The cookie value; only its hash is stored. */
  token: string;
}

/** Opens a dashboard session for a user who just proved who they are. */
export async function startDashboardSession(
  tx: UnitOfWork,
  options: { userId: string; ip: string | null; userAgent?: string | null; at: Date },
): Promise<StartedSession> {
  const { token, hash } = await newSecretToken('tps');
  const session: DashboardSession = {
    id: newId('dsess', 16),
    tokenHash: hash,
    userId: options.userId,
    csrfSecret: newId('csrf', 32),
    createdAt: options.at,
    expiresAt: new Date(options.at.getTime() + dashboardSessionLifetime.idleMs),
    ip: options.ip,
    userAgent: options.userAgent?.slice(0, 300) ?? null,
  };
  await tx.dashboardSessions.insert(session);
  return { session, token };
}
