import { useState } from 'react';
import { api } from '../api';
import { BarChart } from '../BarChart';
import { ErrorNote, Loading } from '../components';
import { formatMoney } from '../format';
import type { PageScope } from '../Layout';
import { useLoad } from '../use-load';

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
  const [days, setDays] = useState(30);
  const overview = useLoad(() => api<Overview>('GET', `/accounts${base}/overview?days=${days}`), `${base}:${days}`);
  const data = overview.data;
  const currency = data?.currencies[0] ?? place.account.default_currency;
  const series = data?.days.filter((d) => d.currency === currency) ?? [];
  const funnel = data?.funnel;
  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
        <label className="inline">
          Period{' '}
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            <option value={7}>Last 7 days</option>
            <option value={30}>Last 30 days</option>
            <option value={90}>Last 90 days</option>
          </select>
        </label>
      </div>
      <ErrorNote error={overview.error} />
      {!data ? (
        <Loading what="the overview" />
      ) : (
        <>
          <section className="stats" aria-label="Key figures">
            <div className="stat">
              <span className="stat-label">Success rate</span>
              <span className="stat-value" data-testid="success-rate">{percent(data.success_rate)}</span>
            </div>
            <div className="stat">
              <span className="stat-label">Successful payments</span>
              <span className="stat-value">{series.reduce((s, d) => s + d.succeeded, 0)}</span>
            </div>
          </section>
          {series.length === 0 ? (
            <p>No payments in this period yet.</p>
          ) : (
            <>
              <BarChart
                title={`Volume (${currency})`}
                points={series.map((d) => ({ label: d.day, value: d.volume }))}
                format={(v) => formatMoney(v, currency, undefined)}
              />
              <BarChart title="Successful payments" points={series.map((d) => ({ label: d.day, value: d.succeeded }))} format={(v) => String(v)} />
            </>
          )}
          {funnel && (
            <section aria-labelledby="funnel-title">
              <h2 id="funnel-title">Checkout funnel</h2>
              <ol className="funnel">
                {[
                  ['Sessions opened', funnel.opened],
                  ['Payment attempted', funnel.attempted],
                  ['Paid', funnel.paid],
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
