import { BackgroundWork } from '../domain/shared/background-work';
import { DEFAULT_RATE_LIMITS } from '../domain/api-guards/rules';
import { googleAddressFormats } from '../adapters/addresses/google-address-data';
import type { Mode } from '../domain/shared/events';
import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../domain/deps';
import { useSha256Hex } from '../domain/shared/digest';
import { openServerFlags, storeEvaluation, type ReadFlagState } from '../adapters/flags/server-flags';
import { migrate } from '../persistence/migrations/index';
import { COMMAND_SHARED_BUFFERS, DEFAULT_DATABASE_TIMEOUTS, openPglite, openPostgres, type SqlClient } from '../persistence/sql-client';
import { sqlStore } from '../persistence/sql-store';
import { watchReplicas, type ReplicaSet } from '../persistence/replicas';
import { installSecret } from '../persistence/stores/install-settings';
import { sqlSandboxNonceVault } from '../persistence/stores/processors/sandbox-nonces';
import { sqlIdempotencyRecords, sqlRateLimitCounter } from '../persistence/stores/api-guards/idempotency-and-rate-limits';
import { apiKeyChangeFeed } from '../persistence/notifications';
import { ApiKeyCache } from '../domain/api-guards/api-key-cache';
import { RateLimitLeases } from '../domain/api-guards/rate-limit-leases';
import { webhookUrlPolicy } from '../adapters/webhooks/address-policy';
import {
  DEFAULT_TEST_LOCAL_PAYMENT_DELAY_SECONDS,
  DEFAULT_TEST_ACH_SETTLE_DELAY_SECONDS,
  SandboxProcessor,
} from '../adapters/processors/sandbox/sandbox-processor';
import { withSandboxLatency } from '../adapters/processors/sandbox/sandbox-latency';
import { sqlSandboxTransactionLedger } from '../persistence/stores/processors/sandbox-transactions';
import { sqlSandboxDisputeLedger } from '../persistence/stores/processors/sandbox-disputes';
import { sqlSandboxLocalPaymentLedger } from '../persistence/stores/processors/sandbox-local-payments';
import { sqlSandboxBankDebitLedger } from '../persistence/stores/processors/sandbox-bank-debits';
import type { ProcessorSettingsDeps } from '../domain/processors/processor-config';
import { processorDirectory } from '../adapters/processors/processor-directory';
import { CredentialCipher } from '../persistence/credential-cipher';
import { sqlProcessorConfigStore } from '../persistence/stores/processors/processor-configs';
import { BraintreeProcessor, braintreeConnectionCheck, type BraintreeOptions } from '../adapters/processors/braintree/braintree-processor';
import { argon2PasswordHasher } from '../adapters/team/argon2-password-hasher';
import { totpCodes } from '../adapters/team/totp-codes';
import { smtpMailer } from '../adapters/team/smtp-mailer';
import { withAuthorizeDeadline } from './processor-deadline';
import { PROCESSOR_CALL_DEADLINE_MS } from '../domain/payments/rules';
import type { Config } from './config';
import { observeStore, type StoreObserver } from './observed-store';
import type { ReconciliationTimings } from '../domain/payments/ports';

export interface Tillpoint {
  deps: Deps;
  db: SqlClient;
  /** The read replicas and how far behind each is (DATABASE_REPLICA_URL); undefined without any. */
  replicas?: ReplicaSet;
  /** For the processor-settings use cases (`tillpoint processor …`). */
  processorSettings: ProcessorSettingsDeps;
  close(): Promise<void>;
}

