import type { PasswordReset, SecondFactor, SetupLink } from '../../../domain/team/entities';
import type { UnitOfWork } from '../../../domain/deps';
import type { AccessRepositories } from '../../../domain/team/access-ports';
import type { SqlExecutor } from '../../sql-client';
import { dateOrNull, type Row } from '../../rows';
import { toDashboardSession } from './dashboard-sign-in';

const toSetupLink = (row: Row): SetupLink => ({
  id: row.id,
  accountId: row.account_id,
  tokenHash: row.token_hash,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  usedAt: dateOrNull(row.used_at),
  usedBy: row.used_by,
  revokedAt: dateOrNull(row.revoked_at),
});

const toPasswordReset = (row: Row): PasswordReset => ({
  id: row.id,
  userId: row.user_id,
  tokenHash: row.token_hash,
  createdBy: row.created_by,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  usedAt: dateOrNull(row.used_at),
  revokedAt: dateOrNull(row.revoked_at),
});

const toSecondFactor = (row: Row): SecondFactor => ({
  userId: row.user_id,
  secret: row.secret,
  pendingSecret: row.pending_secret,
  enabledAt: dateOrNull(row.enabled_at),
  lastStep: row.last_step === null ? null : Number(row.last_step),
});

const forUpdate = (options: { forUpdate?: boolean } = {}) => (options.forUpdate ? ' FOR UPDATE' : '');

/** Setup links, password resets, second factors and recovery codes, the team's requirement, a user's sessions. */
export function accessRepositories(db: SqlExecutor): Pick<UnitOfWork, keyof AccessRepositories> {
  return {
    setupLinks: {
      async insert(l) {
        await db.query(
          `INSERT INTO setup_links (id, account_id, token_hash, created_at, expires_at, used_at, used_by, revoked_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [l.id, l.accountId, l.tokenHash, l.createdAt, l.expiresAt, l.usedAt, l.usedBy, l.revokedAt],
        );
      },
      async getByTokenHash(hash, options) {
        const { rows } = await db.query<Row>(`SELECT * FROM setup_links WHERE token_hash = $1${forUpdate(options)}`, [hash]);
        return rows[0] ? toSetupLink(rows[0]) : null;
      },
      async markUsed(id, userId, at) {
        await db.query('UPDATE setup_links SET used_at = $3, used_by = $2 WHERE id = $1', [id, userId, at]);
      },
      async revokeUnused(accountId, at) {
        await db.query('UPDATE setup_links SET revoked_at = $2 WHERE account_id = $1 AND used_at IS NULL AND revoked_at IS NULL', [accountId, at]);
      },
    },
    passwordResets: {
      async insert(r) {
        await db.query(
          `INSERT INTO password_resets (id, user_id, token_hash, created_by, created_at, expires_at, used_at, revoked_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [r.id, r.userId, r.tokenHash, r.createdBy, r.createdAt, r.expiresAt, r.usedAt, r.revokedAt],
        );
      },
      async getByTokenHash(hash, options) {
        const { rows } = await db.query<Row>(`SELECT * FROM password_resets WHERE token_hash = $1${forUpdate(options)}`, [hash]);
        return rows[0] ? toPasswordReset(rows[0]) : null;
      },
      async markUsed(id, at) {
        await db.query('UPDATE password_resets SET used_at = $2 WHERE id = $1', [id, at]);
      },
      async revokeUnused(userId, at) {
        await db.query('UPDATE password_resets SET revoked_at = $2 WHERE user_id = $1 AND used_at IS NULL AND revoked_at IS NULL', [userId, at]);
      },
    },
    userSecrets: {
      async count() {
        const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM users');
        return Number(rows[0]!.n);
      },
      async setPasswordHash(userId, hash) {
        await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, hash]);
      },
    },
    secondFactors: {
      async get(userId, options) {
        const { rows } = await db.query<Row>(`SELECT * FROM second_factors WHERE user_id = $1${forUpdate(options)}`, [userId]);
        return rows[0] ? toSecondFactor(rows[0]) : null;
      },
      async offer(userId, pendingSecret) {
        await db.query(
          `INSERT INTO second_factors (user_id, pending_secret) VALUES ($1, $2)
           ON CONFLICT (user_id) DO UPDATE SET pending_secret = excluded.pending_secret`,
          [userId, pendingSecret],
        );
      },
      async enable(userId, secret, step, at) {
        await db.query('UPDATE second_factors SET secret = $2, pending_secret = NULL, enabled_at = $4, last_step = $3 WHERE user_id = $1', [
          userId,
          secret,
          step,
          at,
        ]);
      },
      async acceptStep(userId, step) {
        await db.query('UPDATE second_factors SET last_step = $2 WHERE user_id = $1', [userId, step]);
      },
      async remove(userId) {
        await db.query('DELETE FROM second_factors WHERE user_id = $1', [userId]);
        await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
      },
    },
    recoveryCodes: {
      async replace(userId, hashes) {
        await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
        for (const hash of hashes) await db.query('INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)', [userId, hash]);
      },
      async use(userId, hash, at) {
        const { rowCount } = await db.query('UPDATE recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [
          userId,
          hash,
          at,
        ]);
        return rowCount === 1;
      },
      async countUnused(userId) {
        const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL', [userId]);
        return Number(rows[0]!.n);
      },
    },
    accountSecurity: {
      async requiresSecondFactor(accountId) {
        const { rows } = await db.query<{ require_second_factor: boolean }>('SELECT require_second_factor FROM account_security WHERE account_id = $1', [
          accountId,
        ]);
        return rows[0]?.require_second_factor === true;
      },
      async setRequireSecondFactor(accountId, required, at) {
        await db.query(
          `INSERT INTO account_security (account_id, require_second_factor, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (account_id) DO UPDATE SET require_second_factor = excluded.require_second_factor, updated_at = excluded.updated_at`,
          [accountId, required, at],
        );
      },
    },
    userSessions: {
      async list(userId, at) {
        const { rows } = await db.query<Row>('SELECT * FROM dashboard_sessions WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at DESC, id DESC', [
          userId,
          at,
        ]);
        return rows.map(toDashboardSession);
      },
      async delete(userId, id) {
        const { rowCount } = await db.query('DELETE FROM dashboard_sessions WHERE user_id = $1 AND id = $2', [userId, id]);
        return rowCount === 1;
      },
      async deleteAll(userId, keepId) {
        await db.query('DELETE FROM dashboard_sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2', [userId, keepId]);
      },
    },
  };
}
