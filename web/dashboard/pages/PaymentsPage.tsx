import { useState, type FormEvent } from 'react';
import { api, type List, type Payment } from '../api';
import { ErrorNote, Field, Loading, StatusBadge } from '../components';
import { formatMoney, formatTime, fromMinor, statusLabel, toMinor } from '../format';
import type { PageScope } from '../Layout';
import { Pager } from '../Pager';
import { Link, navigate, useLocation } from '../router';
import { useLoad } from '../use-load';
import { useT } from '../i18n';

/** The badges the list shows, which the status filter picks by (docs/dashboard.md, "Payment status badges"). */
const statuses = ['succeeded', 'partially_refunded', 'refunded', 'requires_capture', 'processing', 'requires_action', 'failed', 'canceled'];
const filterNames = ['status', 'created_from', 'created_to', 'amount_min', 'amount_max', 'email', 'last4', 'q'] as const;

/** The payment list: filters in the URL, cursor pagination, CSV export of the same filters. */
export function PaymentsPage({ base, place }: PageScope) {
  const { query } = useLocation();
  const t = useT();
  const currency = place.account.default_currency;
  const filters = new URLSearchParams();
  for (const name of filterNames) {
    const value = query.get(name);
    if (value) filters.set(name, value);
  }
  const after = query.get('starting_after');
  const listQuery = new URLSearchParams(filters);
  if (after) listQuery.set('starting_after', after);
  const list = useLoad(() => api<List<Payment>>('GET', `/accounts${base}/payments?${listQuery}`), `${base}?${listQuery}`);
  const [form, setForm] = useState(() => ({
    status: query.get('status') ?? '',
    created_from: query.get('created_from') ?? '',
    created_to: query.get('created_to') ?? '',
    amount_min: fromMinor(query.get('amount_min'), currency),
    amount_max: fromMinor(query.get('amount_max'), currency),
    email: query.get('email') ?? '',
    last4: query.get('last4') ?? '',
    q: query.get('q') ?? '',
  }));
  const [history, setHistory] = useState<string[]>([]);
  const here = `/dashboard${base}/payments`;
  const canSeeEmails = place.account.role !== 'viewer';

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [name, raw] of Object.entries(form)) {
      const value = name === 'amount_min' || name === 'amount_max' ? toMinor(raw, currency) : raw.trim();
      if (value) next.set(name, value);
    }
    setHistory([]);
    navigate(`${here}${next.size ? `?${next}` : ''}`);
  };
  const page = (cursor: string | null) => {
    const next = new URLSearchParams(filters);
    if (cursor) next.set('starting_after', cursor);
    navigate(`${here}${next.size ? `?${next}` : ''}`);
  };
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setForm({ ...form, [key]: e.target.value });

  return (
    <>
      <div className="page-head">
        <h1>{t('payments.title')}</h1>
        <a className="button secondary" href={`/dashboard/api/accounts${base}/payments/export.csv${filters.size ? `?${filters}` : ''}`} download>
          {t('payments.export')}
        </a>
      </div>
      <form className="filters" onSubmit={apply} aria-label={t('payments.filter')}>
        <Field id="f-q" label={t('payments.filter.q')}>
          <input id="f-q" value={form.q} onChange={set('q')} placeholder={t('payments.filter.qPlaceholder')} />
        </Field>
        <Field id="f-status" label={t('payments.filter.status')}>
          <select id="f-status" value={form.status} onChange={set('status')}>
            <option value="">{t('payments.filter.any')}</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="f-from" label={t('payments.filter.from')}>
          <input id="f-from" type="date" value={form.created_from} onChange={set('created_from')} />
        </Field>
        <Field id="f-to" label={t('payments.filter.to')}>
          <input id="f-to" type="date" value={form.created_to} onChange={set('created_to')} />
        </Field>
        <Field id="f-min" label={t('payments.filter.min', { currency })}>
          <input id="f-min" inputMode="decimal" value={form.amount_min} onChange={set('amount_min')} />
        </Field>
        <Field id="f-max" label={t('payments.filter.max', { currency })}>
          <input id="f-max" inputMode="decimal" value={form.amount_max} onChange={set('amount_max')} />
        </Field>
        {canSeeEmails && (
          <Field id="f-email" label={t('payments.filter.email')}>
            <input id="f-email" type="email" value={form.email} onChange={set('email')} />
          </Field>
        )}
        <Field id="f-last4" label={t('payments.filter.last4')}>
          <input id="f-last4" inputMode="numeric" maxLength={4} pattern="\d{4}" value={form.last4} onChange={set('last4')} />
        </Field>
        <button type="submit">{t('payments.filter.apply')}</button>
      </form>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? (
        <Loading what={t('payments.loading')} />
      ) : list.data && list.data.data.length === 0 ? (
        <p>{t('payments.none')}</p>
      ) : (
        list.data && (
          <>
            <table className="data">
              <caption className="visually-hidden">{t('payments.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('payments.col.amount')}</th>
                  <th scope="col">{t('payments.col.status')}</th>
                  <th scope="col">{t('payments.col.customer')}</th>
                  <th scope="col">{t('payments.col.card')}</th>
                  <th scope="col">{t('payments.col.date')}</th>
                  <th scope="col">{t('payments.col.id')}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((p) => (
                  <tr key={p.id}>
                    <td className="num">{formatMoney(p.amount, p.currency.toUpperCase(), undefined)}</td>
                    <td>
                      <StatusBadge status={p.status_badge} />
                    </td>
                    <td>{p.customer_email ?? '—'}</td>
                    <td>{p.payment_method?.last4
                        ? t('payments.card', { brand: p.payment_method.brand ?? t('payments.cardUnknownBrand'), last4: p.payment_method.last4 })
                        : '—'}</td>
                    <td>{formatTime(p.created)}</td>
                    <td>
                      <Link href={`${here}/${p.id}`}>{p.id}</Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              atStart={history.length === 0}
              hasMore={list.data.has_more}
              onPrevious={() => {
                page(history.at(-1) || null);
                setHistory(history.slice(0, -1));
              }}
              onNext={() => {
                setHistory([...history, after ?? '']);
                page(list.data!.data.at(-1)!.id);
              }}
            />
          </>
        )
      )}
    </>
  );
}