/**
 * Opens the database named by the configuration: PostgreSQL when DATABASE_URL is set (through a
 * transaction pooler when DATABASE_DIRECT_URL is set too), else PGlite.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databaseTimeouts' | 'databaseDirectUrl'>>,
  options: {
    onIdleError?: (error: Error) => void;
    onWarning?: (message: string) => void;
    /** For a one-shot command: the embedded database starts with a command's small buffer pool. */
    forCommand?: boolean;
  } = {},
): Promise<SqlClient> {
  const timeouts = config.databaseTimeouts ?? DEFAULT_DATABASE_TIMEOUTS;
  const { forCommand, ...postgresOptions } = options;
  if (!config.databaseUrl) return openPglite(config.dataDir, timeouts, forCommand ? { sharedBuffers: COMMAND_SHARED_BUFFERS } : {});
  return openPostgres(config.databaseUrl, { ...postgresOptions, timeouts, ...(config.databaseDirectUrl ? { directUrl: config.databaseDirectUrl } : {}) });
}

/**
 * The read replicas named by DATABASE_REPLICA_URL, behind the same pooler as the primary when
 * DATABASE_DIRECT_URL is set. Not connected yet: a replica down at start-up is skipped until it
 * answers (replicas.ts).
 */
export async function openReplicaDatabases(
  config: Pick<Config, 'databaseReplicaUrls'> & Partial<Pick<Config, 'databaseTimeouts' | 'databaseDirectUrl'>>,
  options: { onIdleError?: (error: Error) => void } = {},
): Promise<SqlClient[]> {
  const timeouts = config.databaseTimeouts ?? DEFAULT_DATABASE_TIMEOUTS;
  return Promise.all(
    config.databaseReplicaUrls.map((url) => openPostgres(url, { ...options, timeouts, probe: false, transactionPooler: Boolean(config.databaseDirectUrl) })),
  );
}

