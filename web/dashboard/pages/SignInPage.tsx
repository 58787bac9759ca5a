import { useState, type FormEvent } from 'react';
import { api, type DashboardApiError, type SessionState } from '../api';
import { ErrorNote, Field } from '../components';
import { Link } from '../router';
import { useT } from '../i18n';

type SignedIn = (state: SessionState & { account_id?: string }) => void;

function AuthFrame({ title, children }: { title: string; children: React.ReactNode }) {
  const t = useT();
  return (
    <div className="auth" data-app="tillpoint-dashboard">
      <main className="auth-card">
        <p className="brand">{t('layout.brand')}</p>
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}

/** Shared by sign-in and sign-up: submit once, keep the button busy, show the server's message. */
function useSubmit(onSignedIn: SignedIn, onError?: (error: DashboardApiError) => boolean) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const submit = async (event: FormEvent, path: string, body: object) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api<SessionState & { account_id?: string }>('POST', path, body));
    } catch (e) {
      if (!onError?.(e as DashboardApiError)) setError(e as DashboardApiError);
      setBusy(false);
    }
  };
  return { busy, error, submit };
}

/**
 * Email and password; for a user with a second factor, then the code from their authenticator app
 * (or one of their recovery codes) on the same page.
 */
export function SignInPage({ onSignedIn, session }: { onSignedIn: SignedIn; session?: SessionState }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [secondStep, setSecondStep] = useState(false);
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const { busy, error, submit } = useSubmit(onSignedIn, (e) => {
    if (e.code !== 'second_factor_required') return false;
    setSecondStep(true);
    return true;
  });
  const t = useT();
  const body = secondStep ? { email, password, ...(useRecovery ? { recovery_code: code } : { code }) } : { email, password };
  return (
    <AuthFrame title={secondStep ? t('access.twoStepTitle') : t('auth.signIn')}>
      <form onSubmit={(e) => submit(e, '/sign-in', body)}>
        {!secondStep ? (
          <>
            <Field id="email" label={t('auth.email')}>
              <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
            </Field>
            <Field id="password" label={t('auth.password')}>
              <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            </Field>
          </>
        ) : useRecovery ? (
          <Field id="recovery-code" label={t('access.recoveryCode')} hint={t('access.recoveryCodeHint')}>
            <input
              id="recovery-code"
              autoComplete="off"
              required
              aria-describedby="recovery-code-hint"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </Field>
        ) : (
          <Field id="code" label={t('access.code')} hint={t('access.codeHint')}>
            <input
              id="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]{6,7}"
              required
              aria-describedby="code-hint"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </Field>
        )}
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? t('auth.signingIn') : secondStep ? t('access.verify') : t('auth.signIn')}
        </button>
      </form>
      {secondStep && (
        <p>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setUseRecovery(!useRecovery);
              setCode('');
            }}
          >
            {useRecovery ? t('access.useApp') : t('access.useRecovery')}
          </button>
        </p>
      )}
      {!secondStep && session?.password_reset_email && (
        <p>
          <Link href="/dashboard/forgot-password">{t('access.forgot')}</Link>
        </p>
      )}
      {!secondStep && session?.sign_up === 'open' && (
        <p>
          {t('auth.newHere')} <Link href="/dashboard/sign-up">{t('auth.createAccountLink')}</Link>
        </p>
      )}
    </AuthFrame>
  );
}

export function SignUpForm({ onSignedIn, inviteToken, path }: { onSignedIn: SignedIn; inviteToken?: string; path?: string }) {
  const [form, setForm] = useState({ name: '', email: '', password: '', business: '' });
  const { busy, error, submit } = useSubmit(onSignedIn);
  const t = useT();
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.target.value });
  const person = { name: form.name, email: form.email, password: form.password };
  const body = path ? person : inviteToken ? { ...person, invite_token: inviteToken } : { ...person, business_name: form.business };
  const needsBusiness = !inviteToken && !path;
  return (
    <form onSubmit={(e) => submit(e, path ?? '/sign-up', body)}>
      <Field id="name" label={t('auth.yourName')}>
        <input id="name" autoComplete="name" required value={form.name} onChange={set('name')} />
      </Field>
      <Field id="email" label={t('auth.email')}>
        <input id="email" type="email" autoComplete="email" required value={form.email} onChange={set('email')} />
      </Field>
      <Field id="password" label={t('auth.password')} hint={t('auth.passwordHint')}>
        <input
          id="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
          aria-describedby="password-hint"
          value={form.password}
          onChange={set('password')}
        />
      </Field>
      {needsBusiness && (
        <Field id="business" label={t('auth.businessName')}>
          <input id="business" autoComplete="organization" required value={form.business} onChange={set('business')} />
        </Field>
      )}
      <ErrorNote error={error} />
      <button type="submit" disabled={busy}>
        {busy ? t('auth.creating') : path ? t('access.claim') : inviteToken ? t('auth.createAndJoin') : t('auth.createAccount')}
      </button>
    </form>
  );
}

export function SignUpPage({ onSignedIn, session }: { onSignedIn: SignedIn; session?: SessionState }) {
  const t = useT();
  if (session?.sign_up === 'invite') {
    return (
      <AuthFrame title={t('access.signUpClosed')}>
        <p>{t('access.signUpClosedHint')}</p>
        <p>
          {t('auth.haveUser')} <Link href="/dashboard/sign-in">{t('auth.signIn')}</Link>
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={t('auth.signUpTitle')}>
      <SignUpForm onSignedIn={onSignedIn} />
      <p>
        {t('auth.haveUser')} <Link href="/dashboard/sign-in">{t('auth.signIn')}</Link>
      </p>
    </AuthFrame>
  );
}

export { AuthFrame };
