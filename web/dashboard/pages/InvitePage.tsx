import { useState } from 'react';
import { api, DashboardApiError, type SessionState } from '../api';
import { ErrorNote, Loading } from '../components';
import { Link, navigate } from '../router';
import { useLoad } from '../use-load';
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
  const invite = useLoad(() => api<{ account_name: string; role: string }>('GET', `/invites/${token}`), token);
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
  if (invite.loading) return <Loading what="the invite" />;
  if (!invite.data) {
    return (
      <AuthFrame title="This invite link does not work">
        <p>It may have been used already, withdrawn, or expired. Ask for a new one.</p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={`Join ${invite.data.account_name}`}>
      <p>
        You are invited as <strong>{invite.data.role}</strong>.
      </p>
      {session.user ? (
        <>
          <p>Signed in as {session.user.email}.</p>
          <ErrorNote error={error} />
          <button type="button" onClick={join} disabled={busy}>
            {busy ? 'Joining…' : `Join ${invite.data.account_name}`}
          </button>
        </>
      ) : (
        <>
          <SignUpForm onSignedIn={onSignedIn} inviteToken={token} />
          <p>
            Already have a user? <Link href={`/dashboard/sign-in?next=${encodeURIComponent(`/dashboard/invite/${token}`)}`}>Sign in first</Link>
          </p>
        </>
      )}
    </AuthFrame>
  );
}
