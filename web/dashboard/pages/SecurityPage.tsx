import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { ErrorNote, Field, Loading } from '../components';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { navigate } from '../router';
import { useAction } from '../use-action';
import { useApiQuery } from '../queries';
import { useT } from '../i18n';
import { NewPasswordField } from './AccessPages';

interface OwnSession {
  id: string;
  created: number;
  expires_at: number;
  ip: string | null;
  user_agent: string | null;
  current: boolean;
}

/** A User-Agent in a few words: the browser and the system, enough to tell one's devices apart. */
function browserOf(agent: string | null): string {
  if (!agent) return '—';
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Firefox\//.test(agent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(agent)
        ? 'Chrome'
        : /Safari\//.test(agent)
          ? 'Safari'
          : null;
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iOS'
      : /Mac OS X/.test(agent)
        ? 'macOS'
        : /Windows/.test(agent)
          ? 'Windows'
          : /Linux/.test(agent)
            ? 'Linux'
            : null;
  return browser && system ? `${browser}, ${system}` : agent.slice(0, 60);
}

function PasswordChange() {
  const t = useT();
  const [form, setForm] = useState({ current: '', next: '' });
  const [done, setDone] = useState(false);
  const { busy, error, act } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    void act(async () => {
      await api('POST', '/me/password', { current_password: form.current, new_password: form.next });
      setForm({ current: '', next: '' });
      setDone(true);
    });
  };
  return (
    <section aria-labelledby="password-title" className="panel">
      <h2 id="password-title">{t('security.password')}</h2>
      <form onSubmit={submit}>
        <Field id="current-password" label={t('security.currentPassword')}>
          <input
            id="current-password"
            type="password"
            autoComplete="current-password"
            required
            value={form.current}
            onChange={(e) => setForm({ ...form, current: e.target.value })}
          />
        </Field>
        <NewPasswordField hint={t('security.newPasswordHint')} value={form.next} onChange={(next) => setForm({ ...form, next })} />
        <ErrorNote error={error} />
        {done && <p role="status">{t('security.passwordChanged')}</p>}
        <button type="submit" disabled={busy}>
          {t('security.changePassword')}
        </button>
      </form>
    </section>
  );
}

function SecondFactor() {
  const t = useT();
  const own = useApiQuery<{ second_factor: boolean; recovery_codes_left: number }>('/me/security');
  const [offer, setOffer] = useState<{ secret: string; qr_svg: string } | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const { busy, error, act } = useAction();
  const enable = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const enabled = await api<{ recovery_codes: string[] }>('POST', '/me/second-factor/enable', { code });
      setRecoveryCodes(enabled.recovery_codes);
      setOffer(null);
      setCode('');
    }, ['/me/security']);
  };
  const disable = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      await api('POST', '/me/second-factor/disable', { password });
      setPassword('');
      setRecoveryCodes(null);
    }, ['/me/security']);
  };
  return (
    <section aria-labelledby="two-step-title" className="panel">
      <h2 id="two-step-title">{t('security.twoStep')}</h2>
      {!own.data ? (
        <Loading what={t('security.loading')} />
      ) : own.data.second_factor ? (
        <>
          <p>{t('security.twoStepOn', { left: own.data.recovery_codes_left })}</p>
          {recoveryCodes && (
            <div className="reveal" role="status">
              <p>{t('security.recoveryCodesIntro')}</p>
              <ul data-testid="recovery-codes" className="mono">
                {recoveryCodes.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
            </div>
          )}
          <form onSubmit={disable}>
            <Field id="disable-password" label={t('security.currentPassword')}>
              <input
                id="disable-password"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </Field>
            <button type="submit" className="danger" disabled={busy}>
              {t('security.turnOff')}
            </button>
          </form>
        </>
      ) : offer ? (
        <form onSubmit={enable}>
          <p>{t('security.scan')}</p>
          <img className="qr" alt={t('security.qrAlt')} src={`data:image/svg+xml;base64,${btoa(offer.qr_svg)}`} width={180} height={180} />
          <p>
            {t('security.typeKey')} <code data-testid="totp-secret">{offer.secret}</code>
          </p>
          <Field id="enrol-code" label={t('access.code')} hint={t('access.codeHint')}>
            <input
              id="enrol-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              aria-describedby="enrol-code-hint"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </Field>
          <button type="submit" disabled={busy}>
            {t('security.confirm')}
          </button>
        </form>
      ) : (
        <>
          <p>{t('security.twoStepOff')}</p>
          <button
            type="button"
            disabled={busy}
            onClick={() => act(async () => setOffer(await api<{ secret: string; qr_svg: string }>('POST', '/me/second-factor/setup')))}
          >
            {t('security.turnOn')}
          </button>
        </>
      )}
      <ErrorNote error={error ?? own.error} />
    </section>
  );
}

function Sessions() {
  const t = useT();
  const sessions = useApiQuery<{ data: OwnSession[] }>('/me/sessions');
  const { error, act } = useAction();
  const revoke = (id: string) =>
    act(async () => {
      await api('POST', `/me/sessions/${id}/revoke`);
    }, ['/me/sessions']);
  return (
    <section aria-labelledby="sessions-title" className="panel">
      <h2 id="sessions-title">{t('security.sessions')}</h2>
      <ErrorNote error={error ?? sessions.error} />
      {!sessions.data ? (
        <Loading what={t('security.sessionsLoading')} />
      ) : (
        <table className="data">
          <caption className="visually-hidden">{t('security.sessions')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('security.col.browser')}</th>
              <th scope="col">{t('security.col.ip')}</th>
              <th scope="col">{t('security.col.signedIn')}</th>
              <th scope="col">{t('security.col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.data.map((s) => (
              <tr key={s.id}>
                <td>{browserOf(s.user_agent)}</td>
                <td>{s.ip ?? '—'}</td>
                <td>{formatTime(s.created)}</td>
                <td>
                  {s.current ? (
                    t('security.thisBrowser')
                  ) : (
                    <button
                      type="button"
                      className="danger"
                      aria-label={t('security.revokeOf', { when: formatTime(s.created), browser: browserOf(s.user_agent) })}
                      onClick={() => revoke(s.id)}
                    >
                      {t('security.revoke')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The signed-in person's own security: password, two-step verification, signed-in browsers. */
export function SecurityPage(_scope: PageScope) {
  const t = useT();
  return (
    <>
      <h1>{t('security.title')}</h1>
      <PasswordChange />
      <SecondFactor />
      <Sessions />
    </>
  );
}

/** Another account, owned by the person creating it. */
export function NewAccountPage({ place, onCreated }: PageScope & { onCreated: () => Promise<unknown> }) {
  const t = useT();
  const [name, setName] = useState('');
  const [currency, setCurrency] = useState(place.account.default_currency);
  const { busy, error, act } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const created = await api<{ id: string }>('POST', '/accounts', { name, default_currency: currency });
      await onCreated();
      navigate(`/dashboard/${created.id}/test`);
    });
  };
  return (
    <>
      <h1>{t('access.newAccountTitle')}</h1>
      <form onSubmit={submit} className="panel">
        <p>{t('access.newAccountIntro')}</p>
        <Field id="account-name" label={t('auth.businessName')}>
          <input id="account-name" autoComplete="organization" required value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field id="account-currency" label={t('access.defaultCurrency')}>
          <input id="account-currency" required maxLength={3} value={currency} onChange={(e) => setCurrency(e.target.value.toUpperCase())} />
        </Field>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {t('access.createAccount')}
        </button>
      </form>
    </>
  );
}
