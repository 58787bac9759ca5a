import { useState, type FormEvent } from 'react';
import { api, DashboardApiError, type SessionState } from '../api';
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
function useSubmit(onSignedIn: SignedIn) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const submit = async (event: FormEvent, path: string, body: object) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api<SessionState & { account_id?: string }>('POST', path, body));
    } catch (e) {
      setError(e as DashboardApiError);
      setBusy(false);
    }
  };
  return { busy, error, submit };
}

export function SignInPage({ onSignedIn }: { onSignedIn: SignedIn }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useSubmit(onSignedIn);
  const t = useT();
  return (
    <AuthFrame title={t('auth.signIn')}>
      <form onSubmit={(e) => submit(e, '/sign-in', { email, password })}>
        <Field id="email" label={t('auth.email')}>
          <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field id="password" label={t('auth.password')}>
          <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? t('auth.signingIn') : t('auth.signIn')}
        </button>
      </form>
      <p>
        {t('auth.newHere')} <Link href="/dashboard/sign-up">{t('auth.createAccountLink')}</Link>
      </p>
    </AuthFrame>
  );
}

export function SignUpForm({ onSignedIn, inviteToken }: { onSignedIn: SignedIn; inviteToken?: string }) {
  const [form, setForm] = useState({ name: '', email: '', password: '', business: '' });
  const { busy, error, submit } = useSubmit(onSignedIn);
  const t = useT();
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.target.value });
  const body = inviteToken
    ? { name: form.name, email: form.email, password: form.password, invite_token: inviteToken }
    : { name: form.name, email: form.email, password: form.password, business_name: form.business };
  return (
    <form onSubmit={(e) => submit(e, '/sign-up', body)}>
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
      {!inviteToken && (
        <Field id="business" label={t('auth.businessName')}>
          <input id="business" autoComplete="organization" required value={form.business} onChange={set('business')} />
        </Field>
      )}
      <ErrorNote error={error} />
      <button type="submit" disabled={busy}>
        {busy ? t('auth.creating') : inviteToken ? t('auth.createAndJoin') : t('auth.createAccount')}
      </button>
    </form>
  );
}

export function SignUpPage({ onSignedIn }: { onSignedIn: SignedIn }) {
  const t = useT();
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
