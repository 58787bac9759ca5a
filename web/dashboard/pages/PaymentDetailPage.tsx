import { api, type Payment, type Refund, type TimelineEvent } from '../api';
import { ErrorNote, Loading, StatusBadge } from '../components';
import { formatMoney, formatTime } from '../format';
import type { PageScope } from '../Layout';
import { Link } from '../router';
import { useLoad } from '../use-load';
import { PaymentActions } from './PaymentActions';

const eventLabels: Record<string, string> = {
  'payment.succeeded': 'Payment succeeded',
  'payment.failed': 'Payment failed',
  'payment.requires_capture': 'Authorized, waiting for capture',
  'payment.captured': 'Captured',
  'payment.canceled': 'Canceled',
  'refund.succeeded': 'Refunded',
  'refund.failed': 'Refund failed',
};

/** One payment: amount, timeline, payment method, processor response, 3-D Secure. */
export function PaymentDetailPage({ base, place, id }: PageScope & { id: string }) {
  const path = `/accounts${base}/payments/${id}`;
  const payment = useLoad(() => api<Payment & { refunds: Refund[]; timeline: TimelineEvent[] }>('GET', path), `${base}/${id}`);
  const p = payment.data;
  if (payment.error) return <ErrorNote error={payment.error} />;
  if (!p) return <Loading what="the payment" />;
  const money = (amount: number) => formatMoney(amount, p.currency.toUpperCase(), undefined);
  const method = p.payment_method;
  const refundOf = (objectId: string) => p.refunds.find((r) => r.id === objectId);
  return (
    <>
      <p>
        <Link href={`/dashboard${base}/payments`}>← Payments</Link>
      </p>
      <div className="page-head">
        <h1>
          {money(p.amount)} <StatusBadge status={p.status} />
        </h1>
      </div>
      <p className="mono">{p.id}</p>
      <PaymentActions payment={p} role={place.account.role} path={path} onDone={payment.reload} />
      <div className="columns">
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title">Timeline</h2>
          <ol className="timeline">
            <li>
              <span>Payment started</span> <time>{formatTime(p.created)}</time>
            </li>
            {p.timeline.map((e) => (
              <li key={e.id}>
                <span>
                  {eventLabels[e.type] ?? e.type}
                  {refundOf(e.object) && ` ${money(refundOf(e.object)!.amount)}`}
                </span>{' '}
                <time>{formatTime(e.created)}</time>
              </li>
            ))}
          </ol>
        </section>
        <section aria-labelledby="refunds-title">
          <h2 id="refunds-title">Refunds</h2>
          {p.refunds.length === 0 ? (
            <p>No refunds.</p>
          ) : (
            <table className="data">
              <thead>
                <tr>
                  <th scope="col">Amount</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Status</th>
                  <th scope="col">When</th>
                </tr>
              </thead>
              <tbody>
                {p.refunds.map((r) => (
                  <tr key={r.id}>
                    <td>{money(r.amount)}</td>
                    <td>{r.reason ? r.reason.replaceAll('_', ' ') : '—'}</td>
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
          <h2 id="details-title">Details</h2>
          <dl className="details">
            <dt>Customer</dt>
            <dd>{p.customer_email ?? '—'}</dd>
            <dt>Captured</dt>
            <dd>{money(p.amount_captured)}</dd>
            <dt>Refunded</dt>
            <dd>{money(p.amount_refunded)}</dd>
            <dt>Capture</dt>
            <dd>{p.capture_method}</dd>
            <dt>Checkout session</dt>
            <dd>
              <Link href={`/dashboard${base}/sessions/${p.checkout_session}`}>{p.checkout_session}</Link>
            </dd>
          </dl>
          <h3>Payment method</h3>
          <dl className="details">
            <dt>Type</dt>
            <dd>{method?.type === 'google_pay' ? 'Google Pay' : method ? 'Card' : '—'}</dd>
            <dt>Card</dt>
            <dd>{method?.last4 ? `${method.brand ?? 'card'} •••• ${method.last4}` : '—'}</dd>
            <dt>Expires</dt>
            <dd>{method?.exp_month ? `${String(method.exp_month).padStart(2, '0')}/${method.exp_year}` : '—'}</dd>
          </dl>
          <h3>Processor</h3>
          <dl className="details">
            <dt>Processor</dt>
            <dd>{p.processor}</dd>
            <dt>Transaction</dt>
            <dd className="mono">{p.processor_transaction_id ?? '—'}</dd>
            <dt>Response</dt>
            <dd>{p.processor_response ? `${p.processor_response.code} ${p.processor_response.text}` : '—'}</dd>
            <dt>Decline code</dt>
            <dd>{p.decline_code ?? '—'}</dd>
            <dt>3-D Secure</dt>
            <dd>
              {p.three_d_secure
                ? `${p.three_d_secure.status}, liability ${p.three_d_secure.liability_shifted ? 'shifted' : 'not shifted'}`
                : 'Not used'}
            </dd>
          </dl>
        </section>
      </div>
    </>
  );
}
