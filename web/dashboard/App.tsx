import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback } from 'react';
import { api, type DashboardApiError, setCsrfToken, type Mode, type SessionState } from './api';
import { Layout, type Place } from './Layout';
import { AuditLogPage } from './pages/AuditLogPage';
import { DevelopersPage } from './pages/DevelopersPage';
import { InvitePage } from './pages/InvitePage';
import { OverviewPage } from './pages/OverviewPage';
import { AnalyticsPage } from './pages/AnalyticsPage';
import { PaymentDetailPage } from './pages/PaymentDetailPage';
import { PaymentsPage } from './pages/PaymentsPage';
import { DisputeDetailPage, DisputesPage } from './pages/DisputesPage';
import { CustomerDetailPage, CustomersPage } from './pages/CustomersPage';
import { SubscriptionDetailPage, SubscriptionsPage } from './pages/SubscriptionsPage';
import { InvoiceDetailPage, InvoicesPage } from './pages/InvoicesPage';
import { SearchPage } from './pages/SearchPage';
import { SessionDetailPage, SessionsPage } from './pages/SessionsPage';
import { SettingsPage } from './pages/SettingsPage';
import { SignInPage, SignUpPage } from './pages/SignInPage';
import { ForgotPasswordPage, ResetPasswordPage, SetupPage } from './pages/AccessPages';
import { NewAccountPage, SecurityPage } from './pages/SecurityPage';
import { TeamPage } from './pages/TeamPage';
import { FlagsPage } from './pages/FlagsPage';
import { PaymentLinksPage } from './pages/PaymentLinksPage';
import { ProcessorPage } from './pages/ProcessorPage';
import { PageSecurityPage } from './pages/PageSecurityPage';
import { WebhooksPage } from './pages/WebhooksPage';
import { navigate, useLocation } from './router';
import { useT } from './i18n';
import { queryKeyOf } from './queries';

const sessionKey = queryKeyOf('/session');

/** The merchant dashboard: signed-out pages, then every page inside an account and a mode. */
export function App() {
  const { path, query } = useLocation();
  const t = useT();
  const queryClient = useQueryClient();
  const { data: session, refetch } = useQuery<SessionState, DashboardApiError>({
    queryKey: sessionKey,
    queryFn: async ({ signal }) => {
      const state = await api<SessionState>('GET', '/session', undefined, signal);
      setCsrfToken(state.csrf_token);
      return state;
    },
  });

  /** Reads who is signed in again; what was read for someone else is dropped. */
  const refresh = useCallback(async () => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
    const { data } = await refetch({ throwOnError: true });
    return data!;
  }, [queryClient, refetch]);

  if (!session)
    return (
      <p className="loading" role="status">
        {t('app.loading')}
      </p>
    );

  const signedIn = (state: SessionState & { account_id?: string }) => {
    setCsrfToken(state.csrf_token);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
    queryClient.setQueryData(sessionKey, state);
    const next = query.get('next');
    navigate(next?.startsWith('/dashboard/') ? next : `/dashboard/${state.account_id ?? state.accounts[0]?.id ?? ''}/test`);
  };

  const invite = /^\/dashboard\/invite\/([A-Za-z0-9_]+)$/.exec(path);
  if (invite) return <InvitePage token={invite[1]!} session={session} onSignedIn={signedIn} onJoined={refresh} />;
  const setup = /^\/dashboard\/setup\/([A-Za-z0-9_]+)$/.exec(path);
  if (setup) return <SetupPage token={setup[1]!} onSignedIn={signedIn} />;
  const reset = /^\/dashboard\/reset-password\/([A-Za-z0-9_]+)$/.exec(path);
  if (reset) return <ResetPasswordPage token={reset[1]!} onReset={refresh} />;
  if (path === '/dashboard/forgot-password') return <ForgotPasswordPage />;
  if (path === '/dashboard/sign-up') return <SignUpPage onSignedIn={signedIn} session={session} />;
  if (!session.user || path === '/dashboard/sign-in') {
    if (session.user) {
      navigate('/dashboard');
      return null;
    }
    return <SignInPage onSignedIn={signedIn} session={session} />;
  }

  const match = /^\/dashboard\/(acct_[A-Za-z0-9]+)\/(test|live)(?:\/(.*))?$/.exec(path);
  const account = match ? session.accounts.find((a) => a.id === match[1]) : undefined;
  if (!match || !account) {
    const first = session.accounts[0];
    if (first) {
      navigate(`/dashboard/${first.id}/test`);
      return null;
    }
    return (
      <Layout session={session} place={null} onSignedOut={refresh}>
        <p>{t('app.noAccount')}</p>
      </Layout>
    );
  }
  const place: Place = { account, mode: match[2] as Mode, rest: match[3] ?? '' };
  const base = `/${account.id}/${place.mode}`;
  const scope = { base, place };
  const [section, id] = place.rest.split('/');

  let page: ReactNode;
  if (!section) page = <OverviewPage {...scope} />;
  else if (section === 'analytics') page = <AnalyticsPage {...scope} />;
  else if (section === 'payments' && id) page = <PaymentDetailPage {...scope} id={id} />;
  else if (section === 'payments') page = <PaymentsPage {...scope} />;
  else if (section === 'disputes' && id) page = <DisputeDetailPage {...scope} id={id} />;
  else if (section === 'disputes') page = <DisputesPage {...scope} />;
  else if (section === 'customers' && id) page = <CustomerDetailPage {...scope} id={id} />;
  else if (section === 'customers') page = <CustomersPage {...scope} />;
  else if (section === 'subscriptions' && id) page = <SubscriptionDetailPage {...scope} id={id} />;
  else if (section === 'subscriptions') page = <SubscriptionsPage {...scope} />;
  else if (section === 'invoices' && id) page = <InvoiceDetailPage {...scope} id={id} />;
  else if (section === 'invoices') page = <InvoicesPage {...scope} />;
  else if (section === 'sessions' && id) page = <SessionDetailPage {...scope} id={id} />;
  else if (section === 'sessions') page = <SessionsPage {...scope} />;
  else if (section === 'developers') page = <DevelopersPage {...scope} />;
  else if (section === 'settings' && id === 'page-security') page = <PageSecurityPage {...scope} />;
  else if (section === 'settings') page = <SettingsPage {...scope} />;
  else if (section === 'team') page = <TeamPage {...scope} />;
  else if (section === 'audit') page = <AuditLogPage {...scope} />;
  else if (section === 'links') page = <PaymentLinksPage {...scope} />;
  else if (section === 'webhooks') page = <WebhooksPage {...scope} />;
  else if (section === 'processor') page = <ProcessorPage {...scope} />;
  else if (section === 'flags') page = <FlagsPage {...scope} />;
  else if (section === 'search') page = <SearchPage {...scope} />;
  else if (section === 'security') page = <SecurityPage {...scope} />;
  else if (section === 'new-account') page = <NewAccountPage {...scope} onCreated={refresh} />;
  else page = <h1>{t('app.notFound')}</h1>;

  return (
    <Layout session={session} place={place} onSignedOut={refresh}>
      {page}
    </Layout>
  );
}
