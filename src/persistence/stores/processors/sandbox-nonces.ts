import type { SandboxNonceRecord, SandboxNonceVault } from '../../../domain/processors/sandbox-ports';
import type { SqlClient } from '../../sql-client';
import { json, type Row } from '../../rows';

/** The test processor's nonces, in the shared database so any instance can redeem them. */
export function sqlSandboxNonceVault(db: SqlClient): SandboxNonceVault {
  return {
    async save(record: SandboxNonceRecord) {
      await db.query('INSERT INTO test_card_nonces (nonce, payment_method, behavior, created_at, three_d_secure) VALUES ($1, $2, $3, $4, $5)', [
        record.nonce,
        json(record.paymentMethod),
        record.behavior,
        record.createdAt,
        record.threeDSecure ? json(record.threeDSecure) : null,
      ]);
    },
    async take(nonce, at) {
      // Single use, like a Braintree nonce: the UPDATE claims it atomically; nonces live 3 hours.
      const { rows } = await db.query<Row>(
        `UPDATE test_card_nonces SET used_at = $2
         WHERE nonce = $1 AND used_at IS NULL AND created_at > $2::timestamptz - interval '3 hours'
         RETURNING *`,
        [nonce, at],
      );
      const row = rows[0];
      if (!row) return null;
      return {
        nonce: row.nonce,
        paymentMethod: row.payment_method,
        behavior: row.behavior,
        createdAt: new Date(row.created_at),
        threeDSecure: row.three_d_secure ?? null,
      };
    },
    async saveMethod(record) {
      await db.query('INSERT INTO test_saved_cards (token, customer_id, payment_method, behavior, created_at) VALUES ($1, $2, $3, $4, $5)', [
        record.token,
        record.customerId,
        json(record.paymentMethod),
        record.behavior,
        record.createdAt,
      ]);
    },
    async getMethod(token) {
      const { rows } = await db.query<Row>('SELECT * FROM test_saved_cards WHERE token = $1', [token]);
      const row = rows[0];
      if (!row) return null;
      return { token: row.token, customerId: row.customer_id, paymentMethod: row.payment_method, behavior: row.behavior, createdAt: new Date(row.created_at) };
    },
    async deleteMethod(token) {
      const { rowCount } = await db.query('DELETE FROM test_saved_cards WHERE token = $1', [token]);
      return rowCount === 1;
    },
  };
}
