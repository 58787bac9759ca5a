import { can } from '../../../src/domain/team/permissions';
import type { Invoice, InvoiceDetail, List } from '../api';
import { ErrorNote, Loading, StatusBadge } from '../components';
import { formatMoney, formatTime, statusLabel } from '../format';
import { useT } from '../i18n';
import type { PageScope } from '../Layout';
import { Pager, useCursorStack } from '../Pager';
import { useApiQuery } from '../queries';
import { Link, navigate, useLocation } from '../router';
import { periodText, StatusFilter } from './SubscriptionsPage';

const statuses: Invoice['status'][] = ['open', 'paid', 'uncollectible', 'void', 'draft'];

/** The Invoices list: newest first, by status or of one subscription; each links to its page. */
export function InvoicesPage({ base, place }: PageScope) {
  const t = useT();
  const { query } = useLocation();
  const status = query.get('status') ?? '';
  const subscription = query.get('subscription') ?? '';
  const cursors = useCursorStack();
  const params = new URLSearchParams();
  if (status) params.set('status', status);
  if (subscription) params.set('subscription', subscription);
  if (cursors.after) params.set('starting_after', cursors.after);
  const list = useApiQuery<List<Invoice>>(`/accounts${base}/invoices?${params}`);
  const here = `/dashboard${base}/invoices`;
  const go = (next: Record<string, string>) => {
    cursors.reset();
    const search = new URLSearchParams(Object.entries({ status, subscription, ...next }).filter(([, v]) => v));
    navigate(search.size ? `${here}?${search}` : here);
  };

  return (
    <>
      <h1>{t('invoices.title')}</h1>
      {subscription && (
        <p>
          {t('invoices.ofSubscription', { subscription })} <Link href={here}>{t('invoices.showAll')}</Link>
        </p>
      )}
      <div className="filters">
        <StatusFilter id="invoice-status" value={status} statuses={statuses} onChange={(value) => go({ status: value })} />
      </div>
      <ErrorNote error={list.error} />
      {!list.data ? (
        !list.error && <Loading what={t('invoices.loading')} />
      ) : list.data.data.length === 0 ? (
        <p>{status || subscription ? t('invoices.noneMatch') : t('common.none', { what: t('invoices.loading'), mode: place.mode })}</p>
      ) : (
        <>
          <table className="data" data-testid="invoices">
            <caption className="visually-hidden">{t('invoices.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('invoices.col.amount')}</th>
                <th scope="col">{t('invoices.col.status')}</th>
                <th scope="col">{t('invoices.col.customer')}</th>
                <th scope="col">{t('invoices.col.period')}</th>
                <th scope="col">{t('invoices.col.id')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((invoice) => (
                <tr key={invoice.id}>
                  <td className="num">{formatMoney(invoice.amount_due, invoice.currency.toUpperCase(), undefined)}</td>
                  <td>
                    <StatusBadge status={invoice.status} />
                  </td>
                  <td>{invoice.customer_email ?? invoice.customer}</td>
                  <td>{periodText(t, invoice.period_start, invoice.period_end)}</td>
                  <td>
                    <Link href={`${here}/${invoice.id}`}>{invoice.id}</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager atStart={cursors.atStart} hasMore={list.data.has_more} onPrevious={cursors.previous} onNext={() => cursors.next(list.data!.data.at(-1)!.id)} />
        </>
      )}
    </>
  );
}

/** One invoice: what it bills (proration lines marked), what was paid, and every charge tried. */
export function InvoiceDetailPage({ base, place, id }: PageScope & { id: string }) {
  const t = useT();
  const invoice = useApiQuery<InvoiceDetail>(`/accounts${base}/invoices/${id}`);
  const i = invoice.data;
  const role = place.account.role;
  const back = (
    <p>
      <Link href={`/dashboard${base}/invoices`}>{t('invoice.back')}</Link>
    </p>
  );
  if (!i) {
    return (
      <>
        {back}
        <ErrorNote error={invoice.error} />
        {!invoice.error && <Loading what={t('invoice.loading')} />}
      </>
    );
  }
  const money = (amount: number) => formatMoney(amount, i.currency.toUpperCase(), undefined);
  return (
    <>
      {back}
      <h1>
        {money(i.amount_due)} <StatusBadge status={i.status} />
      </h1>
      <p className="mono">{i.id}</p>
      <dl className="details" data-testid="invoice-details">
        <dt>{t('invoice.customer')}</dt>
        <dd>
          {can(role, 'customers.read') ? (
            <Link href={`/dashboard${base}/customers/${i.customer}`}>{i.customer_email ?? i.customer}</Link>
          ) : (
            (i.customer_email ?? i.customer)
          )}
        </dd>
        <dt>{t('invoice.subscription')}</dt>
        <dd>{i.subscription ? <Link href={`/dashboard${base}/subscriptions/${i.subscription}`}>{i.subscription}</Link> : '—'}</dd>
        <dt>{t('invoice.billingReason')}</dt>
        <dd>{statusLabel(i.billing_reason)}</dd>
        <dt>{t('invoice.period')}</dt>
        <dd>{periodText(t, i.period_start, i.period_end)}</dd>
        <dt>{t('invoice.amountPaid')}</dt>
        <dd>{money(i.amount_paid)}</dd>
        <dt>{t('invoice.amountRemaining')}</dt>
        <dd>{money(i.amount_remaining)}</dd>
        <dt>{t('invoice.attemptCount')}</dt>
        <dd>{i.attempt_count}</dd>
        <dt>{t('invoice.nextAttempt')}</dt>
        <dd>{i.next_payment_attempt ? formatTime(i.next_payment_attempt) : t('invoice.noNextAttempt')}</dd>
        <dt>{t('invoice.hostedPage')}</dt>
        <dd>
          <a href={i.hosted_invoice_url} target="_blank" rel="noreferrer">
            {t('invoice.hostedPageLink')}
          </a>
        </dd>
      </dl>
      <h2>{t('invoice.lines')}</h2>
      <table className="data" data-testid="invoice-lines">
        <caption className="visually-hidden">{t('invoice.lines')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('invoice.col.description')}</th>
            <th scope="col">{t('invoice.col.period')}</th>
            <th scope="col">{t('invoice.col.quantity')}</th>
            <th scope="col">{t('invoice.col.amount')}</th>
          </tr>
        </thead>
        <tbody>
          {i.lines.data.map((line) => (
            <tr key={line.id}>
              <td>
                {line.description} {line.proration && <span className="badge">{t('invoice.proration')}</span>}
              </td>
              <td>{periodText(t, line.period.start, line.period.end)}</td>
              <td className="num">{line.quantity}</td>
              <td className="num">{money(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              {t('invoice.total')}
            </th>
            <td className="num">{money(i.total)}</td>
          </tr>
        </tfoot>
      </table>
      <h2>{t('invoice.attempts')}</h2>
      {i.payments.length === 0 ? (
        <p>{t('invoice.noAttempts')}</p>
      ) : (
        <table className="data" data-testid="invoice-attempts">
          <caption className="visually-hidden">{t('invoice.attempts')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('invoice.col.payment')}</th>
              <th scope="col">{t('invoice.col.status')}</th>
              <th scope="col">{t('invoice.col.amountCharged')}</th>
              <th scope="col">{t('invoice.col.created')}</th>
            </tr>
          </thead>
          <tbody>
            {i.payments.map((p) => (
              <tr key={p.id}>
                <td>{can(role, 'payments.read') ? <Link href={`/dashboard${base}/payments/${p.id}`}>{p.id}</Link> : p.id}</td>
                <td>
                  <StatusBadge status={p.status_badge} />
                </td>
                <td className="num">{money(p.amount)}</td>
                <td>{formatTime(p.created)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
