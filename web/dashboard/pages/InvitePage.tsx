import { useState } from 'react';
import { api, type DashboardApiError, type SessionState } from '../api';
import { ErrorNote, Loading } from '../components';
import { Link, navigate } from '../router';
import { useApiQuery } from '../queries';
import { FormattedMessage } from 'react-intl';
import { useT, type DashboardMessageKey } from '../i18n';
import { AuthFrame, SignUpForm } from './SignInPage';

/** `/dashboard/invite/:token`: join an account, signed in already or by creating a user. */
export function InvitePage({
  token,
  session,
  onSignedIn,
  onJoined,
}: {
  token: string;
  session: SessionState;
  onSignedIn: (state: SessionState & { account_id?: string }) => void;
  onJoined: () => Promise<SessionState>;
}) {
  const t = useT();
  const invite = useApiQuery<{ account_name: string; role: string }>(`/invites/${token}`);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const join = async () => {
    setBusy(true);
    try {
      const joined = await api<{ account_id: string }>('POST', `/invites/${token}/accept`);
      await onJoined();
      navigate(`/dashboard/${joined.account_id}/test`);
    } catch (e) {
      setError(e as DashboardApiError);
      setBusy(false);
    }
  };
  if (invite.loading) return <Loading what={t('invite.loading')} />;
  if (!invite.data) {
    return (
      <AuthFrame title={t('invite.broken')}>
        <p>{t('invite.brokenHint')}</p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={t('invite.join', { account: invite.data.account_name })}>
      <p>
        <FormattedMessage id={'invite.role' satisfies DashboardMessageKey} values={{ role: invite.data.role, strong: (chunks) => <strong>{chunks}</strong> }} />
      </p>
      {session.user ? (
        <>
          <p>{t('invite.signedInAs', { email: session.user.email })}</p>
          <ErrorNote error={error} />
          <button type="button" onClick={join} disabled={busy}>
            {busy ? t('invite.joining') : t('invite.join', { account: invite.data.account_name })}
          </button>
        </>
      ) : (
        <>
          <SignUpForm onSignedIn={onSignedIn} inviteToken={token} />
          <p>
            {t('auth.haveUser')} <Link href={`/dashboard/sign-in?next=${encodeURIComponent(`/dashboard/invite/${token}`)}`}>{t('invite.signInFirst')}</Link>
          </p>
        </>
      )}
    </AuthFrame>
  );
}
