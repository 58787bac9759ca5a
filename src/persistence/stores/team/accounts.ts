import type { Account } from '../../../domain/team/entities';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { num, type Row } from '../../rows';

function toAccount(row: Row): Account {
  return {
    id: row.id,
    name: row.name,
    defaultCurrency: row.default_currency,
    branding: { displayName: row.display_name, logoUrl: row.logo_url, accentColor: row.accent_color },
    supportEmail: row.support_email,
    sendReceipts: row.send_receipts === true,
    subscriptionFailureAction: row.subscription_failure_action === 'unpaid' ? 'unpaid' : 'cancel',
    embedAllowedOrigins: row.embed_allowed_origins ?? [],
    createdAt: new Date(row.created_at),
  };
}

/** Accounts and their profile (name, branding, support email). */
export function accountRepositories(db: SqlExecutor): Pick<UnitOfWork, 'accounts' | 'accountProfiles'> {
  return {
    accounts: {
      async insert(a) {
        await db.query(
          `INSERT INTO accounts (id, name, default_currency, display_name, logo_url, accent_color, support_email, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [a.id, a.name, a.defaultCurrency, a.branding.displayName, a.branding.logoUrl, a.branding.accentColor, a.supportEmail, a.createdAt],
        );
      },
      async get(id) {
        const { rows } = await db.query('SELECT * FROM accounts WHERE id = $1', [id]);
        return rows[0] ? toAccount(rows[0]) : null;
      },
      async count() {
        const { rows } = await db.query<{ n: unknown }>('SELECT count(*) AS n FROM accounts');
        return num(rows[0]?.n);
      },
      async list() {
        const { rows } = await db.query('SELECT * FROM accounts ORDER BY created_at, id');
        return rows.map(toAccount);
      },
    },
    accountProfiles: {
      async update(a: Account) {
        await db.query<Row>(
          `UPDATE accounts SET name = $2, display_name = $3, logo_url = $4, accent_color = $5, support_email = $6, send_receipts = $7,
             embed_allowed_origins = $8::jsonb, subscription_failure_action = $9 WHERE id = $1`,
          [
            a.id,
            a.name,
            a.branding.displayName,
            a.branding.logoUrl,
            a.branding.accentColor,
            a.supportEmail,
            a.sendReceipts,
            JSON.stringify(a.embedAllowedOrigins ?? []),
            a.subscriptionFailureAction,
          ],
        );
      },
    },
  };
}
