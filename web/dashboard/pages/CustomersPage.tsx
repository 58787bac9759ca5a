import { Fragment, useState } from 'react';
import { api, type Customer, type CustomerDetail, type GuestCustomer, type List, type Payment } from '../api';
import { ErrorNote, Loading, StatusBadge } from '../components';
import { Confirm } from '../Confirm';
import { EmailFilter } from '../EmailFilter';
import { formatMoney, formatTime, paymentMethodSummary } from '../format';
import type { PageScope } from '../Layout';
import { Pager, useCursorStack } from '../Pager';
import { Link, navigate, useLocation } from '../router';
import { useAction } from '../use-action';
import { useApiQuery } from '../queries';
import { useT } from '../i18n';
import { can } from '../../../src/domain/team/permissions';

/**
 * Guests (as Stripe's guest customers): shoppers who paid with an email and are no customer, read
 * from the payments; read-only rows, each marked "Guest", linking to their payments when the role
 * may filter payments by email.
 */
function GuestCustomers({ base, email, seesEmails }: { base: string; email: string; seesEmails: boolean }) {
  const t = useT();
  const params = new URLSearchParams();
  if (email) params.set('email', email);
  const list = useApiQuery<List<GuestCustomer>>(`/accounts${base}/guest-customers?${params}`);
  if (list.error) return <ErrorNote error={list.error} />;
  if (!list.data || list.data.data.length === 0) return null;
  return (
    <section aria-labelledby="guests-title">
      <h2 id="guests-title">{t('customers.guests')}</h2>
      <p className="hint">{t('customers.guestsHint')}</p>
      <table className="data" data-testid="guest-customers">
        <caption className="visually-hidden">{t('customers.guests')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('customers.col.email')}</th>
            <th scope="col">{t('customers.col.payments')}</th>
            <th scope="col">{t('customers.col.lastPayment')}</th>
          </tr>
        </thead>
        <tbody>
          {list.data.data.map((g) => (
            <tr key={g.email}>
              <td>
                {seesEmails ? <Link href={`/dashboard${base}/payments?email=${encodeURIComponent(g.email)}`}>{g.email}</Link> : g.email}{' '}
                <span className="badge">{t('customers.guest')}</span>
              </td>
              <td className="num">{g.payments}</td>
              <td>{formatTime(g.last_payment)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data.has_more && <p className="hint">{t('customers.guestsMore')}</p>}
    </section>
  );
}

/** The Customers list: newest first, or the customer with one email address; each links to its page. */
export function CustomersPage({ base, place }: PageScope) {
  const t = useT();
  const { query } = useLocation();
  const email = query.get('email') ?? '';
  const deleted = query.get('deleted');
  const cursors = useCursorStack();
  const params = new URLSearchParams();
  if (email) params.set('email', email);
  if (cursors.after) params.set('starting_after', cursors.after);
  const list = useApiQuery<List<Customer>>(`/accounts${base}/customers?${params}`);
  const here = `/dashboard${base}/customers`;
  const mayFilterByEmail = can(place.account.role, 'customers.read_email');

  return (
    <>
      <h1>{t('customers.title')}</h1>
      {deleted && <p role="status">{t('customers.deleted', { id: deleted })}</p>}
      {mayFilterByEmail && (
        <EmailFilter
          id="customer-email"
          value={email}
          onApply={(value) => {
            cursors.reset();
            navigate(value ? `${here}?email=${encodeURIComponent(value)}` : here);
          }}
        />
      )}
      <ErrorNote error={list.error} />
      {!list.data ? (
        !list.error && <Loading what={t('customers.loading')} />
      ) : list.data.data.length === 0 ? (
        <p>{email ? t('customers.noneMatch') : t('common.none', { what: t('customers.loading'), mode: place.mode })}</p>
      ) : (
        <>
          <table className="data" data-testid="customers">
            <caption className="visually-hidden">{t('customers.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('customers.col.email')}</th>
                <th scope="col">{t('customers.col.name')}</th>
                <th scope="col">{t('customers.col.created')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link href={`${here}/${c.id}`}>{c.email ?? c.id}</Link>
                  </td>
                  <td>{c.name ?? '—'}</td>
                  <td>{formatTime(c.created)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager atStart={cursors.atStart} hasMore={list.data.has_more} onPrevious={cursors.previous} onNext={() => cursors.next(list.data!.data.at(-1)!.id)} />
        </>
      )}
      {cursors.atStart && <GuestCustomers base={base} email={email} seesEmails={mayFilterByEmail} />}
    </>
  );
}

/** A customer's payments, newest first, each linking to its page. */
function CustomerPayments({ base, customerId }: { base: string; customerId: string }) {
  const t = useT();
  const cursors = useCursorStack();
  const params = new URLSearchParams({ customer: customerId, limit: '10' });
  if (cursors.after) params.set('starting_after', cursors.after);
  const list = useApiQuery<List<Payment>>(`/accounts${base}/payments?${params}`);
  return (
    <section aria-labelledby="customer-payments-title" className="panel">
      <h2 id="customer-payments-title">{t('customer.payments')}</h2>
      <ErrorNote error={list.error} />
      {!list.data ? (
        !list.error && <Loading what={t('payments.loading')} />
      ) : list.data.data.length === 0 ? (
        <p>{t('customer.noPayments')}</p>
      ) : (
        <>
          <table className="data" data-testid="customer-payments">
            <caption className="visually-hidden">{t('customer.payments')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('payments.col.amount')}</th>
                <th scope="col">{t('payments.col.status')}</th>
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
                  <td>{formatTime(p.created)}</td>
                  <td>
                    <Link href={`/dashboard${base}/payments/${p.id}`}>{p.id}</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager atStart={cursors.atStart} hasMore={list.data.has_more} onPrevious={cursors.previous} onNext={() => cursors.next(list.data!.data.at(-1)!.id)} />
        </>
      )}
    </section>
  );
}

/** One customer: details, payments, saved payment methods (a card's brand, last4, expiry; a bank account's bank and last4) and, as the role allows, delete. */
export function CustomerDetailPage({ base, place, id }: PageScope & { id: string }) {
  const t = useT();
  const path = `/accounts${base}/customers/${id}`;
  const customer = useApiQuery<CustomerDetail>(path);
  const action = useAction();
  const [confirming, setConfirming] = useState(false);
  const c = customer.data;
  const remove = () => {
    void action.act(async () => {
      await api('DELETE', path);
      navigate(`/dashboard${base}/customers?deleted=${encodeURIComponent(id)}`);
    }, [`/accounts${base}/customers`]);
  };
  return (
    <>
      <p>
        <Link href={`/dashboard${base}/customers`}>{t('customer.back')}</Link>
      </p>
      <ErrorNote error={action.error ?? customer.error} />
      {!c ? (
        !customer.error && <Loading what={t('customer.loading')} />
      ) : (
        <>
          <div className="page-head">
            <h1>{c.email ?? c.name ?? c.id}</h1>
            {can(place.account.role, 'customers.delete') && (
              <button type="button" className="danger" disabled={action.busy || confirming} onClick={() => setConfirming(true)}>
                {t('customer.delete')}
              </button>
            )}
          </div>
          {confirming && (
            <Confirm
              message={t('customer.deleteConfirm', { who: c.email ?? id })}
              confirmLabel={t('customer.deleteConfirmButton')}
              busy={action.busy}
              onConfirm={remove}
              onCancel={() => setConfirming(false)}
            />
          )}
          <p className="mono">{c.id}</p>
          <dl className="details">
            <dt>{t('customers.col.email')}</dt>
            <dd>{c.email ?? '—'}</dd>
            <dt>{t('customers.col.name')}</dt>
            <dd>{c.name ?? '—'}</dd>
            <dt>{t('customers.col.created')}</dt>
            <dd>{formatTime(c.created)}</dd>
            {Object.entries(c.metadata).map(([key, value]) => (
              <Fragment key={key}>
                <dt>{key}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
          <section aria-labelledby="saved-methods-title" className="panel">
            <h2 id="saved-methods-title">{t('customer.methods')}</h2>
            {c.payment_methods.length === 0 ? (
              <p>{t('customer.noMethods')}</p>
            ) : (
              <ul data-testid="saved-methods">
                {c.payment_methods.map((m) => (
                  <li key={m.id}>
                    {m.card
                      ? t('customer.method', {
                          brand: m.card.brand ?? t('payments.cardUnknownBrand'),
                          last4: m.card.last4 ?? '••••',
                          expiry: m.card.exp_month ? `${String(m.card.exp_month).padStart(2, '0')}/${m.card.exp_year}` : '—',
                        })
                      : // A saved bank account: by its bank and last 4 digits, as a payment paid by one is named.
                        paymentMethodSummary(
                          { type: m.type, brand: null, last4: m.us_bank_account?.last4 ?? null, us_bank_account: m.us_bank_account } as never,
                          t,
                        )}
                  </li>
                ))}
              </ul>
            )}
          </section>
          {can(place.account.role, 'subscriptions.read') && (
            <p>
              <Link href={`/dashboard${base}/subscriptions?customer=${c.id}`}>{t('customer.subscriptions')}</Link>
            </p>
          )}
          <CustomerPayments base={base} customerId={c.id} />
        </>
      )}
    </>
  );
}
