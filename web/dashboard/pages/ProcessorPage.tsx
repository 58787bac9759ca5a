import { useState, type FormEvent } from 'react';
import { api, type DashboardApiError } from '../api';
import { ErrorNote, Field, Loading } from '../components';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { useApiQuery } from '../queries';
import { useT } from '../i18n';
import type { ProcessorCheck, ProcessorConfigView as ProcessorView } from '../../../src/domain/processors/processor-config';

/**
 * Processor credentials of the current mode. The private key is write-only: the form never shows
 * it, and it must be typed again to change the Braintree settings.
 */
export function ProcessorPage({ base, place }: PageScope) {
  const t = useT();
  const path = `/accounts${base}/processor`;
  const current = useApiQuery<ProcessorView>(path);
  const [form, setForm] = useState<Record<string, string> | null>(null);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [check, setCheck] = useState<ProcessorCheck | null>(null);
  const live = place.mode === 'live';

  const c = current.data;
  const values = form ?? {
    processor: c?.processor === 'braintree' || live ? 'braintree' : 'test',
    environment: c?.braintree?.environment ?? (live ? 'production' : 'sandbox'),
    merchant_id: c?.braintree?.merchant_id ?? '',
    public_key: c?.braintree?.public_key ?? '',
    private_key: '',
    merchant_accounts: Object.entries(c?.braintree?.merchant_accounts ?? {})
      .map(([currency, id]) => `${currency}=${id}`)
      .join(', '),
    google_pay_merchant_id: c?.braintree?.google_pay_merchant_id ?? '',
    require_three_d_secure: c?.braintree?.require_three_d_secure ? 'yes' : '',
    require_cvv_for_saved_cards: c?.braintree?.require_cvv_for_saved_cards ? 'yes' : '',
  };
  const set = (name: string, value: string) => setForm({ ...values, [name]: value });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(null);
    setCheck(null);
    try {
      const merchantAccounts = Object.fromEntries(
        values
          .merchant_accounts!.split(',')
          .map((pair) => pair.trim())
          .filter(Boolean)
          .map((pair) => pair.split('=').map((s) => s.trim()) as [string, string]),
      );
      const body =
        values.processor === 'test'
          ? { processor: 'test' }
          : {
              processor: 'braintree',
              environment: values.environment,
              merchant_id: values.merchant_id!.trim(),
              public_key: values.public_key!.trim(),
              private_key: values.private_key,
              merchant_accounts: merchantAccounts,
              google_pay_merchant_id: values.google_pay_merchant_id!.trim() || null,
              require_three_d_secure: values.require_three_d_secure === 'yes',
              require_cvv_for_saved_cards: values.require_cvv_for_saved_cards === 'yes',
            };
      await api('POST', path, body);
      setForm(null);
      await current.reload();
      setSaved(t('processor.saved'));
    } catch (e) {
      setError(e as DashboardApiError);
    }
    setBusy(false);
  };

  const runCheck = async () => {
    setBusy(true);
    setError(null);
    setCheck(null);
    try {
      setCheck(await api<ProcessorCheck>('POST', `${path}/check`));
    } catch (e) {
      setError(e as DashboardApiError);
    }
    setBusy(false);
  };

  return (
    <>
      <h1>{t('processor.title', { mode: place.mode })}</h1>
      <ErrorNote error={error ?? current.error} />
      {!c ? (
        <Loading what={t('processor.loading')} />
      ) : (
        <>
          <p data-testid="processor-current">
            {t('processor.current', {
              processor: c.processor === 'none' || c.processor === 'test' ? c.processor : 'braintree',
              environment: c.braintree?.environment ?? '',
              merchant: c.braintree?.merchant_id ?? '',
              changed: c.updated_at ? 'yes' : 'no',
              when: c.updated_at ? formatTime(Date.parse(c.updated_at) / 1000) : '',
            })}
          </p>
          <section aria-labelledby="check-title" className="panel">
            <h2 id="check-title">{t('processor.check')}</h2>
            <p>{t('processor.checkHint')}</p>
            <button type="button" disabled={busy} onClick={() => void runCheck()}>
              {t('processor.checkButton')}
            </button>
            {check && (
              <div role="status" className="result">
                {check.ok ? (
                  <p>{t('processor.checkOk', { processor: check.processor })}</p>
                ) : (
                  <>
                    <p className="error">{t('processor.checkProblems')}</p>
                    <ul>
                      {check.problems.map((p, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, never reordered: its position is its identity.
                        <li key={i}>{p.message}</li>
                      ))}
                    </ul>
                  </>
                )}
              </div>
            )}
          </section>
          {c.processor === 'braintree' && (
            <section aria-labelledby="notifications-title" className="panel">
              <h2 id="notifications-title">{t('processor.notifications')}</h2>
              <p>{t('processor.notificationsHint')}</p>
              <p>
                <code data-testid="braintree-notification-url">{`${window.location.origin}/webhooks/braintree/${place.account.id}?mode=${place.mode}`}</code>
              </p>
              <ol>
                <li>{t('processor.notificationsStep1')}</li>
                <li>{t('processor.notificationsStep2')}</li>
                <li>{t('processor.notificationsStep3')}</li>
              </ol>
            </section>
          )}
          <form className="panel" onSubmit={save} aria-labelledby="credentials-title">
            <h2 id="credentials-title">{t('processor.credentials')}</h2>
            <Field id="processor-kind" label={t('processor.kind')}>
              <select id="processor-kind" value={values.processor} onChange={(e) => set('processor', e.target.value)}>
                {!live && <option value="test">{t('processor.kind.test')}</option>}
                <option value="braintree">{t('processor.kind.braintree')}</option>
              </select>
            </Field>
            {values.processor === 'braintree' && (
              <>
                <Field id="bt-environment" label={t('processor.environment')}>
                  <select id="bt-environment" value={values.environment} onChange={(e) => set('environment', e.target.value)}>
                    {live ? (
                      <option value="production">{t('processor.environment.production')}</option>
                    ) : (
                      <>
                        <option value="sandbox">{t('processor.environment.sandbox')}</option>
                        <option value="development">{t('processor.environment.development')}</option>
                      </>
                    )}
                  </select>
                </Field>
                <Field id="bt-merchant-id" label={t('processor.merchantId')}>
                  <input id="bt-merchant-id" required value={values.merchant_id} onChange={(e) => set('merchant_id', e.target.value)} />
                </Field>
                <Field id="bt-public-key" label={t('processor.publicKey')}>
                  <input id="bt-public-key" required value={values.public_key} onChange={(e) => set('public_key', e.target.value)} />
                </Field>
                <Field
                  id="bt-private-key"
                  label={t('processor.privateKey')}
                  hint={c.braintree ? t('processor.privateKeyHintSet') : t('processor.privateKeyHintNew')}
                >
                  <input
                    id="bt-private-key"
                    type="password"
                    autoComplete="off"
                    required
                    aria-describedby="bt-private-key-hint"
                    value={values.private_key}
                    onChange={(e) => set('private_key', e.target.value)}
                  />
                </Field>
                <Field id="bt-merchant-accounts" label={t('processor.merchantAccounts')} hint={t('processor.merchantAccountsHint')}>
                  <input
                    id="bt-merchant-accounts"
                    aria-describedby="bt-merchant-accounts-hint"
                    value={values.merchant_accounts}
                    onChange={(e) => set('merchant_accounts', e.target.value)}
                  />
                </Field>
                <Field id="bt-google-pay" label={t('processor.googlePay')} hint={t('processor.googlePayHint')}>
                  <input
                    id="bt-google-pay"
                    aria-describedby="bt-google-pay-hint"
                    value={values.google_pay_merchant_id}
                    onChange={(e) => set('google_pay_merchant_id', e.target.value)}
                  />
                </Field>
                <label className="inline">
                  <input
                    type="checkbox"
                    checked={values.require_three_d_secure === 'yes'}
                    onChange={(e) => set('require_three_d_secure', e.target.checked ? 'yes' : '')}
                  />
                  {t('processor.require3ds')}
                </label>
                <label className="inline">
                  <input
                    type="checkbox"
                    checked={values.require_cvv_for_saved_cards === 'yes'}
                    onChange={(e) => set('require_cvv_for_saved_cards', e.target.checked ? 'yes' : '')}
                  />
                  {t('processor.requireCvv')}
                </label>
              </>
            )}
            <div className="actions">
              <button type="submit" disabled={busy}>
                {t('processor.save')}
              </button>
            </div>
            {saved && <p role="status">{saved}</p>}
          </form>
        </>
      )}
    </>
  );
}
