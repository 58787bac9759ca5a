import { useState } from 'react';
import { Chart, type ChartPoint } from '../Chart';
import { ErrorNote, Loading } from '../components';
import { formatMoney } from '../format';
import type { PageScope } from '../Layout';
import { useApiQuery } from '../queries';
import { useT, type DashboardMessageKey } from '../i18n';
import type { RecurringRevenue } from '../api';

/** One currency's figures over a period (docs/dashboard.md, "Figures"); money in minor units. */
interface Figures {
  succeeded: number;
  captured: number;
  refunded: number;
  /** Lost to disputes, of these payments. */
  lost: number;
  net: number;
  authorized: number;
  authorized_amount: number;
  failed: number;
  voided: number;
}

interface Funnel {
  opened: number;
  attempted: number;
  paid: number;
}

interface Overview {
  from: string;
  to: string;
  previous_from: string;
  previous_to: string;
  currencies: string[];
  figures: Array<{ currency: string; current: Figures; previous: Figures }>;
  days: Array<Figures & { day: string; currency: string }>;
  /** The previous period's days, day for day with `days`. */
  previous_days: Array<Figures & { day: string; currency: string }>;
  success_rate: number | null;
  previous_success_rate: number | null;
  funnel: Funnel;
  previous_funnel: Funnel;
  /** Per currency: amounts disputed in the period and lost to disputes, kept apart from refunds. */
  disputes: Array<{ currency: string; disputed: number; lost: number }>;
}

