import { readdirSync, readFileSync } from 'node:fs';
import type { SqlClient } from '../sql-client';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const folder = new URL('./', import.meta.url);

/**
 * The one set of migrations, for PGlite and PostgreSQL alike: each a file of this folder named
 * `<version>-<name>.sql`, applied in version order. Append only: a shipped migration is never edited.
 */
export const migrations: Migration[] = readdirSync(folder)
  .filter((file) => /^\d{4}-[a-z0-9-]+\.sql$/.test(file))
  .sort()
  .map((file) => ({ version: Number(file.slice(0, 4)), name: file.slice(5, -4), sql: readFileSync(new URL(file, folder), 'utf8') }));

/** Applies the migrations not yet applied. Safe to run from several instances at once. */
export async function migrate(db: SqlClient): Promise<number[]> {
  return db.transaction(async (tx) => {
    // A migration may rewrite a large table, and may wait for another instance's: neither is a
    // request's statement, so neither is cut short by the connection's timeouts.
    await tx.query("SELECT set_config('lock_timeout', '0', true), set_config('statement_timeout', '0', true)");
    // One migrator at a time across every instance; the lock ends with the transaction.
    await tx.query('SELECT pg_advisory_xact_lock(727274)');
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => Number(row.version)));
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      // Whole, as written: PostgreSQL's simple query protocol (and PGlite's exec) runs a script of
      // several statements, plpgsql bodies included.
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      done.push(migration.version);
    }
    return done;
  });
}
