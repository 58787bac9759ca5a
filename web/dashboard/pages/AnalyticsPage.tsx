import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { ColumnHeads, ErrorNote, Loading } from '../components';
import { methodTypeLabels } from '../format';
import type { PageScope } from '../Layout';
import { navigate, useLocation } from '../router';
import { useLoad } from '../use-load';
import { useT, type DashboardMessageKey } from '../i18n';

interface Interval {
  lower: number;
  upper: number;
}

/** `GET …/analytics` (docs/dashboard.md, "Analytics"); rates between 0 and 1. */
interface Analytics {
  from: string;
  to: string;
  funnel: { opened: number; attempted: number; paid: number };
  payment_methods: Array<{ payment_method: string; finished: number; approved: number; success_rate: number | null }>;
  decline_reasons: Array<{ code: string; count: number }>;
  three_d_secure: Array<{ status: string; count: number }>;
  experiments: Array<{
    experiment: string;
    key: string;
    control: string;
    variants: Array<{ variant: string; exposed: number; conversions: number; conversion_rate: number; conversion_rate_interval: Interval; difference_to_control: (Interval & { difference: number }) | null }>;
    verdict: { status: string; message: string };
  }>;
}

const PRESETS = [7, 30, 90] as const;
const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);
const isDay = (value: string | null): value is string => !!value && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The period the URL names: `?days=7|30|90` (up to today, UTC) or `?from=…&to=…`; 30 days by default. */
function periodOf(query: URLSearchParams): { days: number | null; from: string; to: string } {
  const from = query.get('from');
  const to = query.get('to');
  if (isDay(from) && isDay(to)) return { days: null, from, to };
  const days = PRESETS.find((n) => String(n) === query.get('days')) ?? 30;
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  return { days, from: isoDay(today - (days - 1) * DAY_MS), to: isoDay(today) };
}

