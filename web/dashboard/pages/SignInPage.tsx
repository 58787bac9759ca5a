import { useState, type FormEvent } from 'react';
import { api, DashboardApiError, type SessionState } from '../api';
import { ErrorNote, Field } from '../components';
import { Link } from '../router';

type SignedIn = (state: SessionState & { account_id?: string }) => void;

function AuthFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="auth" data-app="tillpoint-dashboard">
      <main className="auth-card">
        <p className="brand">Tillpoint</p>
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
  return (
    <AuthFrame title="Sign in">
      <form onSubmit={(e) => submit(e, '/sign-in', { email, password })}>
        <Field id="email" label="Email">
          <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field id="password" label="Password">
          <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        New to Tillpoint? <Link href="/dashboard/sign-up">Create an account</Link>
      </p>
    </AuthFrame>
  );
}

export function SignUpForm({ onSignedIn, inviteToken }: { onSignedIn: SignedIn; inviteToken?: string }) {
  const [form, setForm] = useState({ name: '', email: '', password: '', business: '' });
  const { busy, error, submit } = useSubmit(onSignedIn);
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.target.value });
  const body = inviteToken
    ? { name: form.name, email: form.email, password: form.password, invite_token: inviteToken }
    : { name: form.name, email: form.email, password: form.password, business_name: form.business };
  return (
    <form onSubmit={(e) => submit(e, '/sign-up', body)}>
      <Field id="name" label="Your name">
        <input id="name" autoComplete="name" required value={form.name} onChange={set('name')} />
      </Field>
      <Field id="email" label="Email">
        <input id="email" type="email" autoComplete="email" required value={form.email} onChange={set('email')} />
      </Field>
      <Field id="password" label="Password" hint="At least 10 characters.">
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
        <Field id="business" label="Business name">
          <input id="business" autoComplete="organization" required value={form.business} onChange={set('business')} />
        </Field>
      )}
      <ErrorNote error={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : inviteToken ? 'Create user and join' : 'Create account'}
      </button>
    </form>
  );
}

export function SignUpPage({ onSignedIn }: { onSignedIn: SignedIn }) {
  return (
    <AuthFrame title="Create your Tillpoint account">
      <SignUpForm onSignedIn={onSignedIn} />
      <p>
        Already have a user? <Link href="/dashboard/sign-in">Sign in</Link>
      </p>
    </AuthFrame>
  );
}

export { AuthFrame };
