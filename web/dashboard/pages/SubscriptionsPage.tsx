import { type FormEvent, useState } from 'react';
import { can } from '../../../src/domain/team/permissions';
import { api, type List, type Subscription, type SubscriptionDetail } from '../api';
import { ErrorNote, Field, Loading, StatusBadge } from '../components';
import { Confirm } from '../Confirm';
import { EmailFilter } from '../EmailFilter';
import { formatMoney, formatTime, statusLabel } from '../format';
import { useT, type DashboardTranslate } from '../i18n';
import type { PageScope } from '../Layout';
import { Pager, useCursorStack } from '../Pager';
import { useApiQuery } from '../queries';
import { Link, navigate, useLocation } from '../router';
import { useAction } from '../use-action';

const statuses: Subscription['status'][] = ['active', 'trialing', 'past_due', 'incomplete', 'unpaid', 'canceled'];

type Price = Subscription['items']['data'][number]['price'];

/** "$20.00 / month", "$60.00 / 3 months": what one period of `price` × `quantity` bills. */
export function priceEvery(t: DashboardTranslate, price: Price, quantity = 1): string {
  const amount = formatMoney(price.unit_amount * quantity, price.currency.toUpperCase(), undefined);
  if (!price.recurring) return amount;
  return t('billing.every', { amount, count: price.recurring.interval_count, interval: price.recurring.interval });
}

/** "1 Jun 2026 – 1 Jul 2026". */
export const periodText = (t: DashboardTranslate, start: number | null, end: number | null) =>
  t('billing.period', { start: formatTime(start), end: formatTime(end) });