const utcDay = (day: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
const percent = (value: number | null) => (value === null ? '—' : new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(value));
const signedPercent = (value: number) => new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(value);

/** 3-D Secure statuses (Braintree's) named for a person; others show as they are. */
const threeDSecureLabels: Record<string, DashboardMessageKey> = {
  not_requested: 'analytics.3ds.notRequested',
  authenticate_successful: 'analytics.3ds.successful',
  authenticate_failed: 'analytics.3ds.failed',
  authenticate_frictionless_failed: 'analytics.3ds.frictionlessFailed',
  authenticate_unable_to_authenticate: 'analytics.3ds.unavailable',
  lookup_not_enrolled: 'analytics.3ds.notEnrolled',
  challenge_required: 'analytics.3ds.challengeRequired',
};

/** The checkout funnel, success rate by method, decline reasons, 3-D Secure outcomes and experiments over a chosen period. */
export function AnalyticsPage({ base, place }: PageScope) {
  const t = useT();
  const { query } = useLocation();
  const period = periodOf(query);
  const here = `/dashboard/${place.account.id}/${place.mode}/analytics`;
  const [custom, setCustom] = useState<{ from: string; to: string } | null>(null);
  const showCustom = custom !== null || period.days === null;
  const analytics = useLoad(() => api<Analytics>('GET', `/accounts${base}/analytics?from=${period.from}&to=${period.to}`), `${base}:${period.from}:${period.to}`);
  const data = analytics.data;

  const choose = (value: string) => {
    if (value === 'custom') setCustom({ from: period.from, to: period.to });
    else {
      setCustom(null);
      navigate(`${here}?days=${value}`);
    }
  };
  const applyCustom = (event: FormEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setCustom(null);
    navigate(`${here}?from=${String(form.get('from'))}&to=${String(form.get('to'))}`);
  };
  const step = (value: number, of: number) => (of === 0 ? '—' : percent(value / of));

  return (
    <>
      <div className="page-head">
        <h1>{t('analytics.title')}</h1>
        <label className="inline">
          {t('overview.period')}{' '}
          <select value={showCustom ? 'custom' : String(period.days)} onChange={(e) => choose(e.target.value)}>
            {PRESETS.map((n) => (
              <option key={n} value={n}>
                {t('overview.lastDays', { days: n })}
              </option>
            ))}
            <option value="custom">{t('analytics.customPeriod')}</option>
          </select>
        </label>
      </div>
      {showCustom && (
        <form className="inline-form" onSubmit={applyCustom} key={`${period.from}:${period.to}`}>
          <label>
            {t('analytics.from')} <input type="date" name="from" required defaultValue={custom?.from ?? period.from} />
          </label>{' '}
          <label>
            {t('analytics.to')} <input type="date" name="to" required defaultValue={custom?.to ?? period.to} />
          </label>{' '}
          <button type="submit">{t('analytics.show')}</button>
        </form>
      )}
      <ErrorNote error={analytics.error} />
      {!data ? (
        !analytics.error && <Loading what={t('analytics.loading')} />
      ) : (
        <>
          <p className="hint" data-testid="analytics-period">{t('analytics.period', { from: utcDay(data.from), to: utcDay(data.to) })}</p>

          <table className="data" data-testid="analytics-funnel">
            <caption>{t('overview.funnel')}</caption>
            <ColumnHeads labels={[t('analytics.col.step'), t('analytics.col.sessions'), t('analytics.col.ofPrevious')]} />
            <tbody>
              <tr>
                <th scope="row">{t('overview.funnel.opened')}</th>
                <td>{data.funnel.opened}</td>
                <td>—</td>
              </tr>
              <tr>
                <th scope="row">{t('overview.funnel.attempted')}</th>
                <td>{data.funnel.attempted}</td>
                <td>{step(data.funnel.attempted, data.funnel.opened)}</td>
              </tr>
              <tr>
                <th scope="row">{t('overview.funnel.paid')}</th>
                <td>{data.funnel.paid}</td>
                <td>{step(data.funnel.paid, data.funnel.attempted)}</td>
              </tr>
            </tbody>
          </table>

          <table className="data" data-testid="analytics-methods">
            <caption>{t('analytics.methods')}</caption>
            <ColumnHeads labels={[t('analytics.col.method'), t('analytics.col.finished'), t('analytics.col.approved'), t('overview.successRate')]} />
            <tbody>
              {data.payment_methods.length === 0 ? (
                <tr>
                  <td colSpan={4}>{t('overview.noPayments')}</td>
                </tr>
              ) : (
                data.payment_methods.map((m) => (
                  <tr key={m.payment_method}>
                    <th scope="row">{methodTypeLabels[m.payment_method] ? t(methodTypeLabels[m.payment_method]!) : m.payment_method}</th>
                    <td>{m.finished}</td>
                    <td>{m.approved}</td>
                    <td>{percent(m.success_rate)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>

          <table className="data" data-testid="analytics-declines">
            <caption>{t('analytics.declines')}</caption>
            <ColumnHeads labels={[t('payment.processor.declineCode'), t('analytics.col.payments'), t('analytics.col.share')]} />
            <tbody>
              {data.decline_reasons.length === 0 ? (
                <tr>
                  <td colSpan={3}>{t('analytics.noDeclines')}</td>
                </tr>
              ) : (
                data.decline_reasons.map((d) => (
                  <tr key={d.code}>
                    <th scope="row">
                      <code>{d.code}</code>
                    </th>
                    <td>{d.count}</td>
                    <td>{percent(d.count / data.decline_reasons.reduce((sum, r) => sum + r.count, 0))}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>

          <table className="data" data-testid="analytics-3ds">
            <caption>{t('analytics.threeDSecure')}</caption>
            <ColumnHeads labels={[t('analytics.col.outcome'), t('analytics.col.payments')]} />
            <tbody>
              {data.three_d_secure.length === 0 ? (
                <tr>
                  <td colSpan={2}>{t('overview.noPayments')}</td>
                </tr>
              ) : (
                data.three_d_secure.map((o) => (
                  <tr key={o.status}>
                    <th scope="row">{threeDSecureLabels[o.status] ? t(threeDSecureLabels[o.status]!) : o.status}</th>
                    <td>{o.count}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>

          <section aria-labelledby="analytics-experiments">
            <h2 id="analytics-experiments">{t('analytics.experiments')}</h2>
            {data.experiments.length === 0 && <p>{t('analytics.noExperiments')}</p>}
            {data.experiments.map((x) => (
              <div className="table-scroll" key={x.experiment}>
                <table className="data" data-testid={`analytics-experiment-${x.key}`}>
                  <caption>
                    <code>{x.key}</code> — {x.verdict.message}
                  </caption>
                  <ColumnHeads labels={[t('analytics.col.variant'), t('analytics.col.exposed'), t('analytics.col.converted'), t('analytics.col.conversion'), t('analytics.col.difference')]} />
                  <tbody>
                    {x.variants.map((v) => (
                      <tr key={v.variant}>
                        <th scope="row">
                          {v.variant}
                          {v.variant === x.control ? ` (${t('analytics.control')})` : ''}
                        </th>
                        <td>{v.exposed}</td>
                        <td>{v.conversions}</td>
                        <td>{t('analytics.withInterval', { value: percent(v.conversion_rate), lower: percent(v.conversion_rate_interval.lower), upper: percent(v.conversion_rate_interval.upper) })}</td>
                        <td>
                          {v.difference_to_control
                            ? t('analytics.withInterval', { value: signedPercent(v.difference_to_control.difference), lower: signedPercent(v.difference_to_control.lower), upper: signedPercent(v.difference_to_control.upper) })
                            : '—'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ))}
          </section>
        </>
      )}
    </>
  );
}
