import type { ReactNode } from 'react';
import type { Account } from '../../src/domain/team/entities';
import type { SavedPaymentMethod } from '../../src/domain/customers/entities';
import type { Invoice } from '../../src/domain/billing/entities';
import type { HostedInvoice, Portal, PortalSubscription } from '../../src/domain/billing/hosted-pages';
import { formatMoney } from '../checkout/format';
import type { BillingKey, BillingTranslate } from './i18n';

/**
 * The customer portal and the hosted invoice page (docs/billing.md): rendered on the server, plain
 * HTML forms and links, no script. Each action posts and comes back to the page (303), which says
 * what happened with a notice.
 */

/** A notice a page shows after an action (named in its URL, `?notice=`), in the page's language. */
export type Notice = { text: string; tone: 'ok' | 'error' };

const date = (t: BillingTranslate, at: Date) => new Intl.DateTimeFormat(t.lang, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
const money = (t: BillingTranslate, amount: number, currency: string) => formatMoney(amount, currency, t.lang);

/** "Visa ending in 4242, expires 12/30", in the page's language; a bank account "Bank name •••• 6789". */
export function cardLabel(t: BillingTranslate, card: SavedPaymentMethod): string {
  // A saved bank account (ACH): by its bank and last 4 digits.
  if (card.type === 'us_bank_account') return `${card.usBankAccount?.bankName ?? 'Bank account'} •••• ${card.usBankAccount?.last4 ?? card.last4 ?? ''}`;
  const brandKey = `brand.${card.brand ?? 'unknown'}`;
  return t.checkout('saved.card', {
    brand: t.checkout(t.checkout.has(brandKey) ? brandKey : 'brand.unknown'),
    last4: card.last4 ?? '',
    month: String(card.expMonth ?? '').padStart(2, '0'),
    year: String(card.expYear ?? ''),
  });
}

function businessOf(account: Account): string {
  return account.branding.displayName ?? account.name;
}

/** The frame every billing page shares: the business, test mode's banner, the content. */
export function Layout(props: {
  t: BillingTranslate;
  account: Account | null;
  testMode: boolean;
  back?: { href: string; label: string };
  children: ReactNode;
}) {
  const { t, account } = props;
  const accent = account?.branding.accentColor;
  const style = accent && /^#[0-9a-fA-F]{6}$/.test(accent) ? ({ '--accent': accent } as React.CSSProperties) : undefined;
  return (
    <div className="page" style={style}>
      <header>
        {props.testMode && <p className="test-banner">{t.checkout('page.testMode')}</p>}
        {account && (
          <div className="layout merchant">
            {props.back && (
              <p className="back">
                <a className="back-link" href={props.back.href}>
                  <span className="back-arrow" aria-hidden="true">
                    ←
                  </span>
                  {props.back.label}
                </a>
              </p>
            )}
            {account.branding.logoUrl && <img className="merchant-logo" src={account.branding.logoUrl} alt="" />}
            <p className="business">{businessOf(account)}</p>
          </div>
        )}
      </header>
      <main className="layout">{props.children}</main>
    </div>
  );
}

function NoticeBanner({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return (
    <p className={`notice notice-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
      {notice.text}
    </p>
  );
}

/** A message page: an expired portal link, an unknown page. */
export function MessagePage(props: { t: BillingTranslate; account: Account | null; heading: string; body: string; back?: { href: string; label: string } }) {
  return (
    <Layout t={props.t} account={props.account} testMode={false} back={props.back}>
      <section className="panel">
        <h1>{props.heading}</h1>
        <p>{props.body}</p>
      </section>
    </Layout>
  );
}

function subscriptionLine(t: BillingTranslate, entry: PortalSubscription) {
  const { subscription, price } = entry;
  const amount = money(t, (price.unitAmount ?? 0) * subscription.quantity, subscription.currency);
  const period = t.checkout('subscription.period', { interval: price.recurringInterval ?? 'month', count: price.recurringIntervalCount ?? 1 });
  return `${amount} ${period}`;
}

function subscriptionWhen(t: BillingTranslate, entry: PortalSubscription): string {
  const { subscription } = entry;
  if (subscription.cancelAtPeriodEnd) return t('portal.cancels', { date: date(t, subscription.currentPeriodEnd) });
  if (subscription.status === 'trialing' && subscription.trialEnd) return t('portal.trialEnds', { date: date(t, subscription.trialEnd) });
  return t('portal.renews', { date: date(t, subscription.currentPeriodEnd) });
}

function statusKey(entry: PortalSubscription): BillingKey {
  if (entry.subscription.cancelAtPeriodEnd) return 'status.canceling';
  return `status.${entry.subscription.status}` as BillingKey;
}

/** The customer portal: subscriptions, the card they are billed to, invoices. */
export function PortalPage(props: { t: BillingTranslate; portal: Portal; path: string; notice: Notice | null; invoiceUrl: (invoice: Invoice) => string }) {
  const { t, portal, path } = props;
  const business = businessOf(portal.account);
  const back = portal.session.returnUrl ? { href: portal.session.returnUrl, label: t('portal.return', { business }) } : undefined;
  const owedInvoice = (entry: PortalSubscription) => {
    if (entry.subscription.status !== 'past_due' && entry.subscription.status !== 'unpaid' && entry.subscription.status !== 'incomplete') return null;
    return (
      portal.invoices.find(
        (invoice) => invoice.id === entry.subscription.latestInvoiceId && (invoice.status === 'open' || invoice.status === 'uncollectible'),
      ) ?? null
    );
  };
  return (
    <Layout t={t} account={portal.account} testMode={portal.session.mode === 'test'} back={back}>
      <h1>{t('portal.title')}</h1>
      <p className="muted">{t('portal.intro', { business })}</p>
      <NoticeBanner notice={props.notice} />
      <section className="panel" aria-labelledby="subscriptions-heading">
        <h2 id="subscriptions-heading">{t('portal.subscriptions')}</h2>
        {portal.subscriptions.length === 0 && <p className="muted">{t('portal.noSubscriptions')}</p>}
        <ul className="rows">
          {portal.subscriptions.map((entry) => {
            const owed = owedInvoice(entry);
            return (
              <li key={entry.subscription.id} className="row" data-testid="portal-subscription">
                <div className="row-main">
                  <h3>{entry.productName}</h3>
                  <p>
                    {subscriptionLine(t, entry)}
                    {entry.subscription.quantity > 1 && <> · {t('portal.quantity', { quantity: entry.subscription.quantity })}</>}
                  </p>
                  <p className="muted">{subscriptionWhen(t, entry)}</p>
                </div>
                <div className="row-side">
                  <span className={`badge badge-${entry.subscription.cancelAtPeriodEnd ? 'canceling' : entry.subscription.status}`}>{t(statusKey(entry))}</span>
                  {owed && (
                    <a className="button" href={props.invoiceUrl(owed)}>
                      {t('portal.payOwed')}
                    </a>
                  )}
                  {entry.subscription.cancelAtPeriodEnd ? (
                    <form method="post" action={`${path}/subscriptions/${entry.subscription.id}/renew`}>
                      <button type="submit" className="button secondary">
                        {t('portal.keep')}
                      </button>
                    </form>
                  ) : (
                    <a className="button secondary" href={`${path}/subscriptions/${entry.subscription.id}/cancel`}>
                      {t('portal.cancel')}
                    </a>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      </section>
      <section className="panel" aria-labelledby="card-heading">
        <h2 id="card-heading">{t('portal.card')}</h2>
        {portal.methods.length === 0 && <p className="muted">{t('portal.noCard')}</p>}
        <ul className="rows">
          {portal.methods.map((card) => (
            <li key={card.id} className="row" data-testid="portal-card">
              <div className="row-main">
                <p>{cardLabel(t, card)}</p>
              </div>
              <div className="row-side">
                {card.id === portal.defaultMethodId ? (
                  <span className="badge badge-active">{t('portal.cardInUse')}</span>
                ) : (
                  portal.subscriptions.length > 0 && (
                    <form method="post" action={`${path}/card`}>
                      <input type="hidden" name="payment_method" value={card.id} />
                      <button type="submit" className="button secondary" aria-label={`${t('portal.useCard')}: ${cardLabel(t, card)}`}>
                        {t('portal.useCard')}
                      </button>
                    </form>
                  )
                )}
              </div>
            </li>
          ))}
        </ul>
        <form method="post" action={`${path}/cards/new`}>
          <button type="submit" className="button">
            {t('portal.addCard')}
          </button>
        </form>
      </section>
      <section className="panel" aria-labelledby="invoices-heading">
        <h2 id="invoices-heading">{t('portal.invoices')}</h2>
        {portal.invoices.length === 0 ? (
          <p className="muted">{t('portal.noInvoices')}</p>
        ) : (
          <table className="invoices">
            <thead>
              <tr>
                <th scope="col">{t('portal.column.date')}</th>
                <th scope="col">{t('portal.column.amount')}</th>
                <th scope="col">{t('portal.column.status')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('portal.column.invoice')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {portal.invoices.map((invoice) => (
                <tr key={invoice.id} data-testid="portal-invoice">
                  <td>{date(t, invoice.createdAt)}</td>
                  <td className="amount">{money(t, invoice.total, invoice.currency)}</td>
                  <td>{t(`invoice.status.${invoice.status}` as BillingKey)}</td>
                  <td>
                    <a href={props.invoiceUrl(invoice)} aria-label={`${t('portal.viewInvoice')}: ${t('invoice.number', { number: invoice.id })}`}>
                      {t('portal.viewInvoice')}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Layout>
  );
}

/** The portal's question before a cancellation. */
export function PortalCancelPage(props: { t: BillingTranslate; portal: Portal; entry: PortalSubscription; path: string }) {
  const { t, portal, entry, path } = props;
  return (
    <Layout t={t} account={portal.account} testMode={portal.session.mode === 'test'}>
      <section className="panel">
        <h1>{t('portal.cancelConfirm.heading', { product: entry.productName })}</h1>
        <p>{t('portal.cancelConfirm.body', { date: date(t, entry.subscription.currentPeriodEnd) })}</p>
        <div className="actions">
          <form method="post" action={`${path}/subscriptions/${entry.subscription.id}/cancel`}>
            <button type="submit" className="button danger">
              {t('portal.cancelConfirm.confirm')}
            </button>
          </form>
          <a className="button secondary" href={path}>
            {t('portal.cancelConfirm.back')}
          </a>
        </div>
      </section>
    </Layout>
  );
}

function invoiceState(t: BillingTranslate, hosted: HostedInvoice): string | null {
  const { invoice } = hosted;
  if (invoice.status === 'paid' && invoice.paidAt) return t('invoice.paidOn', { date: date(t, invoice.paidAt) });
  if (invoice.status === 'void') return t('invoice.voided');
  if (!hosted.payable && invoice.status === 'open') return t('invoice.underWay');
  if (invoice.status === 'open' && invoice.nextPaymentAttempt && invoice.attemptCount > 0)
    return t('invoice.nextTry', { date: date(t, invoice.nextPaymentAttempt) });
  if (invoice.attemptCount > 0 && invoice.status !== 'paid') return t('invoice.lastTryFailed');
  return null;
}

/** The hosted invoice page: what is owed and for what, and paying it with a saved or another card. */
export function InvoicePage(props: { t: BillingTranslate; hosted: HostedInvoice; path: string; notice: Notice | null; chosenMethodId: string | null }) {
  const { t, hosted, path } = props;
  const { invoice } = hosted;
  const business = businessOf(hosted.account);
  const remaining = invoice.status === 'paid' || invoice.status === 'void' ? 0 : invoice.amountDue - invoice.amountPaid;
  const chosen = props.chosenMethodId ?? hosted.defaultMethodId ?? hosted.methods[0]?.id ?? null;
  const state = invoiceState(t, hosted);
  // Exclusive tax is added to the total; inclusive tax is already in the lines' amounts.
  const addedTax = invoice.totalTaxAmounts.filter((tax) => !tax.inclusive).reduce((sum, tax) => sum + tax.amount, 0);
  return (
    <Layout t={t} account={hosted.account} testMode={invoice.mode === 'test'}>
      <h1>{t('invoice.title', { business })}</h1>
      <p className="muted">
        {t('invoice.number', { number: invoice.id })} · {t('invoice.issued', { date: date(t, invoice.createdAt) })}
      </p>
      <NoticeBanner notice={props.notice} />
      <div className="columns">
        <section className="panel summary" aria-labelledby="items-heading">
          <h2 id="items-heading">{t('invoice.items')}</h2>
          <ul className="line-items">
            {invoice.lines.map((line) => (
              <li key={line.id}>
                <span>{line.description}</span>
                <span className="item-amount">{money(t, line.amount, invoice.currency)}</span>
                <span className="item-qty">
                  {t('invoice.period', { start: date(t, new Date(line.periodStart * 1000)), end: date(t, new Date(line.periodEnd * 1000)) })}
                </span>
              </li>
            ))}
          </ul>
          <dl className="figures">
            <div>
              <dt>{t('invoice.subtotal')}</dt>
              <dd>{money(t, invoice.subtotal, invoice.currency)}</dd>
            </div>
            {invoice.totalDiscountAmounts.length > 0 && (
              <div>
                <dt>{t.checkout('summary.discount')}</dt>
                <dd>{money(t, -invoice.totalDiscountAmounts.reduce((sum, off) => sum + off.amount, 0), invoice.currency)}</dd>
              </div>
            )}
            {addedTax > 0 && (
              <div>
                <dt>{t('invoice.tax')}</dt>
                <dd>{money(t, addedTax, invoice.currency)}</dd>
              </div>
            )}
            <div>
              <dt>{t('invoice.total')}</dt>
              <dd>{money(t, invoice.total, invoice.currency)}</dd>
            </div>
            <div>
              <dt>{t('invoice.amountPaid')}</dt>
              <dd>{money(t, invoice.status === 'paid' ? invoice.amountDue : invoice.amountPaid, invoice.currency)}</dd>
            </div>
            <div className="total">
              <dt>{t('invoice.amountDue')}</dt>
              <dd data-testid="amount-due">{money(t, remaining, invoice.currency)}</dd>
            </div>
          </dl>
        </section>
        <section className="panel" aria-labelledby="status-heading">
          <h2 id="status-heading">
            <span className={`badge badge-${invoice.status}`}>{t(`invoice.status.${invoice.status}` as BillingKey)}</span>
          </h2>
          {state && <p data-testid="invoice-state">{state}</p>}
          {hosted.payable && (
            <>
              {hosted.methods.length > 0 ? (
                <form method="post" action={`${path}/pay`}>
                  <fieldset>
                    <legend>{t('invoice.payWith')}</legend>
                    {hosted.methods.map((card) => (
                      <label key={card.id} className="choice">
                        <input type="radio" name="payment_method" value={card.id} defaultChecked={card.id === chosen} required />
                        <span>{cardLabel(t, card)}</span>
                      </label>
                    ))}
                  </fieldset>
                  {hosted.subscriptionBilling && (
                    <label className="choice">
                      <input type="checkbox" name="use_for_subscription" value="yes" defaultChecked={props.chosenMethodId !== null} />
                      <span>{t('invoice.useForSubscription')}</span>
                    </label>
                  )}
                  <button type="submit" className="button pay">
                    {t('invoice.pay', { amount: money(t, remaining, invoice.currency) })}
                  </button>
                </form>
              ) : (
                <p className="muted">{t('invoice.noCard')}</p>
              )}
              <form method="post" action={`${path}/cards/new`}>
                <button type="submit" className="button secondary">
                  {t('invoice.anotherCard')}
                </button>
              </form>
            </>
          )}
        </section>
      </div>
    </Layout>
  );
}