/** A UTC day (`2026-06-01`) as the merchant's browser writes dates. */
const utcDay = (day: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

const percent = (value: number | null) =>
  value === null ? '—' : new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(value);

/** The change from `previous` to `current` as a signed percentage; null when there was nothing before. */
function change(current: number, previous: number): string | null {
  if (previous === 0) return null;
  return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format((current - previous) / previous);
}

const moneyRows: Array<[keyof Figures, DashboardMessageKey]> = [
  ['captured', 'overview.figure.captured'],
  ['refunded', 'overview.figure.refunded'],
  ['lost', 'overview.figure.lost'],
  ['net', 'overview.figure.net'],
];
const countRows: Array<[keyof Figures, DashboardMessageKey]> = [
  ['succeeded', 'overview.figure.succeeded'],
  ['authorized', 'overview.figure.authorized'],
];

/**
 * MRR per currency and churn over the last 30 days, computed by the server (docs/dashboard.md, "MRR
 * and churn"); read on its own, so the payment figures never wait for it.
 */
function RecurringFigures({ base }: { base: string }) {
  const t = useT();
  const revenue = useApiQuery<RecurringRevenue>(`/accounts${base}/recurring-revenue`);
  const data = revenue.data;
  if (revenue.error) return <ErrorNote error={revenue.error} />;
  if (!data) return null;
  return (
    <section className="stats" aria-labelledby="recurring-title" data-testid="recurring-revenue">
      <h2 id="recurring-title" className="visually-hidden">
        {t('overview.recurring')}
      </h2>
      {data.mrr.length === 0 ? (
        <div className="stat">
          <span className="stat-label">{t('overview.mrrNone')}</span>
          <span className="stat-value" data-testid="mrr">
            —
          </span>
          <span className="stat-previous">{t('overview.mrrEmpty')}</span>
        </div>
      ) : (
        data.mrr.map((m) => (
          <div className="stat" key={m.currency}>
            <span className="stat-label">{t('overview.mrr', { currency: m.currency })}</span>
            <span className="stat-value" data-testid={`mrr-${m.currency}`}>
              {formatMoney(m.amount, m.currency, undefined)}
            </span>
            <span className="stat-previous">{t('overview.mrrCount', { count: m.subscriptions })}</span>
          </div>
        ))
      )}
      <div className="stat">
        <span className="stat-label">{t('overview.churn')}</span>
        <span className="stat-value" data-testid="churn">
          {percent(data.churn.rate)}
        </span>
        <span className="stat-previous">
          {data.churn.rate === null
            ? t('overview.churnNone')
            : t('overview.churnDetail', { canceled: data.churn.canceled, active: data.churn.active_at_start })}
        </span>
      </div>
    </section>
  );
}

/** Gross, refunded and net volume per currency, payment counts, success rate and the funnel, each against the previous period. */
export function OverviewPage({ base, place }: PageScope) {
  const t = useT();
  const [days, setDays] = useState(30);
  const [chosen, setChosen] = useState<string | null>(null);
  const overview = useApiQuery<Overview>(`/accounts${base}/overview?days=${days}`);
  const data = overview.data;
  const currency = (chosen && data?.currencies.includes(chosen) ? chosen : data?.currencies[0]) ?? place.account.default_currency;
  const series = data?.days.filter((d) => d.currency === currency) ?? [];
  const previousSeries = data?.previous_days.filter((d) => d.currency === currency) ?? [];
  /** One figure of the chosen currency, each day against the same day of the previous period. */
  const chartOf = (key: keyof Figures): ChartPoint[] =>
    series.map((d, i) => ({ day: d.day, value: d[key], previousDay: previousSeries[i]?.day ?? d.day, previous: previousSeries[i]?.[key] ?? 0 }));
  const sum = (key: keyof Figures, period: 'current' | 'previous') => data?.figures.reduce((s, f) => s + f[period][key], 0) ?? 0;
  const versus = (previous: string, current: number, before: number) => {
    const delta = change(current, before);
    return delta === null ? t('overview.previous', { value: previous }) : t('overview.previousWithChange', { value: previous, change: delta });
  };
  return (
    <>
      <div className="page-head">
        <h1>{t('overview.title')}</h1>
        <label className="inline">
          {t('overview.period')}{' '}
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {[7, 30, 90].map((n) => (
              <option key={n} value={n}>
                {t('overview.lastDays', { days: n })}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={overview.error} />
      {!data ? (
        <Loading what={t('overview.loading')} />
      ) : (
        <>
          <p className="hint">
            {t('overview.periods', {
              from: utcDay(data.from),
              to: utcDay(data.to),
              previousFrom: utcDay(data.previous_from),
              previousTo: utcDay(data.previous_to),
            })}
          </p>
          <section className="stats" aria-label={t('overview.keyFigures')}>
            <div className="stat">
              <span className="stat-label">{t('overview.successfulPayments')}</span>
              <span className="stat-value" data-testid="successful-payments">
                {sum('succeeded', 'current')}
              </span>
              <span className="stat-previous">{versus(String(sum('succeeded', 'previous')), sum('succeeded', 'current'), sum('succeeded', 'previous'))}</span>
            </div>
            <div className="stat">
              <span className="stat-label">{t('overview.successRate')}</span>
              <span className="stat-value" data-testid="success-rate">
                {percent(data.success_rate)}
              </span>
              <span className="stat-previous">{t('overview.previous', { value: percent(data.previous_success_rate) })}</span>
            </div>
            <div className="stat">
              <span className="stat-label">{t('overview.figure.authorized')}</span>
              <span className="stat-value" data-testid="authorized-payments">
                {sum('authorized', 'current')}
              </span>
              <span className="stat-previous">{t('overview.authorizedApart')}</span>
            </div>
          </section>
          <RecurringFigures base={base} />
          {data.figures.length === 0 ? (
            <p>{t('overview.noPayments')}</p>
          ) : (
            data.figures.map((f) => {
              const money = (minor: number) => formatMoney(minor, f.currency, undefined);
              return (
                <table className="data figures" key={f.currency} data-testid={`figures-${f.currency}`}>
                  <caption>{t('overview.figuresIn', { currency: f.currency })}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('overview.col.figure')}</th>
                      <th scope="col" className="num">
                        {t('overview.col.current')}
                      </th>
                      <th scope="col" className="num">
                        {t('overview.col.previous')}
                      </th>
                      <th scope="col" className="num">
                        {t('overview.col.change')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {moneyRows.map(([key, label]) => (
                      <tr key={key} data-figure={key}>
                        <th scope="row">{t(label)}</th>
                        <td className="num">{money(f.current[key])}</td>
                        <td className="num">{money(f.previous[key])}</td>
                        <td className="num">{change(f.current[key], f.previous[key]) ?? '—'}</td>
                      </tr>
                    ))}
                    {countRows.map(([key, label]) => (
                      <tr key={key} data-figure={key}>
                        <th scope="row">{t(label)}</th>
                        <td className="num">
                          {key === 'authorized'
                            ? t('overview.countAndAmount', { count: f.current.authorized, amount: money(f.current.authorized_amount) })
                            : f.current[key]}
                        </td>
                        <td className="num">
                          {key === 'authorized'
                            ? t('overview.countAndAmount', { count: f.previous.authorized, amount: money(f.previous.authorized_amount) })
                            : f.previous[key]}
                        </td>
                        <td className="num">{change(f.current[key], f.previous[key]) ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              );
            })
          )}
          {data.currencies.length > 1 && (
            <label className="inline">
              {t('overview.chartCurrency')}{' '}
              <select value={currency} onChange={(e) => setChosen(e.target.value)}>
                {data.currencies.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
          )}
          {series.length > 0 && (
            <>
              <Chart
                title={t('overview.netVolume', { currency })}
                points={chartOf('net')}
                format={(v) => formatMoney(v, currency, undefined)}
                testId="chart-net"
              />
              <Chart title={t('overview.successfulPayments')} points={chartOf('succeeded')} format={(v) => String(Math.round(v))} testId="chart-succeeded" />
            </>
          )}
          {data.disputes.length > 0 && (
            <section aria-labelledby="disputes-figures-title" data-testid="dispute-figures">
              <h2 id="disputes-figures-title">{t('nav.disputes')}</h2>
              <dl>
                {data.disputes.map((d) => (
                  <div key={d.currency}>
                    <dt>{t('overview.disputed')}</dt>
                    <dd>{formatMoney(d.disputed, d.currency, undefined)}</dd>
                    <dt>{t('overview.lost')}</dt>
                    <dd>{formatMoney(d.lost, d.currency, undefined)}</dd>
                  </div>
                ))}
              </dl>
            </section>
          )}
          <section aria-labelledby="funnel-title">
            <h2 id="funnel-title">{t('overview.funnel')}</h2>
            <ol className="funnel">
              {(
                [
                  [t('overview.funnel.opened'), data.funnel.opened, data.previous_funnel.opened],
                  [t('overview.funnel.attempted'), data.funnel.attempted, data.previous_funnel.attempted],
                  [t('overview.funnel.paid'), data.funnel.paid, data.previous_funnel.paid],
                ] as const
              ).map(([label, value, previous]) => (
                <li key={label}>
                  <span className="funnel-label">{label}</span>
                  <span className="funnel-bar" style={{ width: `${data.funnel.opened ? (value / data.funnel.opened) * 100 : 0}%` }} />
                  <span className="funnel-value">
                    {value} <span className="stat-previous">{versus(String(previous), value, previous)}</span>
                  </span>
                </li>
              ))}
            </ol>
          </section>
        </>
      )}
    </>
  );
}
