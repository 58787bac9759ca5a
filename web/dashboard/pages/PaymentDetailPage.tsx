import { api, type Payment, type TimelineEvent } from '../api';
import { ErrorNote, Loading, StatusBadge } from '../components';
import { formatMoney, formatTime } from '../format';
import type { PageScope } from '../Layout';
import { Link } from '../router';
import { useLoad } from '../use-load';

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
export function PaymentDetailPage({ base, id }: PageScope & { id: string }) {
  const payment = useLoad(() => api<Payment & { timeline: TimelineEvent[] }>('GET', `/accounts${base}/payments/${id}`), `${base}/${id}`);
  const p = payment.data;
  if (payment.error) return <ErrorNote error={payment.error} />;
  if (!p) return <Loading what="the payment" />;
  const money = (amount: number) => formatMoney(amount, p.currency.toUpperCase(), undefined);
  const method = p.payment_method;
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
      <div className="columns">
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title">Timeline</h2>
          <ol className="timeline">
            <li>
              <span>Payment started</span> <time>{formatTime(p.created)}</time>
            </li>
            {p.timeline.map((e) => (
              <li key={e.id}>
                <span>{eventLabels[e.type] ?? e.type}</span> <time>{formatTime(e.created)}</time>
              </li>
            ))}
          </ol>
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
