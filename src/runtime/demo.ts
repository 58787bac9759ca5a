import type { Deps } from '../domain/deps';
import { createAccount } from '../domain/team/use-cases/create-account';
import { createPaymentLink } from '../domain/sessions/use-cases/create-payment-link';
import { createSetupLink } from '../domain/team/use-cases/create-setup-link';
import type { SqlClient } from '../persistence/sql-client';

const DEMO_LINK_SETTING = 'demo_payment_link_slug';
const DEMO_ACCOUNT_SETTING = 'demo_account_id';

export interface DemoAnnouncement {
  /**
   * Set only on the start that created the demo account: its key is never readable again, and the
   * setup link that makes its first owner is printed once (`tillpoint setup-link` makes another).
   */
  created: { accountId: string; testSecretKey: string; setupUrl: string } | null;
  checkoutUrl: string | null;
}

/**
 * On first start with an empty database, creates a demo account with a payment link so a newcomer
 * can pay something at once. Later starts only look the link up again.
 */
export async function ensureDemo(deps: Deps, db: SqlClient): Promise<DemoAnnouncement> {
  const linkUrl = (slug: string) => `${deps.publicUrl}/l/${slug}`;
  const existing = await db.query<{ value: string }>('SELECT value FROM install_settings WHERE key = $1', [DEMO_LINK_SETTING]);
  if (existing.rows[0]) return { created: null, checkoutUrl: linkUrl(existing.rows[0].value) };
  if ((await deps.store.read((reader) => reader.accounts.count())) > 0) return { created: null, checkoutUrl: null };

  const { account, testSecretKey } = await createAccount(deps, { name: 'Demo Coffee Roasters' });
  const link = await createPaymentLink(deps, {
    scope: { accountId: account.id, mode: 'test' },
    actor: null,
    currency: 'USD',
    lineItems: [
      { name: 'Single-origin beans, 250 g', unitAmount: 1450, quantity: 2 },
      { name: 'Pour-over filter papers', unitAmount: 600, quantity: 1 },
    ],
  });
  await db.query('INSERT INTO install_settings (key, value) VALUES ($1, $2), ($3, $4) ON CONFLICT (key) DO NOTHING', [
    DEMO_LINK_SETTING,
    link.slug,
    DEMO_ACCOUNT_SETTING,
    account.id,
  ]);
  const setup = await createSetupLink(deps, { accountId: account.id });
  return { created: { accountId: account.id, testSecretKey, setupUrl: setup.url }, checkoutUrl: linkUrl(link.slug) };
}

/**
 * The account a setup link claims when none is named: the demo account of the first start; on an
 * install that never had one (or from before it was recorded), its only account.
 */
export async function defaultSetupAccount(db: SqlClient): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT value AS id FROM install_settings WHERE key = $1
     UNION ALL SELECT account_id FROM payment_links WHERE slug = (SELECT value FROM install_settings WHERE key = $2)`,
    [DEMO_ACCOUNT_SETTING, DEMO_LINK_SETTING],
  );
  if (rows[0]) return rows[0].id;
  const only = await db.query<{ id: string }>('SELECT id FROM accounts ORDER BY created_at LIMIT 2');
  return only.rows.length === 1 ? only.rows[0]!.id : null;
}
