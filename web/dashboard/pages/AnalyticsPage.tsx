import { useState, type FormEvent, type ReactNode } from 'react';
import { BarChart } from '../BarChart';
import { ColumnHeads, ErrorNote, Loading } from '../components';
import { methodTypeLabels, methodTypeName } from '../format';
import { localMethodName } from '../../../src/domain/payments/local-payment-methods';
import type { PageScope } from '../Layout';
import { navigate, useLocation } from '../router';
import { useApiQuery } from '../queries';
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
    variants: Array<{
      variant: string;
      exposed: number;
      conversions: number;
      conversion_rate: number;
      conversion_rate_interval: Interval;
      difference_to_control: (Interval & { difference: number }) | null;
    }>;
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
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { days, from: isoDay(today - (days - 1) * DAY_MS), to: isoDay(today) };
}

const utcDay = (day: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
const percent = (value: number | null) =>
  value === null ? '—' : new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(value);
const count = (value: number) => new Intl.NumberFormat().format(value);
const signedPercent = (value: number) =>
  new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(value);

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
  const analytics = useApiQuery<Analytics>(`/accounts${base}/analytics?from=${period.from}&to=${period.to}`);
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
  const declined = data?.decline_reasons.reduce((sum, r) => sum + r.count, 0) ?? 0;
  const funnelSteps = data
    ? [
        { key: 'opened', name: t('overview.funnel.opened'), count: data.funnel.opened },
        { key: 'attempted', name: t('overview.funnel.attempted'), count: data.funnel.attempted },
        { key: 'paid', name: t('overview.funnel.paid'), count: data.funnel.paid },
      ]
    : [];
  const methodName = (method: string) => (methodTypeLabels[method] || localMethodName(method) ? methodTypeName(method, t) : method);
  const threeDSecureName = (status: string) => (threeDSecureLabels[status] ? t(threeDSecureLabels[status]!) : status);

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
          <p className="hint" data-testid="analytics-period">
            {t('analytics.period', { from: utcDay(data.from), to: utcDay(data.to) })}
          </p>

          <div className="figure-pair">
            <BarChart testId="analytics-funnel-chart" bars={funnelSteps.map((s) => ({ label: s.name, value: s.count }))} format={count} />
            <FigureTable
              testId="analytics-funnel"
              caption={t('overview.funnel')}
              heads={[t('analytics.col.step'), t('analytics.col.sessions'), t('analytics.col.ofPrevious')]}
              rows={funnelSteps.map((s, i) => ({ key: s.key, heading: s.name, cells: [s.count, i === 0 ? '—' : step(s.count, funnelSteps[i - 1]!.count)] }))}
            />
          </div>
          <div className="figure-pair">
            <BarChart
              testId="analytics-methods-chart"
              bars={data.payment_methods.map((m) => ({ label: methodName(m.payment_method), value: m.success_rate ?? 0 }))}
              format={(v) => percent(v)}
              max={1}
            />
            <FigureTable
              testId="analytics-methods"
              caption={t('analytics.methods')}
              heads={[t('analytics.col.method'), t('analytics.col.finished'), t('analytics.col.approved'), t('overview.successRate')]}
              rows={data.payment_methods.map((m) => ({
                key: m.payment_method,
                heading: methodName(m.payment_method),
                cells: [m.finished, m.approved, percent(m.success_rate)],
              }))}
              empty={t('overview.noPayments')}
            />
          </div>
          <div className="figure-pair">
            <BarChart testId="analytics-declines-chart" bars={data.decline_reasons.map((d) => ({ label: d.code, value: d.count }))} format={count} />
            <FigureTable
              testId="analytics-declines"
              caption={t('analytics.declines')}
              heads={[t('payment.processor.declineCode'), t('analytics.col.payments'), t('analytics.col.share')]}
              rows={data.decline_reasons.map((d) => ({ key: d.code, heading: <code>{d.code}</code>, cells: [d.count, percent(d.count / declined)] }))}
              empty={t('analytics.noDeclines')}
            />
          </div>
          <div className="figure-pair">
            <BarChart
              testId="analytics-3ds-chart"
              bars={data.three_d_secure.map((o) => ({ label: threeDSecureName(o.status), value: o.count }))}
              format={count}
            />
            <FigureTable
              testId="analytics-3ds"
              caption={t('analytics.threeDSecure')}
              heads={[t('analytics.col.outcome'), t('analytics.col.payments')]}
              rows={data.three_d_secure.map((o) => ({ key: o.status, heading: threeDSecureName(o.status), cells: [o.count] }))}
              empty={t('overview.noPayments')}
            />
          </div>

          <section aria-labelledby="analytics-experiments">
            <h2 id="analytics-experiments">{t('analytics.experiments')}</h2>
            {data.experiments.length === 0 && <p>{t('analytics.noExperiments')}</p>}
            {data.experiments.map((x) => (
              <div className="table-scroll" key={x.experiment}>
                <FigureTable
                  testId={`analytics-experiment-${x.key}`}
                  caption={
                    <>
                      <code>{x.key}</code> — {x.verdict.message}
                    </>
                  }
                  heads={[
                    t('analytics.col.variant'),
                    t('analytics.col.exposed'),
                    t('analytics.col.converted'),
                    t('analytics.col.conversion'),
                    t('analytics.col.difference'),
                  ]}
                  rows={x.variants.map((v) => ({
                    key: v.variant,
                    heading: `${v.variant}${v.variant === x.control ? ` (${t('analytics.control')})` : ''}`,
                    cells: [
                      v.exposed,
                      v.conversions,
                      t('analytics.withInterval', {
                        value: percent(v.conversion_rate),
                        lower: percent(v.conversion_rate_interval.lower),
                        upper: percent(v.conversion_rate_interval.upper),
                      }),
                      v.difference_to_control
                        ? t('analytics.withInterval', {
                            value: signedPercent(v.difference_to_control.difference),
                            lower: signedPercent(v.difference_to_control.lower),
                            upper: signedPercent(v.difference_to_control.upper),
                          })
                        : '—',
                    ],
                  }))}
                />
              </div>
            ))}
          </section>
        </>
      )}
    </>
  );
}

/** One block of the view: a captioned table whose rows are a heading cell and figures, or a line saying there are none. */
function FigureTable(props: {
  testId: string;
  caption: ReactNode;
  heads: string[];
  rows: Array<{ key: string; heading: ReactNode; cells: ReactNode[] }>;
  empty?: string;
}) {
  return (
    <table className="data" data-testid={props.testId}>
      <caption>{props.caption}</caption>
      <ColumnHeads labels={props.heads} />
      <tbody>
        {props.rows.length === 0 ? (
          <tr>
            <td colSpan={props.heads.length}>{props.empty}</td>
          </tr>
        ) : (
          props.rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.heading}</th>
              {row.cells.map((cell, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, never reordered: its position is its identity.
                <td key={i}>{cell}</td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