// Node's synchronous SHA-256 for the domain's digests (every API call hashes its key).
useSha256Hex((text) => createHash('sha256').update(text).digest('hex'));

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
  /** TEST_PROCESSOR_LOCAL_PAYMENT_DELAY_SECONDS; 3 by default: a test local payment's bank confirms it this long after its approval. */
  testLocalPaymentDelaySeconds?: number;
  /** TEST_PROCESSOR_ACH_SETTLE_DELAY_SECONDS; 5 by default: a test bank debit settles this long after its sale (and a returned one comes back as long after). */
  testAchSettleDelaySeconds?: number;
  /** SANDBOX_LATENCY_MS; 0 (the default): the test processor answers at once. */
  testProcessorLatencyMs?: number;
  /** RATE_LIMIT_TEST_PER_SECOND / RATE_LIMIT_LIVE_PER_SECOND; design.md §9's 25 and 100 by default. */
  rateLimitPerSecond?: Partial<Record<Mode, number>>;
  /** TILLPOINT_SECRET_KEY: encrypts processor credentials; without it none can be stored. */
  secretKey?: Buffer | null;
  braintree?: BraintreeOptions;
  /** FLAGS_OFREP_URL: read flags from this OFREP service instead of our own store. */
  flagsOfrepUrl?: string | null;
  /** Told what each committed transaction wrote (the server's metrics). */
  observer?: StoreObserver;
  /** RECONCILE_AFTER_SECONDS / RECONCILE_NOT_FOUND_GRACE_SECONDS; 60 s and 10 min by default. */
  reconciliation?: ReconciliationTimings;
  /** Told when the connection that hears of API key changes (PostgreSQL) fails; it reconnects by itself. */
  onKeyFeedError?: (error: Error) => void;
  /** SIGNUP; `invite` (closed) by default. */
  signUp?: 'open' | 'invite';
  /** SMTP_URL and SMTP_FROM; no email without them. */
  smtp?: { url: string; from: string } | null;
  /** Told when an email could not be sent. */
  onMailError?: (error: Error) => void;
  /** DATABASE_REPLICA_URL's replicas (`openReplicaDatabases`) and DATABASE_REPLICA_MAX_LAG_MS; closed with the rest. */
  replicas?: { databases: SqlClient[]; maxLagMs: number; checkEveryMs?: number; onError?: (error: Error) => void };
}): Promise<Tillpoint> {
  const { db } = options;
  await migrate(db);
  const now = options.now ?? (() => new Date());
  const fingerprintKey = await installSecret(db, 'card_fingerprint_key', () => randomBytes(32).toString('hex'));
  const sandboxDisputes = sqlSandboxDisputeLedger(db);
  const sandbox = new SandboxProcessor(
    sqlSandboxNonceVault(db),
    fingerprintKey,
    now,
    sqlSandboxTransactionLedger(db),
    {
      delayMs: (options.testSettlementDelaySeconds ?? 0) * 1000,
    },
    sandboxDisputes,
    { ledger: sqlSandboxLocalPaymentLedger(db), delayMs: (options.testLocalPaymentDelaySeconds ?? DEFAULT_TEST_LOCAL_PAYMENT_DELAY_SECONDS) * 1000 },
    { ledger: sqlSandboxBankDebitLedger(db), settleDelayMs: (options.testAchSettleDelaySeconds ?? DEFAULT_TEST_ACH_SETTLE_DELAY_SECONDS) * 1000 },
  );
  const testProcessor = withAuthorizeDeadline(withSandboxLatency(sandbox, options.testProcessorLatencyMs ?? 0), PROCESSOR_CALL_DEADLINE_MS);
  const processorConfigs = sqlProcessorConfigStore(db, options.secretKey ? new CredentialCipher(options.secretKey) : null);
  const processors = processorDirectory({
    configs: processorConfigs,
    test: testProcessor,
    braintree: (settings) => withAuthorizeDeadline(new BraintreeProcessor(settings, options.braintree), PROCESSOR_CALL_DEADLINE_MS),
    sandboxDisputes,
    testLocalPaymentReports: () => sandbox.dueLocalPaymentReports(),
    testBankDebitReports: () => sandbox.dueBankDebitReports(),
    now,
  });
  const replicas =
    options.replicas && options.replicas.databases.length > 0
      ? watchReplicas(db, options.replicas.databases, {
          maxLagMs: options.replicas.maxLagMs,
          ...(options.replicas.checkEveryMs ? { checkEveryMs: options.replicas.checkEveryMs } : {}),
          ...(options.replicas.onError ? { onError: options.replicas.onError } : {}),
        })
      : undefined;
  const sql = sqlStore(db, replicas);
  const store = options.observer ? observeStore(sql, options.observer) : sql;
  const readFlagState: ReadFlagState = (scope, keys) => store.read((reader) => reader.flags.listWithRunningExperiments(scope, keys));
  const flags = openServerFlags({ ofrepUrl: options.flagsOfrepUrl ?? null, evaluate: storeEvaluation(readFlagState), readState: readFlagState });
  // This instance's API keys and rate-limit leases: most merchant API calls need no statement of
  // their own for either. Key changes reach the cache from the database's notifications.
  const keyChanges = apiKeyChangeFeed(db, { onError: options.onKeyFeedError });
  const apiKeyCache = new ApiKeyCache(keyChanges);
  await keyChanges.open();
  const deps: Deps = {
    store,
    processors,
    clock: { now },
    passwords: argon2PasswordHasher,
    publicUrl: options.publicUrl,
    idempotency: sqlIdempotencyRecords(db),
    rateLimits: sqlRateLimitCounter(db),
    apiKeyCache,
    rateLimitLeases: new RateLimitLeases(),
    rateLimitPerSecond: { ...DEFAULT_RATE_LIMITS, ...options.rateLimitPerSecond },
    webhookUrls: webhookUrlPolicy(),
    flags,
    addressFormats: googleAddressFormats(),
    access: {
      signUp: options.signUp ?? 'invite',
      secondFactorCodes: totpCodes,
      mailer: options.smtp ? smtpMailer({ ...options.smtp, onError: options.onMailError }) : null,
    },
    background: new BackgroundWork(),
    ...(options.reconciliation ? { reconciliation: options.reconciliation } : {}),
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
    ...(replicas ? { replicas } : {}),
    processorSettings,
    close: async () => {
      await flags.close();
      await keyChanges.close();
      await replicas?.close();
      await db.close();
    },
  };
}
