import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { json, toApiKey } from '../../rows';

/** API keys: found by the hash of their secret, listed, revoked. */
export function apiKeyRepositories(db: SqlExecutor): Pick<UnitOfWork, 'apiKeys'> {
  return {
    apiKeys: {
      async insert(k) {
        await db.query(
          `INSERT INTO api_keys (id, account_id, mode, kind, prefix, secret_hash, last4, created_at, last_used_at, revoked_at, name, expires_at, permissions)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [
            k.id,
            k.accountId,
            k.mode,
            k.kind,
            k.prefix,
            k.secretHash,
            k.last4,
            k.createdAt,
            k.lastUsedAt,
            k.revokedAt,
            k.name,
            k.expiresAt,
            k.permissions === null ? null : json(k.permissions),
          ],
        );
      },
      async findBySecretHash(hash) {
        const { rows } = await db.query('SELECT * FROM api_keys WHERE secret_hash = $1', [hash]);
        return rows[0] ? toApiKey(rows[0]) : null;
      },
      async markUsed(id, at) {
        await db.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, at]);
      },
      async list(scope) {
        const { rows } = await db.query('SELECT * FROM api_keys WHERE account_id = $1 AND mode = $2 ORDER BY created_at DESC, id DESC', [
          scope.accountId,
          scope.mode,
        ]);
        return rows.map(toApiKey);
      },
      async get(scope, id) {
        const { rows } = await db.query('SELECT * FROM api_keys WHERE id = $1 AND account_id = $2 AND mode = $3', [id, scope.accountId, scope.mode]);
        return rows[0] ? toApiKey(rows[0]) : null;
      },
      async rename(scope, id, name) {
        const { rowCount } = await db.query('UPDATE api_keys SET name = $4 WHERE id = $1 AND account_id = $2 AND mode = $3 AND revoked_at IS NULL', [
          id,
          scope.accountId,
          scope.mode,
          name,
        ]);
        return rowCount === 1;
      },
      async setPermissions(scope, id, permissions) {
        const { rowCount } = await db.query(
          `UPDATE api_keys SET permissions = $4 WHERE id = $1 AND account_id = $2 AND mode = $3 AND kind = 'restricted' AND revoked_at IS NULL`,
          [id, scope.accountId, scope.mode, json(permissions)],
        );
        return rowCount === 1;
      },
      async expire(scope, id, at) {
        // An earlier expiry already set is kept: rolling again never lengthens an old key's life.
        const { rowCount } = await db.query(
          `UPDATE api_keys SET expires_at = CASE WHEN expires_at IS NOT NULL AND expires_at < $4 THEN expires_at ELSE $4 END
           WHERE id = $1 AND account_id = $2 AND mode = $3 AND revoked_at IS NULL`,
          [id, scope.accountId, scope.mode, at],
        );
        return rowCount === 1;
      },
      async revoke(scope, id, at) {
        const { rowCount } = await db.query('UPDATE api_keys SET revoked_at = $4 WHERE id = $1 AND account_id = $2 AND mode = $3 AND revoked_at IS NULL', [
          id,
          scope.accountId,
          scope.mode,
          at,
        ]);
        return rowCount === 1;
      },
    },
  };
}
