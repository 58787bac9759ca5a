import type { SqlClient } from '../sql-client';

/** A per-install secret (created once, shared by every instance through the database). */
export async function installSecret(db: SqlClient, key: string, create: () => string): Promise<string> {
  await db.query('INSERT INTO install_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, create()]);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM install_settings WHERE key = $1', [key]);
  return rows[0]!.value;
}
