import { useState } from 'react';
import type { CheckoutSession, List, SessionHistory } from '../api';
import { ErrorNote, Loading, StatusBadge } from '../components';
import { formatMoney, formatTime } from '../format';
import type { PageScope } from '../Layout';
import { Pager, useCursorStack } from '../Pager';
import { Link } from '../router';
import { useApiQuery } from '../queries';
import { useT } from '../i18n';

/** Checkout sessions, newest first, with a status filter and cursor pagination. */
export function SessionsPage({ base }: PageScope) {
  const [status, setStatus] = useState('');
  const t = useT();
  const pages = useCursorStack();
  const after = pages.after;
  const query = new URLSearchParams({ ...(status ? { status } : {}), ...(after ? { starting_after: after } : {}) });
  const list = useApiQuery<List<CheckoutSession>>(`/accounts${base}/checkout-sessions?${query}`);
  return (
    <>
      <div className="page-head">
        <h1>{t('sessions.title')}</h1>
        <label className="inline">
          {t('sessions.status')}{' '}
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              pages.reset();
            }}
          >
            <option value="">{t('sessions.any')}</option>
            <option value="open">open</option>
            <option value="complete">complete</option>
            <option value="expired">expired</option>
          </select>
        </label>
      </div>
      <ErrorNote error={list.error} />
      {!list.data ? (
        <Loading what={t('sessions.loading')} />
      ) : list.data.data.length === 0 ? (
        <p>{t('sessions.none')}</p>
      ) : (
        <>
          <table className="data">
            <caption className="visually-hidden">{t('sessions.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('sessions.col.total')}</th>
                <th scope="col">{t('sessions.col.status')}</th>
                <th scope="col">{t('sessions.col.customer')}</th>
                <th scope="col">{t('sessions.col.created')}</th>
                <th scope="col">{t('sessions.col.id')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((s) => (
                <tr key={s.id}>
                  <td className="num">{formatMoney(s.amount_total, s.currency.toUpperCase(), undefined)}</td>
                  <td>
                    <StatusBadge status={s.status} />
                  </td>
                  <td>{s.customer_email ?? '—'}</td>
                  <td>{formatTime(s.created)}</td>
                  <td>
                    <Link href={`/dashboard${base}/sessions/${s.id}`}>{s.id.slice(0, 18)}…</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager atStart={pages.atStart} hasMore={list.data.has_more} onPrevious={pages.previous} onNext={() => pages.next(list.data!.data.at(-1)!.id)} />
        </>
      )}
    </>
  );
}

/** One checkout session: its items, its payment attempts and its events. */
export function SessionDetailPage({ base, id }: PageScope & { id: string }) {
  const t = useT();
  const session = useApiQuery<SessionHistory>(`/accounts${base}/checkout-sessions/${id}`);
  const s = session.data;
  if (session.error) return <ErrorNote error={session.error} />;
  if (!s) return <Loading what={t('session.loading')} />;
  const money = (amount: number) => formatMoney(amount, s.currency.toUpperCase(), undefined);
  return (
    <>
      <p>
        <Link href={`/dashboard${base}/sessions`}>{t('session.back')}</Link>
      </p>
      <h1>
        {money(s.amount_total)} <StatusBadge status={s.status} />
      </h1>
      <p className="mono">{s.id}</p>
      {s.url && (
        <p>
          {t('session.checkoutPage')} <a href={s.url}>{s.url}</a>
        </p>
      )}
      <h2>{t('session.items')}</h2>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">{t('session.col.item')}</th>
            <th scope="col">{t('session.col.quantity')}</th>
            <th scope="col">{t('session.col.amount')}</th>
          </tr>
        </thead>
        <tbody>
          {s.line_items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, never reordered: its position is its identity.
            <tr key={i}>
              <td>{item.name}</td>
              <td className="num">{item.quantity}</td>
              <td className="num">{money(item.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>{t('session.attempts')}</h2>
      {s.payments.length === 0 ? (
        <p>{t('session.noAttempt')}</p>
      ) : (
        <ul>
          {s.payments.map((p) => (
            <li key={p.id}>
              <Link href={`/dashboard${base}/payments/${p.id}`}>{p.id}</Link> <StatusBadge status={p.status_badge} /> {formatTime(p.created)}
            </li>
          ))}
        </ul>
      )}
      <h2>{t('session.timeline')}</h2>
      <ol className="timeline">
        <li>
          <span>{t('session.opened')}</span> <time>{formatTime(s.created)}</time>
        </li>
        {s.timeline.map((e) => (
          <li key={e.id}>
            <span>
              {e.type === 'checkout.session.completed' ? t('session.completed') : e.type === 'checkout.session.expired' ? t('session.expired') : e.type}
            </span>{' '}
            <time>{formatTime(e.created)}</time>
          </li>
        ))}
      </ol>
    </>
  );
}
