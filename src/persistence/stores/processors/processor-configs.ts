import type { ProcessorConfig, ProcessorConfigStore } from '../../../domain/processors/processor-config';
import type { CredentialCipher } from '../../credential-cipher';
import type { SqlClient } from '../../sql-client';
import { auditLogRepositories } from '../team/audit-log';
import type { Scope } from '../../../domain/shared/scope';
import { recordSet, type Row } from '../../rows';
import { runShared, type SharedStatement } from '../../shared-statement';

const context = (scope: Scope) => `processor_config:${scope.accountId}:${scope.mode}`;

/** A processor_configs row as the domain's config (the private key opened with `cipher`). */
function configOf(row: Row, cipher: CredentialCipher | null): ProcessorConfig {
  const scope: Scope = { accountId: row.account_id, mode: row.mode };
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
      requireCvvForSavedCards: Boolean(settings.require_cvv_for_saved_cards),
    },
  };
}

export interface SqlProcessorConfigStore extends ProcessorConfigStore {
  /** Every scope whose config is for `processor`. */
  scopesOf(processor: 'test' | 'braintree'): Promise<Scope[]>;
}

/**
 * Scopes' configs, the reads of many scopes made at once in one statement (shared-statement.ts:
 * paying reads its session's config; a read takes no lock). A scope without one gets a row of
 * nulls.
 */
const byScopeSql = `WITH m AS MATERIALIZED (${recordSet([
  ['account_id', 'text'],
  ['mode', 'text'],
])})
   SELECT m.n, c.* FROM m LEFT JOIN processor_configs c ON c.account_id = m.account_id AND c.mode = m.mode`;

const byScope: SharedStatement<Scope, Row | null> = {
  shared: byScopeSql,
  alone: byScopeSql,
  key: (scope) => `${scope.accountId}:${scope.mode}`,
  member: (scope) => JSON.stringify([scope.accountId, scope.mode]).slice(1, -1),
  answer: (row) => (row.account_id === null ? null : row),
  read: true,
};

/** Processor configs in SQL; the private key is sealed with `cipher` (null: none can be stored). */
export function sqlProcessorConfigStore(db: SqlClient, cipher: CredentialCipher | null): SqlProcessorConfigStore {
  return {
    canStoreSecrets: cipher !== null,
    async get(scope) {
      const row = await runShared(db, byScope, { accountId: scope.accountId, mode: scope.mode });
      return row ? configOf(row, cipher) : null;
    },
    async scopesOf(processor) {
      const { rows } = await db.query<Row>('SELECT account_id, mode FROM processor_configs WHERE processor = $1 ORDER BY account_id, mode', [processor]);
      return rows.map((row) => ({ accountId: row.account_id, mode: row.mode }));
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
          require_cvv_for_saved_cards: b.requireCvvForSavedCards,
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
