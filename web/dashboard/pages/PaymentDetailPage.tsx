import { api, type Payment, type Refund, type TimelineEvent } from '../api';
import { ErrorNote, Loading, StatusBadge } from '../components';
import { formatMoney, formatTime, statusLabel } from '../format';
import type { PageScope } from '../Layout';
import { Link } from '../router';
import { useLoad } from '../use-load';
import { useT, type DashboardMessageKey } from '../i18n';
import { PaymentActions } from './PaymentActions';
import { can } from '../../../src/domain/team/permissions';

/** How each `payment_method.type` is named. */
const methodTypeLabels: Record<string, DashboardMessageKey> = {
  card: 'payment.method.cardType',
  google_pay: 'payment.method.googlePay',
  apple_pay: 'payment.method.applePay',
  paypal: 'payment.method.paypal',
  venmo: 'payment.method.venmo',
};

const eventLabels: Record<string, DashboardMessageKey> = {
  'payment.succeeded': 'payment.event.succeeded',
  'payment.failed': 'payment.event.failed',
  'payment.requires_capture': 'payment.event.requiresCapture',
  'payment.captured': 'payment.event.captured',
  'payment.canceled': 'payment.event.canceled',
  'refund.succeeded': 'payment.event.refunded',
  'refund.failed': 'payment.event.refundFailed',
};

