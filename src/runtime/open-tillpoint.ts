import { randomBytes } from 'node:crypto';
import type { Deps, PaymentProcessor, ProcessorDirectory } from '../domain/ports';
import { TillpointError } from '../domain/errors';
import { migrate } from '../persistence/migrations/index';
import { openPglite, openPostgres, type SqlClient } from '../persistence/sql-client';
import { installSecret, sqlStore, sqlTestNonceVault } from '../persistence/sql-store';
import { TestProcessor } from '../processors/test/test-processor';
import { argon2PasswordHasher } from './argon2-password-hasher';
import type { Config } from './config';

export interface Tillpoint {
  deps: Deps;
  db: SqlClient;
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
export async function openTillpoint(options: { db: SqlClient; publicUrl: string; now?: () => Date }): Promise<Tillpoint> {
  const { db } = options;
  await migrate(db);
  const now = options.now ?? (() => new Date());
  const fingerprintKey = await installSecret(db, 'card_fingerprint_key', () => randomBytes(32).toString('hex'));
  const testProcessor = new TestProcessor(sqlTestNonceVault(db), fingerprintKey, now);
  const processors: ProcessorDirectory = {
    async forScope(scope): Promise<PaymentProcessor> {
      // The test processor never serves live mode; live processors arrive with processor settings.
      if (scope.mode === 'test') return testProcessor;
      throw new TillpointError('processor_unavailable', 'No processor is configured for live mode');
    },
  };
  const deps: Deps = {
    store: sqlStore(db),
    processors,
    clock: { now },
    passwords: argon2PasswordHasher,
    publicUrl: options.publicUrl,
  };
  return { deps, db, close: () => db.close() };
}
