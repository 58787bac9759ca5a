import type { ProcessorConfig, ProcessorConfigStore } from '../../../domain/processors/processor-config';
import type { CredentialCipher } from '../../credential-cipher';
import type { SqlClient } from '../../sql-client';
import { auditLogRepositories } from '../team/audit-log';
import type { Scope } from '../../../domain/shared/scope';
import { recordSet, toSession, type Row } from '../../rows';
import { runShared, type SharedStatement } from '../../shared-statement';
import type { CheckoutSession } from '../../../domain/sessions/entities';
import type { FlagState } from '../../../domain/flags/ports';
import { toExperiment, toFlag } from '../flags/flags';
import { builtInFlagKeys } from '../../../domain/flags/flag-evaluation';

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
  /**
   * A checkout session (as `checkoutSessions.get` reads it) and its scope's config, in one
   * statement; the config is opened when asked for (it may throw as `get` does). With flags, the
   * scope's flags and running experiments on the keys paying evaluates (`FlagState.keys`). Null:
   * no session.
   */
  sessionWithConfig(
    sessionId: string,
    options?: { withFlags?: boolean },
  ): Promise<{ session: CheckoutSession; config: (() => ProcessorConfig) | null; flags?: FlagState } | null>;
}

/**
 * The flags paying evaluates: the built-in ones (kill switches, 3-D Secure), never the merchant's
 * custom flags, so a scope with many of those pays as fast as one with none. Our own constants,
 * written into the SQL as a literal.
 */
const payingFlagKeys = `'{${builtInFlagKeys.join(',')}}'::text[]`;

/**
 * The scope's flags and running experiments on the keys paying evaluates, as two JSON arrays of
 * rows (null for none), for the session `s`. In no particular order: evaluation looks them up by
 * key (one of each per key); no ORDER BY and no coalesce: each added measurably to the statement's
 * cost.
 */
const flagColumns = `,
  (SELECT json_agg(f) FROM flags f WHERE f.account_id = s.account_id AND f.mode = s.mode AND f.key = ANY (${payingFlagKeys})) AS scope_flags,
  (SELECT json_agg(x) FROM experiments x
    WHERE x.account_id = s.account_id AND x.mode = s.mode AND x.status = 'running' AND x.key = ANY (${payingFlagKeys})) AS scope_running_experiments`;

/**
 * Sessions, each with its scope's config (its columns under a `config_` prefix) and, with flags,
 * its scope's flags and running experiments that paying evaluates, read for many payments at
 * once (shared-statement.ts; a read takes no lock, so it is the same alone). A member whose session
 * does not exist gets a row of nulls.
 */
function sessionWithConfigStatement(flags: boolean): SharedStatement<string, Row | null> {
  const sql = `WITH m AS MATERIALIZED (${recordSet([['id', 'text']])})
    SELECT m.n, s.*, c.account_id AS config_account_id, c.mode AS config_mode, c.processor AS config_processor,
              c.settings AS config_settings, c.private_key_sealed AS config_private_key_sealed, c.updated_at AS config_updated_at${flags ? flagColumns : ''}
         FROM m LEFT JOIN checkout_sessions s ON s.id = m.id AND s.id = ANY (ARRAY(SELECT id FROM m))
         LEFT JOIN processor_configs c ON c.account_id = s.account_id AND c.mode = s.mode`;
  return {
    shared: sql,
    alone: sql,
    key: (id) => id,
    member: (id) => JSON.stringify(id),
    answer: (row) => (row.id === null ? null : row),
  };
}

/** Processor configs in SQL; the private key is sealed with `cipher` (null: none can be stored). */
export function sqlProcessorConfigStore(db: SqlClient, cipher: CredentialCipher | null): SqlProcessorConfigStore {
  const withFlags = sessionWithConfigStatement(true);
  const bare = sessionWithConfigStatement(false);
  return {
    canStoreSecrets: cipher !== null,
    async get(scope) {
      const { rows } = await db.query<Row>('SELECT * FROM processor_configs WHERE account_id = $1 AND mode = $2', [scope.accountId, scope.mode]);
      return rows[0] ? configOf(rows[0], cipher) : null;
    },
    async scopesOf(processor) {
      const { rows } = await db.query<Row>('SELECT account_id, mode FROM processor_configs WHERE processor = $1 ORDER BY account_id, mode', [processor]);
      return rows.map((row) => ({ accountId: row.account_id, mode: row.mode }));
    },
    async sessionWithConfig(sessionId, options = {}) {
      const row = await runShared(db, options.withFlags ? withFlags : bare, sessionId);
      if (!row) return null;
      const config =
        row.config_account_id === null
          ? null
          : {
              account_id: row.config_account_id,
              mode: row.config_mode,
              processor: row.config_processor,
              settings: row.config_settings,
              private_key_sealed: row.config_private_key_sealed,
              updated_at: row.config_updated_at,
            };
      const found = { session: toSession(row), config: config && (() => configOf(config, cipher)) };
      if (!options.withFlags) return found;
      const flags: FlagState = {
        stored: ((row.scope_flags ?? []) as Row[]).map(toFlag),
        running: ((row.scope_running_experiments ?? []) as Row[]).map(toExperiment),
        keys: builtInFlagKeys,
      };
      return { ...found, flags };
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
