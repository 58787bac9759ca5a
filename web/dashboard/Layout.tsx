import type { ReactNode } from 'react';
import { can, type Permission } from '../../src/domain/team/permissions';
import { api, type AccountSummary, type Mode, type SessionState } from './api';
import { Link, navigate } from './router';
import { useT, type DashboardMessageKey } from './i18n';
import { SearchBox } from './SearchBox';

/** Where the merchant is: which account, which mode, which page. */
export interface Place {
  account: AccountSummary;
  mode: Mode;
  rest: string;
}

/** What every page receives: the API path prefix of its account and mode, and where it is. */
export interface PageScope {
  base: string;
  place: Place;
}

const sections: Array<{ path: string; label: DashboardMessageKey; permission: Permission }> = [
  { path: '', label: 'nav.overview', permission: 'overview.read' },
  { path: 'payments', label: 'nav.payments', permission: 'payments.read' },
  { path: 'disputes', label: 'nav.disputes', permission: 'payments.read' },
  { path: 'customers', label: 'nav.customers', permission: 'customers.read' },
  { path: 'sessions', label: 'nav.sessions', permission: 'sessions.read' },
  { path: 'links', label: 'nav.links', permission: 'payment_links.read' },
  { path: 'developers', label: 'nav.developers', permission: 'keys.read' },
  { path: 'webhooks', label: 'nav.webhooks', permission: 'webhooks.read' },
  { path: 'settings', label: 'nav.settings', permission: 'settings.read' },
  { path: 'settings/page-security', label: 'nav.pageSecurity', permission: 'settings.read' },
  { path: 'processor', label: 'nav.processor', permission: 'processor.manage' },
  { path: 'flags', label: 'nav.flags', permission: 'flags.read' },
  { path: 'team', label: 'nav.team', permission: 'team.read' },
  { path: 'audit', label: 'nav.audit', permission: 'audit.read' },
];

/** Frame of every signed-in page: account switcher, test/live switch, navigation, sign-out. */
export function Layout({ session, place, onSignedOut, children }: { session: SessionState; place: Place | null; onSignedOut: () => void; children: ReactNode }) {
  const t = useT();
  const signOut = async () => {
    await api('POST', '/sign-out');
    onSignedOut();
    navigate('/dashboard/sign-in');
  };
  const here = place ? `/dashboard/${place.account.id}/${place.mode}` : '';
  return (
    <div className="shell" data-app="tillpoint-dashboard" data-mode={place?.mode}>
      <header>
        <div className="topbar">
        <span className="brand">{t('layout.brand')}</span>
        {place && (
          <>
            <label className="account-switch">
              <span className="visually-hidden">{t('layout.account')}</span>
              <select value={place.account.id} onChange={(e) => navigate(`/dashboard/${e.target.value}/${place.mode}`)}>
                {session.accounts.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name} ({a.role})
                  </option>
                ))}
              </select>
            </label>
            <div className="mode-switch" role="group" aria-label={t('layout.mode')}>
              {(['test', 'live'] as const).map((mode) => (
                <Link
                  key={mode}
                  href={`/dashboard/${place.account.id}/${mode}${place.rest.startsWith('payments/') || place.rest.startsWith('sessions/') || place.rest.startsWith('customers/') ? `/${place.rest.split('/')[0]}` : place.rest ? `/${place.rest}` : ''}`}
                  aria-current={place.mode === mode ? 'true' : undefined}
                  className={place.mode === mode ? 'active' : undefined}
                >
                  {mode === 'test' ? t('layout.testMode') : t('layout.liveMode')}
                </Link>
              ))}
            </div>
          </>
        )}
        {place && <SearchBox key={here} here={here} />}
        <span className="user">{session.user?.email}</span>
        {place && (
          <>
            <Link href={`${here}/security`} aria-current={place.rest === 'security' ? 'page' : undefined}>
              {t('layout.security')}
            </Link>
            {session.accounts.some((a) => a.role === 'owner') && (
              <Link href={`${here}/new-account`} aria-current={place.rest === 'new-account' ? 'page' : undefined}>
                {t('layout.newAccount')}
              </Link>
            )}
          </>
        )}
        <button type="button" className="link-button" onClick={signOut}>
          {t('layout.signOut')}
        </button>
        </div>
        {place?.mode === 'test' && (
          <p className="test-banner" role="note">
            {t('layout.testBanner')}
          </p>
        )}
      </header>
      <div className="body">
        {place && (
          <nav aria-label={t('layout.navigation')}>
            <ul>
              {sections
                .filter((s) => can(place.account.role, s.permission))
                .map((s) => {
                  const href = `${here}${s.path ? `/${s.path}` : ''}`;
                  const current =
                    s.path === '' ? place.rest === '' : place.rest === s.path || (place.rest.startsWith(`${s.path}/`) && !sections.some((o) => o.path === place.rest));
                  return (
                    <li key={s.path}>
                      <Link href={href} aria-current={current ? 'page' : undefined}>
                        {t(s.label)}
                      </Link>
                    </li>
                  );
                })}
            </ul>
          </nav>
        )}
        <main>{children}</main>
      </div>
    </div>
  );
}
