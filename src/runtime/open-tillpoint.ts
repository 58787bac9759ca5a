import { DEFAULT_RATE_LIMITS } from '../domain/api-guards';
import type { Mode } from '../domain/events';
import { randomBytes } from 'node:crypto';
import type { Deps, PaymentProcessor, ProcessorDirectory } from '../domain/ports';
import { TillpointError } from '../domain/errors';
import { evaluateFlags } from '../domain/use-cases/evaluate-flags';
import { openServerFlags } from '../flags/server-flags';
import { migrate } from '../persistence/migrations/index';
import { openPglite, openPostgres, type SqlClient } from '../persistence/sql-client';
import { installSecret, sqlStore, sqlTestNonceVault } from '../persistence/sql-store';
import { sqlIdempotencyRecords, sqlRateLimitCounter } from '../persistence/api-guard-store';
import { webhookUrlPolicy } from '../webhooks/address-policy';
import { TestProcessor } from '../processors/test/test-processor';
import { sqlTestTransactionLedger } from '../persistence/sql-test-transactions';
import type { ProcessorSettingsDeps } from '../domain/processor-config';
import { CredentialCipher } from '../persistence/credential-cipher';
import { sqlProcessorConfigStore } from '../persistence/processor-config-store';
import { BraintreeProcessor, braintreeConnectionCheck, type BraintreeOptions } from '../processors/braintree/braintree-processor';
import { argon2PasswordHasher } from './argon2-password-hasher';
import type { Config } from './config';

export interface Tillpoint {
  deps: Deps;
  db: SqlClient;
  /** For the processor-settings use cases (`tillpoint processor …`). */
  processorSettings: ProcessorSettingsDeps;
  close(): Promise<void>;
}

/** Opens the database named by the configuration: PostgreSQL when DATABASE_URL is set, else PGlite. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<SqlClient> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir);
}

/**
 * The composition root: wires the database, the store and the processors into the use cases'
 * dependencies. Migrates first, so every instance starts on the current schema.
 */
export async function openTillpoint(options: {
  db: SqlClient;
  publicUrl: string;
  now?: () => Date;
  /** TEST_PROCESSOR_SETTLEMENT_DELAY_SECONDS; 0 (the default) settles test captures at once. */
  testSettlementDelaySeconds?: number;
  /** RATE_LIMIT_TEST_PER_SECOND / RATE_LIMIT_LIVE_PER_SECOND; DESIGN §9's 25 and 100 by default. */
  rateLimitPerSecond?: Partial<Record<Mode, number>>;
  /** TILLPOINT_SECRET_KEY: encrypts processor credentials; without it none can be stored. */
  secretKey?: Buffer | null;
  braintree?: BraintreeOptions;
  /** FLAGS_OFREP_URL: read flags from this OFREP service instead of our own store. */
  flagsOfrepUrl?: string | null;
}): Promise<Tillpoint> {
  const { db } = options;
  await migrate(db);
  const now = options.now ?? (() => new Date());
  const fingerprintKey = await installSecret(db, 'card_fingerprint_key', () => randomBytes(32).toString('hex'));
  const testProcessor = new TestProcessor(sqlTestNonceVault(db), fingerprintKey, now, sqlTestTransactionLedger(db), {
    delayMs: (options.testSettlementDelaySeconds ?? 0) * 1000,
  });
  const processorConfigs = sqlProcessorConfigStore(db, options.secretKey ? new CredentialCipher(options.secretKey) : null);
  // One SDK gateway per saved config; a new save (new updatedAt) makes a new one.
  const braintreeProcessors = new Map<string, BraintreeProcessor>();
  const processors: ProcessorDirectory = {
    async forScope(scope): Promise<PaymentProcessor> {
      const config = await processorConfigs.get({ accountId: scope.accountId, mode: scope.mode });
      if (config?.processor === 'braintree') {
        const key = `${scope.accountId}:${scope.mode}:${config.updatedAt.getTime()}`;
        let processor = braintreeProcessors.get(key);
        if (!processor) {
          processor = new BraintreeProcessor(config.braintree, options.braintree);
          braintreeProcessors.set(key, processor);
        }
        return processor;
      }
      // The test processor never serves live mode.
      if (scope.mode === 'test') return testProcessor;
      throw new TillpointError('processor_unavailable', 'No processor is configured for live mode');
    },
  };
  const store = sqlStore(db);
  const flags = openServerFlags({
    ofrepUrl: options.flagsOfrepUrl ?? null,
    evaluate: async (scope, key, targetingKey) => (await evaluateFlags(deps, { scope, targetingKey, key }))[0]!,
  });
  const deps: Deps = {
    store,
    processors,
    clock: { now },
    passwords: argon2PasswordHasher,
    publicUrl: options.publicUrl,
    idempotency: sqlIdempotencyRecords(db),
    rateLimits: sqlRateLimitCounter(db),
    rateLimitPerSecond: { ...DEFAULT_RATE_LIMITS, ...options.rateLimitPerSecond },
    webhookUrls: webhookUrlPolicy(),
    flags,
  };
  const processorSettings: ProcessorSettingsDeps = {
    store,
    clock: { now },
    processorConfigs,
    connectionCheck: braintreeConnectionCheck(options.braintree),
  };
  return {
    deps,
    db,
    processorSettings,
    close: async () => {
      await flags.close();
      await db.close();
    },
  };
}
