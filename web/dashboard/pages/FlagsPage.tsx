import { useState, type FormEvent } from 'react';
import { experimentSurfaces } from '../../../src/domain/flags/flag-evaluation';
import { can } from '../../../src/domain/team/permissions';
import { api, type Experiment, type ExperimentResults as Results, type Flag, type List } from '../api';
import { ErrorNote, Field, Loading, ModeTable, StatusBadge } from '../components';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { useAction } from '../use-action';
import { useApiQuery } from '../queries';
import { useT, type DashboardTranslate } from '../i18n';

type FlagValue = boolean | string | number;

/** The kill switches that take a payment method off the checkout page, with the method's name shown. */
const paymentMethodSwitches: Record<string, string> = {
  card_enabled: 'card',
  google_pay_enabled: 'Google Pay',
  apple_pay_enabled: 'Apple Pay',
  paypal_enabled: 'PayPal',
  venmo_enabled: 'Venmo',
};
/** The methods still on besides `key`'s. */
const otherSwitches = (key: string) => Object.keys(paymentMethodSwitches).filter((other) => other !== key);

const percent = (t: DashboardTranslate, n: number) => t('flags.percent', { value: (n * 100).toFixed(1) });
const signedPercent = (t: DashboardTranslate, n: number) => t('flags.points', { value: `${n > 0 ? '+' : ''}${(n * 100).toFixed(1)}` });

