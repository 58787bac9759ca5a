import type { ReactNode } from 'react';
import { can, type Permission } from '../../src/domain/permissions';
import { api, type AccountSummary, type Mode, type SessionState } from './api';
import { Link, navigate } from './router';

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

const sections: Array<{ path: string; label: string; permission: Permission }> = [
  { path: '', label: 'Overview', permission: 'overview.read' },
  { path: 'payments', label: 'Payments', permission: 'payments.read' },
  { path: 'sessions', label: 'Checkout sessions', permission: 'sessions.read' },
  { path: 'links', label: 'Payment links', permission: 'payment_links.read' },
  { path: 'developers', label: 'Developers', permission: 'keys.read' },
  { path: 'webhooks', label: 'Webhooks', permission: 'webhooks.read' },
  { path: 'settings', label: 'Settings', permission: 'settings.read' },
  { path: 'processor', label: 'Processor', permission: 'processor.manage' },
  { path: 'flags', label: 'Flags and experiments', permission: 'flags.read' },
  { path: 'team', label: 'Team', permission: 'team.read' },
  { path: 'audit', label: 'Audit log', permission: 'audit.read' },
];

/** Frame of every signed-in page: account switcher, test/live switch, navigation, sign-out. */
export function Layout({ session, place, onSignedOut, children }: { session: SessionState; place: Place | null; onSignedOut: () => void; children: ReactNode }) {
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
        <span className="brand">Tillpoint</span>
        {place && (
          <>
            <label className="account-switch">
              <span className="visually-hidden">Account</span>
              <select value={place.account.id} onChange={(e) => navigate(`/dashboard/${e.target.value}/${place.mode}`)}>
                {session.accounts.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name} ({a.role})
                  </option>
                ))}
              </select>
            </label>
            <div className="mode-switch" role="group" aria-label="Mode">
              {(['test', 'live'] as const).map((mode) => (
                <Link
                  key={mode}
                  href={`/dashboard/${place.account.id}/${mode}${place.rest.startsWith('payments/') || place.rest.startsWith('sessions/') ? `/${place.rest.split('/')[0]}` : place.rest ? `/${place.rest}` : ''}`}
                  aria-current={place.mode === mode ? 'true' : undefined}
                  className={place.mode === mode ? 'active' : undefined}
                >
                  {mode === 'test' ? 'Test mode' : 'Live mode'}
                </Link>
              ))}
            </div>
          </>
        )}
        <span className="user">{session.user?.email}</span>
        <button type="button" className="link-button" onClick={signOut}>
          Sign out
        </button>
        </div>
        {place?.mode === 'test' && (
          <p className="test-banner" role="note">
            Test mode: you are looking at test data. Nothing here is a real charge.
          </p>
        )}
      </header>
      <div className="body">
        {place && (
          <nav aria-label="Dashboard">
            <ul>
              {sections
                .filter((s) => can(place.account.role, s.permission))
                .map((s) => {
                  const href = `${here}${s.path ? `/${s.path}` : ''}`;
                  const current = s.path === '' ? place.rest === '' : place.rest === s.path || place.rest.startsWith(`${s.path}/`);
                  return (
                    <li key={s.path}>
                      <Link href={href} aria-current={current ? 'page' : undefined}>
                        {s.label}
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
