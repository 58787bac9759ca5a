import type { DashboardSession } from '../../../domain/team/entities';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import type { Row } from '../../rows';

/** A `dashboard_sessions` row as the domain reads it. */
export const toDashboardSession = (row: Row): DashboardSession => ({
  id: row.id,
  tokenHash: row.token_hash,
  userId: row.user_id,
  csrfSecret: row.csrf_token,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  ip: row.ip,
  userAgent: row.user_agent,
});

/** Dashboard sign-in: cookie sessions and the failures the throttle counts. */
export function dashboardSignInRepositories(db: SqlExecutor): Pick<UnitOfWork, 'dashboardSessions' | 'signInFailures'> {
  return {
    dashboardSessions: {
      async insert(s) {
        await db.query<Row>(
          `INSERT INTO dashboard_sessions (id, token_hash, user_id, csrf_token, created_at, expires_at, ip, user_agent)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [s.id, s.tokenHash, s.userId, s.csrfSecret, s.createdAt, s.expiresAt, s.ip, s.userAgent ?? null],
        );
      },
      async getByTokenHash(hash) {
        const { rows } = await db.query<Row>('SELECT * FROM dashboard_sessions WHERE token_hash = $1', [hash]);
        return rows[0] ? toDashboardSession(rows[0]) : null;
      },
      async extend(id, expiresAt) {
        await db.query<Row>('UPDATE dashboard_sessions SET expires_at = $2 WHERE id = $1', [id, expiresAt]);
      },
      async delete(id) {
        await db.query<Row>('DELETE FROM dashboard_sessions WHERE id = $1', [id]);
      },
    },
    signInFailures: {
      async record(subjects, at) {
        for (const subject of subjects) {
          await db.query<Row>('INSERT INTO sign_in_failures (subject, failed_at) VALUES ($1, $2)', [subject, at]);
          // The throttle never looks further back than a day; the table stays small.
          await db.query<Row>(`DELETE FROM sign_in_failures WHERE subject = $1 AND failed_at < $2::timestamptz - interval '1 day'`, [subject, at]);
        }
      },
      async since(subject, from) {
        const { rows } = await db.query<{ failed_at: string }>(
          'SELECT failed_at FROM sign_in_failures WHERE subject = $1 AND failed_at >= $2 ORDER BY failed_at',
          [subject, from],
        );
        return rows.map((row) => new Date(row.failed_at));
      },
      async clear(subject) {
        await db.query<Row>('DELETE FROM sign_in_failures WHERE subject = $1', [subject]);
      },
    },
  };
}
