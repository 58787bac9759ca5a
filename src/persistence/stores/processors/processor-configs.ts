import type { ProcessorConfig, ProcessorConfigStore } from '../../../domain/processors/processor-config';
import type { CredentialCipher } from '../../credential-cipher';
import type { SqlClient } from '../../sql-client';
import { auditLogRepositories } from '../team/audit-log';
import type { Scope } from '../../../domain/shared/scope';
import type { Row } from '../../rows';

const context = (scope: Scope) => `processor_config:${scope.accountId}:${scope.mode}`;

/** Processor configs in SQL; the private key is sealed with `cipher` (null: none can be stored). */
export function sqlProcessorConfigStore(db: SqlClient, cipher: CredentialCipher | null): ProcessorConfigStore {
  return {
    canStoreSecrets: cipher !== null,
    async get(scope) {
      const { rows } = await db.query<Row>('SELECT * FROM processor_configs WHERE account_id = $1 AND mode = $2', [
        scope.accountId,
        scope.mode,
      ]);
      const row = rows[0];
      if (!row) return null;
      const base = { accountId: row.account_id, mode: row.mode, updatedAt: new Date(row.updated_at) };
      if (row.processor === 'test') return { ...base, processor: 'test' };
      if (!cipher) throw new Error('Braintree credentials are stored, but TILLPOINT_SECRET_KEY is not set: they cannot be read');
      const settings = row.settings;
      return {
        ...base,
        processor: 'braintree',
        braintree: {
          environment: settings.environment,
          merchantId: settings.merchant_id,
          publicKey: settings.public_key,
          privateKey: cipher.open(row.private_key_sealed, context(scope)),
          merchantAccounts: settings.merchant_accounts ?? {},
          googlePayMerchantId: settings.google_pay_merchant_id ?? null,
          requireThreeDSecure: Boolean(settings.require_three_d_secure),
        },
      };
    },
    async save(config: ProcessorConfig, audit) {
      let settings: Record<string, unknown> = {};
      let sealed: string | null = null;
      if (config.processor === 'braintree') {
        if (!cipher) throw new Error('no encryption key is configured for processor credentials');
        const b = config.braintree;
        settings = {
          environment: b.environment,
          merchant_id: b.merchantId,
          public_key: b.publicKey,
          merchant_accounts: b.merchantAccounts,
          google_pay_merchant_id: b.googlePayMerchantId,
          require_three_d_secure: b.requireThreeDSecure,
        };
        sealed = cipher.seal(b.privateKey, context(config));
      }
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO processor_configs (account_id, mode, processor, settings, private_key_sealed, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (account_id, mode) DO UPDATE
             SET processor = EXCLUDED.processor, settings = EXCLUDED.settings,
                 private_key_sealed = EXCLUDED.private_key_sealed, updated_at = EXCLUDED.updated_at`,
          [config.accountId, config.mode, config.processor, JSON.stringify(settings), sealed, config.updatedAt],
        );
        if (audit) await auditLogRepositories(tx).auditLog.insert(audit);
      });
    },
  };
}
