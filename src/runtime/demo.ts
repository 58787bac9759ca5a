import type { Deps } from '../domain/deps';
import { createAccount } from '../domain/team/use-cases/create-account';
import { createPaymentLink } from '../domain/sessions/use-cases/create-payment-link';
import type { SqlClient } from '../persistence/sql-client';

const DEMO_LINK_SETTING = 'demo_payment_link_slug';

export interface DemoAnnouncement {
  /** Set only on the start that created the demo account: its key is never readable again. */
  created: { accountId: string; testSecretKey: string } | null;
  checkoutUrl: string | null;
}

/**
 * On first start with an empty database, creates a demo account with a payment link so a newcomer
 * can pay something at once. Later starts only look the link up again.
 */
export async function ensureDemo(deps: Deps, db: SqlClient): Promise<DemoAnnouncement> {
  const linkUrl = (slug: string) => `${deps.publicUrl}/l/${slug}`;
  const existing = await db.query<{ value: string }>('SELECT value FROM install_settings WHERE key = $1', [
    DEMO_LINK_SETTING,
  ]);
  if (existing.rows[0]) return { created: null, checkoutUrl: linkUrl(existing.rows[0].value) };
  if ((await deps.store.transaction((tx) => tx.accounts.count())) > 0) return { created: null, checkoutUrl: null };

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
  await db.query('INSERT INTO install_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
    DEMO_LINK_SETTING,
    link.slug,
  ]);
  return { created: { accountId: account.id, testSecretKey }, checkoutUrl: linkUrl(link.slug) };
}