/** Kill switches and flags (changed at once, no deploy), experiments and their results. */
export function FlagsPage({ base, place }: PageScope) {
  const t = useT();
  const flags = useApiQuery<List<Flag>>(`/accounts${base}/flags`);
  const experiments = useApiQuery<List<Experiment>>(`/accounts${base}/experiments?limit=100`);
  const manage = can(place.account.role, 'flags.manage');
  const { busy, error, notice, act } = useAction();
  const [surface, setSurface] = useState<keyof typeof experimentSurfaces>('checkout_layout');
  const [sampleSize, setSampleSize] = useState('1000');
  const [shown, setShown] = useState<string | null>(null);
  // A payment method about to be switched off: the switch waits for a confirmation that says what shoppers will see.
  const [switchingOff, setSwitchingOff] = useState<Flag | null>(null);
  const isOn = (key: string) => flags.data?.data.find((f) => f.key === key)?.value !== false;
  const noMethodOn = flags.data !== undefined && Object.keys(paymentMethodSwitches).every((key) => !isOn(key));
  const remainingMethods = (key: string) =>
    otherSwitches(key)
      .filter(isOn)
      .map((other) => paymentMethodSwitches[other]!);
  const switchText = (key: string, part: 'title' | 'shoppers' | 'confirm') =>
    key === 'card_enabled'
      ? t(`flags.cardOff.${part}`)
      : key === 'google_pay_enabled'
        ? t(`flags.googlePayOff.${part}`)
        : t(`flags.walletOff.${part}`, { method: paymentMethodSwitches[key]! });
  const remainingText = (key: string) => {
    const remaining = remainingMethods(key);
    if (remaining.length === 0) return t('flags.noMethodWouldRemain');
    return t('flags.methodsRemaining', { methods: remaining.join(', ') });
  };

  const toggle = (flag: Flag, value: boolean) => {
    if (!value && paymentMethodSwitches[flag.key]) setSwitchingOff(flag);
    else void setFlag(flag, value);
  };
  const setFlag = (flag: Flag, value: FlagValue) =>
    act(async () => {
      setSwitchingOff(null);
      await api('POST', `/accounts${base}/flags/${flag.key}`, { value });
      return t('flags.set', { key: flag.key, value: String(value) });
    }, [`/accounts${base}/flags`]);
  const create = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const variants = experimentSurfaces[surface].variants.map((key) => ({ key, weight: 1 }));
      await api('POST', `/accounts${base}/experiments`, { key: surface, variants, planned_sample_size: Number(sampleSize) });
      return t('flags.experimentCreated', { surface });
    }, [`/accounts${base}/experiments`]);
  };
  const setStatus = (x: Experiment, status: 'running' | 'stopped') =>
    act(async () => {
      await api('POST', `/accounts${base}/experiments/${x.id}`, { status });
      return status === 'running' ? t('flags.experimentStarted', { surface: x.key }) : t('flags.experimentStopped', { surface: x.key });
    }, [`/accounts${base}/experiments`]);

  return (
    <>
      <h1>{t('flags.title')}</h1>
      <ErrorNote error={error ?? flags.error ?? experiments.error} />
      {notice && <p role="status">{notice}</p>}
      <section aria-labelledby="flags-title">
        <h2 id="flags-title">{t('flags.flags', { mode: place.mode })}</h2>
        {noMethodOn && (
          <p className="error" data-testid="no-payment-method">
            {t('flags.noMethodOn')}
          </p>
        )}
        {switchingOff && (
          // biome-ignore lint/a11y/useSemanticElements: a panel of text and buttons, not form fields: a fieldset would mislabel it.
          <div className="panel" role="group" aria-labelledby="switch-off-title" data-testid="switch-off">
            <h3 id="switch-off-title">{switchText(switchingOff.key, 'title')}</h3>
            <p>{switchText(switchingOff.key, 'shoppers')}</p>
            <p className={remainingMethods(switchingOff.key).length > 0 ? undefined : 'error'}>{remainingText(switchingOff.key)}</p>
            <div className="actions">
              <button type="button" className="danger" disabled={busy} onClick={() => void setFlag(switchingOff, false)}>
                {switchText(switchingOff.key, 'confirm')}
              </button>
              {/* biome-ignore lint/a11y/noAutofocus: the confirmation just opened: focus goes to its safe choice. */}
              <button type="button" className="secondary" autoFocus disabled={busy} onClick={() => setSwitchingOff(null)}>
                {t('flags.keepOn')}
              </button>
            </div>
          </div>
        )}
        {!flags.data ? (
          <Loading what={t('flags.loading')} />
        ) : (
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t('flags.col.flag')}</th>
                <th scope="col">{t('flags.col.description')}</th>
                <th scope="col">{t('flags.col.value')}</th>
              </tr>
            </thead>
            <tbody>
              {flags.data.data.map((f) => (
                <tr key={f.key}>
                  <td className="mono">{f.key}</td>
                  <td>{f.description ?? '—'}</td>
                  <td>
                    {typeof f.value === 'boolean' ? (
                      <label className="inline">
                        <input type="checkbox" checked={f.value} disabled={!manage || busy} onChange={(e) => toggle(f, e.target.checked)} />
                        <span>
                          {f.value ? t('flags.on') : t('flags.off')}
                          <span className="visually-hidden"> {t('flags.keyHidden', { key: f.key })}</span>
                        </span>
                      </label>
                    ) : f.allowed_values ? (
                      <select aria-label={f.key} value={String(f.value)} disabled={!manage || busy} onChange={(e) => void setFlag(f, e.target.value)}>
                        {f.allowed_values.map((v) => (
                          <option key={String(v)}>{String(v)}</option>
                        ))}
                      </select>
                    ) : (
                      <span className="mono">{String(f.value)}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="experiments-title">
        <h2 id="experiments-title">{t('flags.experiments')}</h2>
        {manage && (
          <form className="panel" onSubmit={create} aria-labelledby="new-experiment-title">
            <h3 id="new-experiment-title">{t('flags.newExperiment')}</h3>
            <Field id="experiment-surface" label={t('flags.surface')}>
              <select id="experiment-surface" value={surface} onChange={(e) => setSurface(e.target.value as keyof typeof experimentSurfaces)}>
                {Object.entries(experimentSurfaces).map(([key, s]) => (
                  <option key={key} value={key}>
                    {t('flags.surfaceOption', { key, variants: s.variants.join(' / ') })}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="experiment-sample" label={t('flags.sampleSize')} hint={t('flags.sampleSizeHint')}>
              <input
                id="experiment-sample"
                type="number"
                min={1}
                required
                aria-describedby="experiment-sample-hint"
                value={sampleSize}
                onChange={(e) => setSampleSize(e.target.value)}
              />
            </Field>
            <button type="submit" disabled={busy}>
              {t('flags.createExperiment')}
            </button>
          </form>
        )}
        <ModeTable
          rows={experiments.data?.data}
          what={t('flags.experiments.loading')}
          emptyWhat={t('flags.experiments.none')}
          mode={place.mode}
          columns={[t('flags.col.surface'), t('flags.col.variants'), t('flags.col.state'), t('flags.col.actions')]}
          row={(x) => (
            <tr key={x.id}>
              <td className="mono">{x.key}</td>
              <td>{x.variants.map((v) => v.key).join(' / ')}</td>
              <td>
                <StatusBadge status={x.status} /> {x.started && t('flags.since', { when: formatTime(x.started) })}
              </td>
              <td className="actions">
                <button type="button" className="secondary" onClick={() => setShown(x.id)} aria-label={t('flags.resultsOf', { key: x.key, id: x.id })}>
                  {t('flags.results')}
                </button>
                {manage && x.status === 'draft' && (
                  <button type="button" disabled={busy} onClick={() => void setStatus(x, 'running')}>
                    {t('flags.start')}
                  </button>
                )}
                {manage && x.status === 'running' && (
                  <button type="button" className="danger" disabled={busy} onClick={() => void setStatus(x, 'stopped')}>
                    {t('flags.stop')}
                  </button>
                )}
              </td>
            </tr>
          )}
        />
      </section>
      {shown && <ExperimentResults key={shown} path={`/accounts${base}/experiments/${shown}/results`} />}
    </>
  );
}

function ExperimentResults({ path }: { path: string }) {
  const t = useT();
  const results = useApiQuery<Results>(path);
  const r = results.data;
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">{t('flags.results')}</h2>
      <ErrorNote error={results.error} />
      {!r ? (
        <Loading what={t('flags.results.loading')} />
      ) : (
        <>
          <p data-testid="verdict">{r.verdict.message}</p>
          <table className="data">
            <caption className="visually-hidden">{t('flags.results.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('flags.results.col.variant')}</th>
                <th scope="col">{t('flags.results.col.exposed')}</th>
                <th scope="col">{t('flags.results.col.conversions')}</th>
                <th scope="col">{t('flags.results.col.rate')}</th>
                <th scope="col">{t('flags.results.col.difference')}</th>
              </tr>
            </thead>
            <tbody>
              {r.variants.map((v) => (
                <tr key={v.variant}>
                  <th scope="row">{v.variant}</th>
                  <td>{v.exposed}</td>
                  <td>{v.conversions}</td>
                  <td>
                    {t('flags.withInterval', {
                      value: percent(t, v.conversion_rate),
                      lower: percent(t, v.conversion_rate_interval.lower),
                      upper: percent(t, v.conversion_rate_interval.upper),
                    })}
                  </td>
                  <td>
                    {v.difference_to_control
                      ? t('flags.withInterval', {
                          value: signedPercent(t, v.difference_to_control.difference),
                          lower: signedPercent(t, v.difference_to_control.lower),
                          upper: signedPercent(t, v.difference_to_control.upper),
                        })
                      : t('flags.control')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
