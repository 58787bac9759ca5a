import { useState } from 'react';
import { api } from '../api';
import { BarChart } from '../BarChart';
import { ErrorNote, Loading } from '../components';
import { formatMoney } from '../format';
import type { PageScope } from '../Layout';
import { useLoad } from '../use-load';
import { useT } from '../i18n';

interface Overview {
  from: string;
  to: string;
  currencies: string[];
  days: Array<{ day: string; currency: string; succeeded: number; finished: number; volume: number }>;
  success_rate: number | null;
  funnel: { opened: number; attempted: number; paid: number };
}

const percent = (value: number | null) => (value === null ? '—' : new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(value));

/** Volume, successful payments per day, success rate and the checkout funnel. */
export function OverviewPage({ base, place }: PageScope) {
  const t = useT();
  const [days, setDays] = useState(30);
  const overview = useLoad(() => api<Overview>('GET', `/accounts${base}/overview?days=${days}`), `${base}:${days}`);
  const data = overview.data;
  const currency = data?.currencies[0] ?? place.account.default_currency;
  const series = data?.days.filter((d) => d.currency === currency) ?? [];
  const funnel = data?.funnel;
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
          <section className="stats" aria-label={t('overview.keyFigures')}>
            <div className="stat">
              <span className="stat-label">{t('overview.successRate')}</span>
              <span className="stat-value" data-testid="success-rate">{percent(data.success_rate)}</span>
            </div>
            <div className="stat">
              <span className="stat-label">{t('overview.successfulPayments')}</span>
              <span className="stat-value">{series.reduce((s, d) => s + d.succeeded, 0)}</span>
            </div>
          </section>
          {series.length === 0 ? (
            <p>{t('overview.noPayments')}</p>
          ) : (
            <>
              <BarChart
                title={t('overview.volume', { currency })}
                points={series.map((d) => ({ label: d.day, value: d.volume }))}
                format={(v) => formatMoney(v, currency, undefined)}
              />
              <BarChart title={t('overview.successfulPayments')} points={series.map((d) => ({ label: d.day, value: d.succeeded }))} format={(v) => String(v)} />
            </>
          )}
          {funnel && (
            <section aria-labelledby="funnel-title">
              <h2 id="funnel-title">{t('overview.funnel')}</h2>
              <ol className="funnel">
                {[
                  [t('overview.funnel.opened'), funnel.opened],
                  [t('overview.funnel.attempted'), funnel.attempted],
                  [t('overview.funnel.paid'), funnel.paid],
                ].map(([label, value]) => (
                  <li key={label as string}>
                    <span className="funnel-label">{label}</span>
                    <span className="funnel-bar" style={{ width: `${funnel.opened ? ((value as number) / funnel.opened) * 100 : 0}%` }} />
                    <span className="funnel-value">{value}</span>
                  </li>
                ))}
              </ol>
            </section>
          )}
        </>
      )}
    </>
  );
}
