import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { List, Payment } from '../api';
import { ErrorNote, Field, Loading, StatusBadge } from '../components';
import { EmailFilter } from '../EmailFilter';
import { formatMoney, formatTime, fromMinor, methodTypeLabels, methodTypeName, parseAmount, paymentMethodSummary, statusLabel } from '../format';
import { localPaymentMethods } from '../../../src/domain/payments/local-payment-methods';
import type { PageScope } from '../Layout';
import { Pager } from '../Pager';
import { SavedViews } from '../SavedViews';
import { Link, navigate, useLocation } from '../router';
import { useApiQuery } from '../queries';
import { useT } from '../i18n';

/**
 * The ways to pay the method filter picks by: those the dashboard names, then the local payment
 * methods (read from their table, not payment-method-types.ts, which is in the checkout page's first script).
 */
const methodFilter = [...Object.keys(methodTypeLabels), ...Object.keys(localPaymentMethods)];

/** The badges the list shows, which the status filter picks by (docs/dashboard.md, "Payment status badges"). */
const statuses = ['succeeded', 'partially_refunded', 'refunded', 'requires_capture', 'processing', 'requires_action', 'failed', 'canceled'];
const filterNames = ['status', 'payment_method', 'created_from', 'created_to', 'amount_min', 'amount_max', 'email', 'last4', 'q'] as const;

const TYPING_PAUSE_MS = 400;

type FilterForm = Record<(typeof filterNames)[number], string>;

function formFromQuery(query: URLSearchParams, currency: string): FilterForm {
  return {
    status: query.get('status') ?? '',
    payment_method: query.get('payment_method') ?? '',
    created_from: query.get('created_from') ?? '',
    created_to: query.get('created_to') ?? '',
    amount_min: fromMinor(query.get('amount_min'), currency),
    amount_max: fromMinor(query.get('amount_max'), currency),
    email: query.get('email') ?? '',
    last4: query.get('last4') ?? '',
    q: query.get('q') ?? '',
  };
}

/** The filter's URL parameters: only complete values (4 digits of last4, a whole id, an amount). */
function urlOf(form: FilterForm, currency: string): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of filterNames) {
    const raw = form[name].trim();
    if (!raw) continue;
    if (name === 'amount_min' || name === 'amount_max') {
      const minor = parseAmount(raw, currency);
      if (minor !== null) params.set(name, String(minor));
    } else if (name === 'last4') {
      if (/^\d{4}$/.test(raw)) params.set(name, raw);
    } else if (name === 'q') {
      if (/^(pay|cs)_[A-Za-z0-9]{1,60}$/.test(raw)) params.set(name, raw);
    } else if (name === 'email') {
      if (/^[^\s@]+@[^\s@]+$/.test(raw)) params.set(name, raw);
    } else {
      params.set(name, raw);
    }
  }
  return params;
}

/** The payment list: filters applied as they change and kept in the URL, saved views, cursor pagination, CSV export of the same filters. */
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
  const list = useApiQuery<List<Payment>>(`/accounts${base}/payments?${listQuery}`);
  const [form, setForm] = useState(() => formFromQuery(query, currency));
  const [history, setHistory] = useState<string[]>([]);
  const here = `/dashboard${base}/payments`;
  const canSeeEmails = place.account.role !== 'viewer';
  const search = filters.toString();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The URL is the filter: when it changes (back, forward, a saved view), the fields follow it.
  useEffect(() => {
    setForm(formFromQuery(new URLSearchParams(search), currency));
    setHistory([]);
  }, [search, currency]);
  useEffect(() => () => clearTimeout(timer.current), []);

  /** Puts the form's complete values in the URL (one history entry per change); half-typed values wait. */
  const apply = (next: FilterForm) => {
    clearTimeout(timer.current);
    const params = urlOf(next, currency);
    if (params.toString() !== search) navigate(`${here}${params.size ? `?${params}` : ''}`);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(form);
  };
  const page = (cursor: string | null) => {
    const next = new URLSearchParams(filters);
    if (cursor) next.set('starting_after', cursor);
    navigate(`${here}${next.size ? `?${next}` : ''}`);
  };
  /** Lists and dates apply at once; typed fields once typing pauses. */
  const set =
    (key: keyof FilterForm, typed = false) =>
    (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      const next = { ...form, [key]: e.target.value };
      setForm(next);
      clearTimeout(timer.current);
      if (typed) timer.current = setTimeout(() => apply(next), TYPING_PAUSE_MS);
      else apply(next);
    };

  return (
    <>
      <div className="page-head">
        <h1>{t('payments.title')}</h1>
        <a className="button secondary" href={`/dashboard/api/accounts${base}/payments/export.csv${filters.size ? `?${filters}` : ''}`} download>
          {t('payments.export')}
        </a>
      </div>
      <form className="filters" onSubmit={submit} aria-label={t('payments.filter')}>
        <Field id="f-q" label={t('payments.filter.q')}>
          <input id="f-q" value={form.q} onChange={set('q', true)} placeholder={t('payments.filter.qPlaceholder')} />
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
        <Field id="f-method" label={t('payments.filter.method')}>
          <select id="f-method" value={form.payment_method} onChange={set('payment_method')}>
            <option value="">{t('payments.filter.any')}</option>
            {methodFilter.map((type) => (
              <option key={type} value={type}>
                {methodTypeName(type, t)}
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
          <input id="f-min" inputMode="decimal" value={form.amount_min} onChange={set('amount_min', true)} />
        </Field>
        <Field id="f-max" label={t('payments.filter.max', { currency })}>
          <input id="f-max" inputMode="decimal" value={form.amount_max} onChange={set('amount_max', true)} />
        </Field>
        <Field id="f-last4" label={t('payments.filter.last4')}>
          <input id="f-last4" inputMode="numeric" maxLength={4} pattern="\d{4}" value={form.last4} onChange={set('last4', true)} />
        </Field>
      </form>
      {canSeeEmails && (
        <EmailFilter
          id="f-email"
          value={query.get('email') ?? ''}
          onApply={(email) => {
            const next = { ...form, email };
            setForm(next);
            apply(next);
          }}
        />
      )}
      <SavedViews place={place} page="payments" current={search} here={here} />
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
                    <td>{paymentMethodSummary(p.payment_method, t)}</td>
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