/** The payment's disputes, when it has any: each links to its page. */
function PaymentDisputes({ base, paymentId }: { base: string; paymentId: string }) {
  const t = useT();
  const disputes = useLoad(
    () => api<{ data: Array<{ id: string; status: string; amount: number; currency: string; reply_by: number | null }> }>('GET', `/accounts${base}/disputes?payment=${paymentId}`),
    `${base}/${paymentId}/disputes`,
  );
  const list = disputes.data?.data ?? [];
  if (list.length === 0) return null;
  return (
    <section aria-labelledby="payment-disputes-title" className="panel" data-testid="payment-disputes">
      <h2 id="payment-disputes-title">{t('nav.disputes')}</h2>
      <ul>
        {list.map((d) => (
          <li key={d.id}>
            <Link href={`/dashboard${base}/disputes/${d.id}`}>{formatMoney(d.amount, d.currency.toUpperCase(), undefined)}</Link> <StatusBadge status={d.status} />{' '}
            {t('disputes.replyBy')} {formatTime(d.reply_by)}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One payment: amount, timeline, payment method, processor response, 3-D Secure. */
export function PaymentDetailPage({ base, place, id }: PageScope & { id: string }) {
  const t = useT();
  const path = `/accounts${base}/payments/${id}`;
  const payment = useLoad(() => api<Payment & { refunds: Refund[]; timeline: TimelineEvent[] }>('GET', path), `${base}/${id}`);
  const p = payment.data;
  if (payment.error) return <ErrorNote error={payment.error} />;
  if (!p) return <Loading what={t('payment.loading')} />;
  const money = (amount: number) => formatMoney(amount, p.currency.toUpperCase(), undefined);
  const method = p.payment_method;
  const refundOf = (objectId: string) => p.refunds.find((r) => r.id === objectId);
  return (
    <>
      <p>
        <Link href={`/dashboard${base}/payments`}>{t('payment.back')}</Link>
      </p>
      <div className="page-head">
        <h1>
          {money(p.amount)} <StatusBadge status={p.status_badge} />
        </h1>
      </div>
      <p className="mono">{p.id}</p>
      <PaymentActions payment={p} role={place.account.role} path={path} onDone={payment.reload} />
      <PaymentDisputes base={base} paymentId={p.id} />
      <div className="columns">
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title">{t('payment.timeline')}</h2>
          <ol className="timeline">
            <li>
              <span>{t('payment.started')}</span> <time>{formatTime(p.created)}</time>
            </li>
            {p.timeline.map((e) => (
              <li key={e.id}>
                <span>
                  {refundOf(e.object)
                    ? t('payment.event.withAmount', { event: eventLabels[e.type] ? t(eventLabels[e.type]!) : e.type, amount: money(refundOf(e.object)!.amount) })
                    : eventLabels[e.type]
                      ? t(eventLabels[e.type]!)
                      : e.type}
                </span>{' '}
                <time>{formatTime(e.created)}</time>
              </li>
            ))}
          </ol>
        </section>
        <section aria-labelledby="refunds-title">
          <h2 id="refunds-title">{t('payment.refunds')}</h2>
          {p.refunds.length === 0 ? (
            <p>{t('payment.noRefunds')}</p>
          ) : (
            <table className="data">
              <thead>
                <tr>
                  <th scope="col">{t('payment.refund.col.amount')}</th>
                  <th scope="col">{t('payment.refund.col.reason')}</th>
                  <th scope="col">{t('payment.refund.col.status')}</th>
                  <th scope="col">{t('payment.refund.col.when')}</th>
                </tr>
              </thead>
              <tbody>
                {p.refunds.map((r) => (
                  <tr key={r.id}>
                    <td>{money(r.amount)}</td>
                    <td>{r.reason ? statusLabel(r.reason) : '—'}</td>
                    <td>
                      <StatusBadge status={r.status} />
                    </td>
                    <td>{formatTime(r.created)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section aria-labelledby="details-title">
          <h2 id="details-title">{t('payment.details')}</h2>
          <dl className="details">
            <dt>{t('payment.customer')}</dt>
            <dd>
              {p.customer && can(place.account.role, 'customers.read') ? (
                <Link href={`/dashboard${base}/customers/${p.customer}`} data-testid="payment-customer">
                  {p.customer_email ?? p.customer}
                </Link>
              ) : (
                (p.customer_email ?? '—')
              )}
            </dd>
            <dt>{t('payment.captured')}</dt>
            <dd>{money(p.amount_captured)}</dd>
            <dt>{t('payment.refunded')}</dt>
            <dd>{money(p.amount_refunded)}</dd>
            <dt>{t('payment.net')}</dt>
            <dd>{money(p.amount_captured - p.amount_refunded)}</dd>
            <dt>{t('payment.captureMethod')}</dt>
            <dd>{p.capture_method}</dd>
            <dt>{t('payment.checkoutSession')}</dt>
            <dd>
              {p.checkout_session ? <Link href={`/dashboard${base}/sessions/${p.checkout_session}`}>{p.checkout_session}</Link> : '—'}
            </dd>
          </dl>
          <h3>{t('payment.method')}</h3>
          <dl className="details">
            <dt>{t('payment.method.type')}</dt>
            <dd>{method ? t(methodTypeLabels[method.type] ?? 'payment.method.cardType') : '—'}</dd>
            {method?.payer_email && (
              <>
                <dt>{t('payment.method.payerEmail')}</dt>
                <dd>{method.payer_email}</dd>
              </>
            )}
            {method?.username && (
              <>
                <dt>{t('payment.method.username')}</dt>
                <dd>{method.username}</dd>
              </>
            )}
            <dt>{t('payment.method.card')}</dt>
            <dd>{method?.last4 ? t('payments.card', { brand: method.brand ?? t('payments.cardUnknownBrand'), last4: method.last4 }) : '—'}</dd>
            <dt>{t('payment.method.expires')}</dt>
            <dd>{method?.exp_month ? `${String(method.exp_month).padStart(2, '0')}/${method.exp_year}` : '—'}</dd>
          </dl>
          <h3>{t('payment.processor')}</h3>
          <dl className="details">
            <dt>{t('payment.processor.name')}</dt>
            <dd>{p.processor}</dd>
            <dt>{t('payment.processor.transaction')}</dt>
            <dd className="mono">{p.processor_transaction_id ?? '—'}</dd>
            <dt>{t('payment.processor.response')}</dt>
            <dd>{p.processor_response ? `${p.processor_response.code} ${p.processor_response.text}` : '—'}</dd>
            <dt>{t('payment.processor.declineCode')}</dt>
            <dd>{p.decline_code ?? '—'}</dd>
            <dt>{t('payment.threeDSecure')}</dt>
            <dd>
              {p.three_d_secure
                ? t('payment.threeDSecure.result', { status: p.three_d_secure.status, shifted: p.three_d_secure.liability_shifted ? 'yes' : 'no' })
                : t('payment.threeDSecure.notUsed')}
            </dd>
          </dl>
        </section>
      </div>
    </>
  );
}
