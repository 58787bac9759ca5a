import { useState, type FormEvent } from 'react';
import { api, type SessionState } from '../api';
import { ErrorNote, Field, Loading } from '../components';
import { formatTime } from '../format';
import { Link } from '../router';
import { useAction } from '../use-action';
import { useApiQuery } from '../queries';
import { useT } from '../i18n';
import { AuthFrame, SignUpForm } from './SignInPage';

/** `/dashboard/setup/:token`: the operator claims the account the link names and becomes its owner. */
export function SetupPage({ token, onSignedIn }: { token: string; onSignedIn: (state: SessionState & { account_id?: string }) => void }) {
  const t = useT();
  const link = useApiQuery<{ account_name: string; expires_at: number }>(`/setup/${token}`);
  if (link.loading) return <Loading what={t('access.setupLoading')} />;
  if (!link.data) {
    return (
      <AuthFrame title={t('access.setupBroken')}>
        <p>{t('access.setupBrokenHint')}</p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={t('access.setupTitle', { account: link.data.account_name })}>
      <p>{t('access.setupIntro', { when: formatTime(link.data.expires_at) })}</p>
      <SignUpForm onSignedIn={onSignedIn} path={`/setup/${token}`} />
    </AuthFrame>
  );
}

/** `/dashboard/reset-password/:token`: a new password from a one-time link (which signs the user out everywhere). */
export function ResetPasswordPage({ token, onReset }: { token: string; onReset: () => Promise<unknown> }) {
  const t = useT();
  const reset = useApiQuery<{ email: string }>(`/password-reset/${token}`);
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, act } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      await api('POST', `/password-reset/${token}`, { password });
      await onReset();
      setDone(true);
    });
  };
  if (reset.loading) return <Loading what={t('access.resetLoading')} />;
  if (done) {
    return (
      <AuthFrame title={t('access.resetDone')}>
        <p role="status">{t('access.resetDoneHint')}</p>
        <p>
          <Link href="/dashboard/sign-in">{t('auth.signIn')}</Link>
        </p>
      </AuthFrame>
    );
  }
  if (!reset.data) {
    return (
      <AuthFrame title={t('access.resetBroken')}>
        <p>{t('access.resetBrokenHint')}</p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={t('access.resetTitle')}>
      <p>{t('access.resetFor', { email: reset.data.email })}</p>
      <form onSubmit={submit}>
        <NewPasswordField hint={t('auth.passwordHint')} value={password} onChange={setPassword} />
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {t('access.setPassword')}
        </button>
      </form>
    </AuthFrame>
  );
}

/** `/dashboard/forgot-password`: ask for a reset link by email (when the install can send email). */
export function ForgotPasswordPage() {
  const t = useT();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, act } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      await api('POST', '/password-reset', { email });
      setSent(true);
    });
  };
  return (
    <AuthFrame title={t('access.forgotTitle')}>
      {sent ? (
        <p role="status">{t('access.forgotSent', { email })}</p>
      ) : (
        <form onSubmit={submit}>
          <Field id="email" label={t('auth.email')}>
            <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <ErrorNote error={error} />
          <button type="submit" disabled={busy}>
            {t('access.forgotSend')}
          </button>
        </form>
      )}
      <p>
        <Link href="/dashboard/sign-in">{t('auth.signIn')}</Link>
      </p>
    </AuthFrame>
  );
}

/** A new password's field, with the rule the server enforces (at least 10 characters) as its hint. */
export function NewPasswordField({ hint, value, onChange }: { hint: string; value: string; onChange: (value: string) => void }) {
  const t = useT();
  return (
    <Field id="new-password" label={t('access.newPassword')} hint={hint}>
      <input
        id="new-password"
        type="password"
        autoComplete="new-password"
        minLength={10}
        required
        aria-describedby="new-password-hint"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}
