import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { can, type Permission } from '../../src/domain/team/permissions';
import { api, type AccountSummary, type Mode, type SessionState } from './api';
import { Link, navigate } from './router';
import { useT, type DashboardMessageKey } from './i18n';
import { SearchBox } from './SearchBox';
import { useTableCellLabels } from './stacked-tables';

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
  { path: 'analytics', label: 'nav.analytics', permission: 'overview.read' },
  { path: 'payments', label: 'nav.payments', permission: 'payments.read' },
  { path: 'disputes', label: 'nav.disputes', permission: 'payments.read' },
  { path: 'customers', label: 'nav.customers', permission: 'customers.read' },
  { path: 'subscriptions', label: 'nav.subscriptions', permission: 'subscriptions.read' },
  { path: 'invoices', label: 'nav.invoices', permission: 'subscriptions.read' },
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
export function Layout({
  session,
  place,
  onSignedOut,
  children,
}: {
  session: SessionState;
  place: Place | null;
  onSignedOut: () => void;
  children: ReactNode;
}) {
  const t = useT();
  const signOut = async () => {
    await api('POST', '/sign-out');
    onSignedOut();
    navigate('/dashboard/sign-in');
  };
  const here = place ? `/dashboard/${place.account.id}/${place.mode}` : '';
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const main = useRef<HTMLElement>(null);
  useTableCellLabels(main);
  const visible = place ? sections.filter((s) => can(place.account.role, s.permission)) : [];
  const linkOf = (s: (typeof sections)[number]) => `${here}${s.path ? `/${s.path}` : ''}`;
  const isCurrent = (s: (typeof sections)[number]) =>
    !!place &&
    (s.path === '' ? place.rest === '' : place.rest === s.path || (place.rest.startsWith(`${s.path}/`) && !sections.some((o) => o.path === place.rest)));
  const current = visible.find(isCurrent);
  const currentName = current
    ? t(current.label)
    : place?.rest === 'security'
      ? t('layout.security')
      : place?.rest === 'new-account'
        ? t('layout.newAccount')
        : t('layout.navigation');
  // The menu closes when the page changes (a link was followed, or back/forward).
  const rest = place?.rest;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `rest` is the trigger: a new page closes the menu.
  useEffect(() => setMenuOpen(false), [rest]);
  // Opened, focus goes to the current page's link (else the first): the next Tab walks the menu.
  useEffect(() => {
    if (!menuOpen) return;
    const list = document.getElementById('dashboard-nav-links');
    (list?.querySelector<HTMLAnchorElement>('a[aria-current="page"]') ?? list?.querySelector<HTMLAnchorElement>('a'))?.focus();
  }, [menuOpen]);
  /** Escape closes an open menu and gives focus back to its button. */
  const closeOnEscape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !menuOpen) return;
    e.preventDefault();
    setMenuOpen(false);
    menuButton.current?.focus();
  };
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
              {/* biome-ignore lint/a11y/useSemanticElements: a pair of links, not form fields: a fieldset would mislabel it. */}
              <div className="mode-switch" role="group" aria-label={t('layout.mode')}>
                {(['test', 'live'] as const).map((mode) => (
                  <Link
                    key={mode}
                    href={`/dashboard/${place.account.id}/${mode}${/^(payments|sessions|customers|subscriptions|invoices)\//.test(place.rest) ? `/${place.rest.split('/')[0]}` : place.rest ? `/${place.rest}` : ''}`}
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
          <span className="user" title={session.user?.email}>
            {session.user?.email}
          </span>
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
          <nav aria-label={t('layout.navigation')} className={menuOpen ? 'nav-open' : undefined} onKeyDown={closeOnEscape}>
            <button
              type="button"
              ref={menuButton}
              className="menu-button secondary"
              aria-expanded={menuOpen}
              aria-controls="dashboard-nav-links"
              onClick={() => setMenuOpen(!menuOpen)}
            >
              <span aria-hidden="true" className="menu-icon">
                ☰
              </span>{' '}
              <span>{t('layout.menu', { page: currentName })}</span>
            </button>
            <ul id="dashboard-nav-links">
              {visible.map((s) => (
                <li key={s.path}>
                  <Link href={linkOf(s)} aria-current={isCurrent(s) ? 'page' : undefined} onClick={() => setMenuOpen(false)}>
                    {t(s.label)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <main ref={main}>{children}</main>
      </div>
    </div>
  );
}
