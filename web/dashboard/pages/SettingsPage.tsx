import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../src/domain/team/permissions';
import { api, type DashboardApiError } from '../api';
import { ErrorNote, Field, Loading } from '../components';
import { formatMoney } from '../format';
import type { PageScope } from '../Layout';
import { useApiQuery } from '../queries';
import { useT } from '../i18n';

interface Settings {
  name: string;
  default_currency: string;
  display_name: string | null;
  logo_url: string | null;
  accent_color: string | null;
  support_email: string | null;
  send_receipts: boolean;
  subscription_failure_action: 'cancel' | 'unpaid';
  embed_allowed_origins: string[];
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * What the shopper will see, drawn from the form as it is typed: the checkout page's header and pay
 * button with this name, logo and accent colour.
 */
function CheckoutPreview({ name, logoUrl, accent, currency }: { name: string; logoUrl: string; accent: string; currency: string }) {
  const t = useT();
  const color = HEX.test(accent) ? accent : '#1a56db';
  return (
    <figure className="preview" aria-label={t('settings.preview')}>
      <div className="preview-page">
        <div className="preview-merchant">
          {/^https:\/\//.test(logoUrl) && <img src={logoUrl} alt="" className="preview-logo" />}
          <span className="preview-name">{name || t('settings.preview.business')}</span>
        </div>
        <div className="preview-line">
          <span>{t('settings.preview.item')}</span>
          <span>{formatMoney(2500, currency, undefined)}</span>
        </div>
        <div className="preview-pay" style={{ background: color }} data-testid="preview-pay">
          {t('settings.preview.pay', { amount: formatMoney(2500, currency, undefined) })}
        </div>
      </div>
      <figcaption>{t('settings.preview.caption')}</figcaption>
    </figure>
  );
}

/**
 * The origins allowed to frame the account's embedded checkout (docs/embedded-checkout.md), one per
 * line. The server checks each (bare origins, https except local addresses) and saves all or none.
 */
function EmbedOriginsForm({ path, saved: initial, editable }: { path: string; saved: string[]; editable: boolean }) {
  const t = useT();
  const [text, setText] = useState(initial.join('\n'));
  const [origins, setOrigins] = useState(initial);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    const list = text
      .split(/[\s,]+/)
      .map((line) => line.trim())
      .filter(Boolean);
    try {
      const answer = await api<Settings>('POST', path, { embed_allowed_origins: list });
      setOrigins(answer.embed_allowed_origins);
      setText(answer.embed_allowed_origins.join('\n'));
      setSaved(true);
    } catch (e) {
      setError(e as DashboardApiError);
    }
    setBusy(false);
  };
  return (
    <form onSubmit={save} aria-labelledby="embed-title" className="panel">
      <h2 id="embed-title">{t('settings.embed.title')}</h2>
      <p>{t('settings.embed.intro')}</p>
      <fieldset disabled={!editable || busy}>
        <Field id="s-embed-origins" label={t('settings.embed.origins')} hint={t('settings.embed.hint')}>
          <textarea
            id="s-embed-origins"
            aria-describedby="s-embed-origins-hint"
            rows={4}
            spellCheck={false}
            autoCapitalize="off"
            value={text}
            onChange={(e) => {
              setSaved(false);
              setText(e.target.value);
            }}
          />
        </Field>
      </fieldset>
      <ErrorNote error={error} />
      {saved && <p role="status">{origins.length ? t('settings.embed.saved', { count: origins.length }) : t('settings.embed.savedNone')}</p>}
      {editable && (
        <button type="submit" disabled={busy}>
          {busy ? t('settings.saving') : t('settings.embed.save')}
        </button>
      )}
    </form>
  );
}

/** Business profile and branding, with a live preview of the checkout page. */
export function SettingsPage({ place }: PageScope) {
  const t = useT();
  const path = `/accounts/${place.account.id}/settings`;
  const settings = useApiQuery<Settings>(path);
  const [form, setForm] = useState({ name: '', display_name: '', logo_url: '', accent_color: '', support_email: '' });
  const [sendReceipts, setSendReceipts] = useState(false);
  const [failureAction, setFailureAction] = useState<Settings['subscription_failure_action']>('cancel');
  const [error, setError] = useState<DashboardApiError | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const editable = can(place.account.role, 'settings.manage');

  useEffect(() => {
    const s = settings.data;
    if (s) {
      setForm({
        name: s.name,
        display_name: s.display_name ?? '',
        logo_url: s.logo_url ?? '',
        accent_color: s.accent_color ?? '',
        support_email: s.support_email ?? '',
      });
      setSendReceipts(s.send_receipts);
      setFailureAction(s.subscription_failure_action);
    }
  }, [settings.data]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      await api('POST', path, {
        name: form.name,
        display_name: form.display_name || null,
        logo_url: form.logo_url || null,
        accent_color: form.accent_color || null,
        support_email: form.support_email || null,
        send_receipts: sendReceipts,
        subscription_failure_action: failureAction,
      });
      setSaved(true);
    } catch (e) {
      setError(e as DashboardApiError);
    }
    setBusy(false);
  };
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setSaved(false);
    setForm({ ...form, [key]: e.target.value });
  };

  if (!settings.data) return settings.error ? <ErrorNote error={settings.error} /> : <Loading what={t('settings.loading')} />;
  return (
    <>
      <h1>{t('settings.title')}</h1>
      <div className="columns">
        <form onSubmit={save} aria-labelledby="branding-title">
          <h2 id="branding-title">{t('settings.branding')}</h2>
          <fieldset disabled={!editable || busy}>
            <Field id="s-name" label={t('settings.businessName')}>
              <input id="s-name" required value={form.name} onChange={set('name')} />
            </Field>
            <Field id="s-display" label={t('settings.displayName')} hint={t('settings.displayNameHint')}>
              <input id="s-display" aria-describedby="s-display-hint" value={form.display_name} onChange={set('display_name')} />
            </Field>
            <Field id="s-logo" label={t('settings.logoUrl')} hint={t('settings.logoUrlHint')}>
              <input id="s-logo" type="url" aria-describedby="s-logo-hint" value={form.logo_url} onChange={set('logo_url')} />
            </Field>
            <Field id="s-accent" label={t('settings.accent')} hint={t('settings.accentHint')}>
              <div className="color-input">
                <input id="s-accent" aria-describedby="s-accent-hint" value={form.accent_color} onChange={set('accent_color')} pattern="#[0-9a-fA-F]{6}" />
                <input
                  type="color"
                  aria-label={t('settings.pickAccent')}
                  value={HEX.test(form.accent_color) ? form.accent_color : '#1a56db'}
                  onChange={set('accent_color')}
                />
              </div>
            </Field>
            <Field id="s-support" label={t('settings.supportEmail')}>
              <input id="s-support" type="email" value={form.support_email} onChange={set('support_email')} />
            </Field>
            <label className="inline">
              <input
                type="checkbox"
                checked={sendReceipts}
                onChange={(e) => {
                  setSaved(false);
                  setSendReceipts(e.target.checked);
                }}
              />
              {t('settings.sendReceipts')}
            </label>
            <Field id="s-failure" label={t('settings.subscriptionFailureAction')}>
              <select
                id="s-failure"
                value={failureAction}
                onChange={(e) => {
                  setSaved(false);
                  setFailureAction(e.target.value as Settings['subscription_failure_action']);
                }}
              >
                <option value="cancel">{t('settings.subscriptionFailureCancel')}</option>
                <option value="unpaid">{t('settings.subscriptionFailureUnpaid')}</option>
              </select>
            </Field>
          </fieldset>
          <ErrorNote error={error} />
          {saved && <p role="status">{t('settings.saved')}</p>}
          {editable && (
            <button type="submit" disabled={busy}>
              {busy ? t('settings.saving') : t('settings.save')}
            </button>
          )}
        </form>
        <CheckoutPreview name={form.display_name || form.name} logoUrl={form.logo_url} accent={form.accent_color} currency={settings.data.default_currency} />
      </div>
      <EmbedOriginsForm path={path} saved={settings.data.embed_allowed_origins ?? []} editable={editable} />
    </>
  );
}