/** The status filter of a billing list: a select that applies as soon as it changes. */
export function StatusFilter({ id, value, statuses, onChange }: { id: string; value: string; statuses: string[]; onChange: (status: string) => void }) {
  const t = useT();
  return (
    <Field id={id} label={t('billing.filter.status')}>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('billing.filter.any')}</option>
        {statuses.map((s) => (
          <option key={s} value={s}>
            {statusLabel(s)}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The Subscriptions list: newest first, by status, by customer email or of one customer; each links to its page. */
export function SubscriptionsPage({ base, place }: PageScope) {
  const t = useT();
  const { query } = useLocation();
  const status = query.get('status') ?? '';
  const email = query.get('email') ?? '';
  const customer = query.get('customer') ?? '';
  const cursors = useCursorStack();
  const params = new URLSearchParams();
  if (status) params.set('status', status);
  if (email) params.set('email', email);
  if (customer) params.set('customer', customer);
  if (cursors.after) params.set('starting_after', cursors.after);
  const list = useApiQuery<List<Subscription>>(`/accounts${base}/subscriptions?${params}`);
  const here = `/dashboard${base}/subscriptions`;
  const go = (next: Record<string, string>) => {
    cursors.reset();
    const search = new URLSearchParams(Object.entries({ status, email, customer, ...next }).filter(([, v]) => v));
    navigate(search.size ? `${here}?${search}` : here);
  };

  return (
    <>
      <h1>{t('subscriptions.title')}</h1>
      {customer && (
        <p>
          {t('subscriptions.ofCustomer', { customer })} <Link href={here}>{t('subscriptions.showAll')}</Link>
        </p>
      )}
      <div className="filters">
        <StatusFilter id="subscription-status" value={status} statuses={statuses} onChange={(value) => go({ status: value })} />
      </div>
      {can(place.account.role, 'customers.read_email') && !customer && (
        <EmailFilter id="subscription-email" value={email} onApply={(value) => go({ email: value })} />
      )}
      <ErrorNote error={list.error} />
      {!list.data ? (
        !list.error && <Loading what={t('subscriptions.loading')} />
      ) : list.data.data.length === 0 ? (
        <p>{status || email || customer ? t('subscriptions.noneMatch') : t('common.none', { what: t('subscriptions.loading'), mode: place.mode })}</p>
      ) : (
        <>
          <table className="data" data-testid="subscriptions">
            <caption className="visually-hidden">{t('subscriptions.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('subscriptions.col.customer')}</th>
                <th scope="col">{t('subscriptions.col.price')}</th>
                <th scope="col">{t('subscriptions.col.status')}</th>
                <th scope="col">{t('subscriptions.col.periodEnd')}</th>
                <th scope="col">{t('subscriptions.col.id')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((s) => {
                const item = s.items.data[0]!;
                return (
                  <tr key={s.id}>
                    <td>{s.customer_email ?? s.customer}</td>
                    <td className="num">{priceEvery(t, item.price, item.quantity)}</td>
                    <td>
                      <StatusBadge status={s.status} />
                      {s.cancel_at_period_end && <span className="hint"> {t('subscription.cancelAtPeriodEnd')}</span>}
                    </td>
                    <td>{s.status === 'canceled' ? '—' : formatTime(s.current_period_end)}</td>
                    <td>
                      <Link href={`${here}/${s.id}`}>{s.id}</Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Pager atStart={cursors.atStart} hasMore={list.data.has_more} onPrevious={cursors.previous} onNext={() => cursors.next(list.data!.data.at(-1)!.id)} />
        </>
      )}
    </>
  );
}

type Pending = 'cancel_now' | 'cancel_at_end' | { quantity: number } | null;

/** Cancel now, cancel at period end or resume, change the quantity: each irreversible one confirmed first. */
function SubscriptionActions({ base, s }: { base: string; s: SubscriptionDetail }) {
  const t = useT();
  const action = useAction();
  const [pending, setPending] = useState<Pending>(null);
  const [quantity, setQuantity] = useState('');
  const path = `/accounts${base}/subscriptions/${s.id}`;
  const item = s.items.data[0]!;
  const changes = [`/accounts${base}/subscriptions`, `/accounts${base}/invoices`, `/accounts${base}/recurring-revenue`];
  const run = (work: () => Promise<unknown>, notice: string) =>
    void action.act(async () => {
      await work();
      setPending(null);
      return notice;
    }, changes);
  const wanted = Number(quantity);
  const validQuantity = quantity.trim() !== '' && Number.isInteger(wanted) && wanted >= 1 && wanted <= 10_000 && wanted !== item.quantity;
  const askQuantity = (e: FormEvent) => {
    e.preventDefault();
    if (validQuantity) setPending({ quantity: wanted });
  };

  return (
    <section aria-labelledby="subscription-actions-title" className="panel">
      <h2 id="subscription-actions-title">{t('subscription.actions')}</h2>
      <ErrorNote error={action.error} />
      {action.notice && <p role="status">{action.notice}</p>}
      <div className="actions">
        <button type="button" className="danger" disabled={action.busy || pending !== null} onClick={() => setPending('cancel_now')}>
          {t('subscription.cancelNow')}
        </button>{' '}
        {s.cancel_at_period_end ? (
          <button
            type="button"
            className="secondary"
            disabled={action.busy || pending !== null}
            onClick={() => run(() => api('POST', path, { cancel_at_period_end: false }), t('subscription.resumedNotice'))}
          >
            {t('subscription.resume')}
          </button>
        ) : (
          <button type="button" className="secondary" disabled={action.busy || pending !== null} onClick={() => setPending('cancel_at_end')}>
            {t('subscription.cancelAtEnd')}
          </button>
        )}
      </div>
      <form className="inline-form" onSubmit={askQuantity}>
        <Field id="subscription-quantity" label={t('subscription.newQuantity')} hint={t('subscription.quantityHint')}>
          <input
            id="subscription-quantity"
            type="number"
            min={1}
            max={10_000}
            step={1}
            inputMode="numeric"
            value={quantity}
            placeholder={String(item.quantity)}
            aria-describedby="subscription-quantity-hint"
            onChange={(e) => setQuantity(e.target.value)}
          />
        </Field>
        <button type="submit" className="secondary" disabled={action.busy || pending !== null || !validQuantity}>
          {t('subscription.changeQuantity')}
        </button>
      </form>
      {pending === 'cancel_now' && (
        <Confirm
          message={t('subscription.cancelNowConfirm')}
          confirmLabel={t('subscription.cancelNowButton')}
          busy={action.busy}
          onConfirm={() => run(() => api('POST', `${path}/cancel`), t('subscription.canceledNotice'))}
          onCancel={() => setPending(null)}
        />
      )}
      {pending === 'cancel_at_end' && (
        <Confirm
          message={t('subscription.cancelAtEndConfirm', { date: formatTime(s.current_period_end) })}
          confirmLabel={t('subscription.cancelAtEndButton')}
          busy={action.busy}
          onConfirm={() => run(() => api('POST', path, { cancel_at_period_end: true }), t('subscription.endingNotice'))}
          onCancel={() => setPending(null)}
        />
      )}
      {pending !== null && typeof pending === 'object' && (
        <Confirm
          message={t('subscription.quantityConfirm', { from: item.quantity, to: pending.quantity, amount: priceEvery(t, item.price, pending.quantity) })}
          confirmLabel={t('subscription.quantityConfirmButton')}
          busy={action.busy}
          onConfirm={() =>
            run(
              async () => {
                await api('POST', path, { quantity: pending.quantity });
                setQuantity('');
              },
              t('subscription.quantityNotice', { quantity: pending.quantity }),
            )
          }
          onCancel={() => setPending(null)}
        />
      )}
    </section>
  );
}

/** One subscription: its item, period, trial, whether it ends, its invoices and timeline; and, as the role allows, its actions. */
export function SubscriptionDetailPage({ base, place, id }: PageScope & { id: string }) {
  const t = useT();
  const subscription = useApiQuery<SubscriptionDetail>(`/accounts${base}/subscriptions/${id}`);
  const s = subscription.data;
  const role = place.account.role;
  if (!s) {
    return (
      <>
        <p>
          <Link href={`/dashboard${base}/subscriptions`}>{t('subscription.back')}</Link>
        </p>
        <ErrorNote error={subscription.error} />
        {!subscription.error && <Loading what={t('subscription.loading')} />}
      </>
    );
  }
  const item = s.items.data[0]!;
  const money = (amount: number) => formatMoney(amount, s.currency.toUpperCase(), undefined);
  return (
    <>
      <p>
        <Link href={`/dashboard${base}/subscriptions`}>{t('subscription.back')}</Link>
      </p>
      <ErrorNote error={subscription.error} />
      <h1>
        {priceEvery(t, item.price, item.quantity)} <StatusBadge status={s.status} />
      </h1>
      <p className="mono">{s.id}</p>
      <dl className="details" data-testid="subscription-details">
        <dt>{t('subscription.customer')}</dt>
        <dd>
          {can(role, 'customers.read') ? (
            <Link href={`/dashboard${base}/customers/${s.customer}`}>{s.customer_email ?? s.customer}</Link>
          ) : (
            (s.customer_email ?? s.customer)
          )}
        </dd>
        <dt>{t('subscription.quantity')}</dt>
        <dd>{s.quantity}</dd>
        <dt>{t('subscription.currentPeriod')}</dt>
        <dd>{periodText(t, s.current_period_start, s.current_period_end)}</dd>
        <dt>{t('subscription.trial')}</dt>
        <dd>{s.trial_end ? periodText(t, s.trial_start, s.trial_end) : t('subscription.noTrial')}</dd>
        {s.status === 'canceled' ? (
          <>
            <dt>{t('subscription.endedAt')}</dt>
            <dd>{formatTime(s.ended_at)}</dd>
          </>
        ) : (
          <>
            <dt>{t('subscription.cancelAtPeriodEnd')}</dt>
            <dd data-testid="cancel-at-period-end">
              {s.cancel_at_period_end
                ? t('subscription.endsOn', { date: formatTime(s.current_period_end) })
                : t('subscription.renews', { date: formatTime(s.current_period_end) })}
            </dd>
          </>
        )}
        <dt>{t('subscription.latestInvoice')}</dt>
        <dd>{s.latest_invoice ? <Link href={`/dashboard${base}/invoices/${s.latest_invoice}`}>{s.latest_invoice}</Link> : '—'}</dd>
        <dt>{t('subscription.created')}</dt>
        <dd>{formatTime(s.created)}</dd>
      </dl>
      {s.status !== 'canceled' && can(role, 'subscriptions.manage') && <SubscriptionActions base={base} s={s} />}
      <h2>{t('subscription.items')}</h2>
      <table className="data" data-testid="subscription-items">
        <caption className="visually-hidden">{t('subscription.items')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('subscription.col.price')}</th>
            <th scope="col">{t('subscription.col.quantity')}</th>
            <th scope="col">{t('subscription.col.perPeriod')}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              {item.price.nickname ?? priceEvery(t, item.price)} <span className="mono hint">{item.price.id}</span>
            </td>
            <td className="num">{item.quantity}</td>
            <td className="num">{priceEvery(t, item.price, item.quantity)}</td>
          </tr>
        </tbody>
      </table>
      <h2>{t('subscription.invoices')}</h2>
      {s.invoices.length === 0 ? (
        <p>{t('subscription.noInvoices')}</p>
      ) : (
        <>
          <table className="data" data-testid="subscription-invoices">
            <caption className="visually-hidden">{t('subscription.invoices')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('invoices.col.amount')}</th>
                <th scope="col">{t('invoices.col.status')}</th>
                <th scope="col">{t('invoices.col.period')}</th>
                <th scope="col">{t('invoices.col.id')}</th>
              </tr>
            </thead>
            <tbody>
              {s.invoices.map((invoice) => (
                <tr key={invoice.id}>
                  <td className="num">{money(invoice.amount_due)}</td>
                  <td>
                    <StatusBadge status={invoice.status} />
                  </td>
                  <td>{periodText(t, invoice.period_start, invoice.period_end)}</td>
                  <td>
                    <Link href={`/dashboard${base}/invoices/${invoice.id}`}>{invoice.id}</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            <Link href={`/dashboard${base}/invoices?subscription=${s.id}`}>{t('subscription.allInvoices')}</Link>
          </p>
        </>
      )}
      <h2>{t('subscription.timeline')}</h2>
      <ol className="timeline" data-testid="subscription-timeline">
        {s.timeline.map((e) => (
          <li key={e.id}>
            <span>{e.type}</span>{' '}
            {e.object !== s.id && (
              <>
                <Link href={`/dashboard${base}/invoices/${e.object}`}>{e.object}</Link>{' '}
              </>
            )}
            <time>{formatTime(e.created)}</time>
          </li>
        ))}
      </ol>
    </>
  );
}
