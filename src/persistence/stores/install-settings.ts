import type { SqlClient } from '../sql-client';

const SERVED_URL = 'served_public_url';

/** Notes the address a starting server is reached at (PUBLIC_URL, or localhost and PORT), for CLI commands run elsewhere. */
export async function recordServedUrl(db: SqlClient, url: string): Promise<void> {
  await db.query('INSERT INTO install_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [SERVED_URL, url]);
}

/** The address the last server started was reached at; null before any server started. */
export async function servedUrl(db: SqlClient): Promise<string | null> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM install_settings WHERE key = $1', [SERVED_URL]);
  return rows[0]?.value ?? null;
}

/** A per-install secret (created once, shared by every instance through the database). */
export async function installSecret(db: SqlClient, key: string, create: () => string): Promise<string> {
  await db.query('INSERT INTO install_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, create()]);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM install_settings WHERE key = $1', [key]);
  return rows[0]!.value;
}
