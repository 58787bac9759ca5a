import type { Invite, Membership, User } from '../../../domain/team/entities';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { dateOrNull, type Row } from '../../rows';

const toUser = (row: Row): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  passwordHash: row.password_hash,
  createdAt: new Date(row.created_at),
});

const toMembership = (row: Row): Membership => ({
  accountId: row.account_id,
  userId: row.user_id,
  role: row.role,
  createdAt: new Date(row.created_at),
});

const toInvite = (row: Row): Invite => ({
  id: row.id,
  accountId: row.account_id,
  role: row.role,
  tokenHash: row.token_hash,
  createdBy: row.created_by,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  acceptedAt: dateOrNull(row.accepted_at),
  acceptedBy: row.accepted_by,
  revokedAt: dateOrNull(row.revoked_at),
});

/** Users, their memberships of accounts, and invites to join one. */
export function memberRepositories(db: SqlExecutor): Pick<UnitOfWork, 'users' | 'memberships' | 'invites'> {
  return {
    users: {
      async insert(u) {
        await db.query<Row>('INSERT INTO users (id, email, name, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)', [
          u.id,
          u.email,
          u.name,
          u.passwordHash,
          u.createdAt,
        ]);
      },
      async get(id) {
        const { rows } = await db.query<Row>('SELECT * FROM users WHERE id = $1', [id]);
        return rows[0] ? toUser(rows[0]) : null;
      },
      async getByEmail(email) {
        const { rows } = await db.query<Row>('SELECT * FROM users WHERE email = $1', [email]);
        return rows[0] ? toUser(rows[0]) : null;
      },
    },
    memberships: {
      async insert(m) {
        await db.query<Row>('INSERT INTO memberships (account_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)', [
          m.accountId,
          m.userId,
          m.role,
          m.createdAt,
        ]);
      },
      async get(accountId, userId, options = {}) {
        const { rows } = await db.query<Row>(`SELECT * FROM memberships WHERE account_id = $1 AND user_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`, [
          accountId,
          userId,
        ]);
        return rows[0] ? toMembership(rows[0]) : null;
      },
      async listForUser(userId) {
        const { rows } = await db.query<Row>(
          `SELECT m.*, coalesce(a.display_name, a.name) AS account_name, a.default_currency FROM memberships m
           JOIN accounts a ON a.id = m.account_id WHERE m.user_id = $1 ORDER BY m.created_at, m.account_id`,
          [userId],
        );
        return rows.map((row) => ({ ...toMembership(row), accountName: row.account_name, defaultCurrency: row.default_currency }));
      },
      async listForAccount(accountId) {
        const { rows } = await db.query<Row>(
          `SELECT m.*, u.email, u.name FROM memberships m JOIN users u ON u.id = m.user_id
           WHERE m.account_id = $1 ORDER BY m.created_at, u.email`,
          [accountId],
        );
        return rows.map((row) => ({ ...toMembership(row), email: row.email, name: row.name }));
      },
      async updateRole(accountId, userId, role) {
        await db.query<Row>('UPDATE memberships SET role = $3 WHERE account_id = $1 AND user_id = $2', [accountId, userId, role]);
      },
      async delete(accountId, userId) {
        await db.query<Row>('DELETE FROM memberships WHERE account_id = $1 AND user_id = $2', [accountId, userId]);
      },
      async ownersForUpdate(accountId) {
        const { rows } = await db.query<{ user_id: string }>(
          `SELECT user_id FROM memberships WHERE account_id = $1 AND role = 'owner' ORDER BY user_id FOR UPDATE`,
          [accountId],
        );
        return rows.map((row) => row.user_id);
      },
    },
    invites: {
      async insert(i) {
        await db.query<Row>(
          `INSERT INTO invites (id, account_id, role, token_hash, created_by, created_at, expires_at, accepted_at, accepted_by, revoked_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [i.id, i.accountId, i.role, i.tokenHash, i.createdBy, i.createdAt, i.expiresAt, i.acceptedAt, i.acceptedBy, i.revokedAt],
        );
      },
      async getByTokenHash(hash, options = {}) {
        const { rows } = await db.query<Row>(`SELECT * FROM invites WHERE token_hash = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [hash]);
        return rows[0] ? toInvite(rows[0]) : null;
      },
      async accept(id, userId, at) {
        await db.query<Row>('UPDATE invites SET accepted_at = $3, accepted_by = $2 WHERE id = $1', [id, userId, at]);
      },
      async listPending(accountId, at) {
        const { rows } = await db.query<Row>(
          `SELECT * FROM invites WHERE account_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
           ORDER BY created_at DESC`,
          [accountId, at],
        );
        return rows.map(toInvite);
      },
      async revoke(accountId, id, at) {
        const { rowCount } = await db.query<Row>(
          `UPDATE invites SET revoked_at = $3
           WHERE id = $1 AND account_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL`,
          [id, accountId, at],
        );
        return rowCount === 1;
      },
    },
  };
}
