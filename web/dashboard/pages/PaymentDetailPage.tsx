import { useQueryClient } from '@tanstack/react-query';
import { Fragment } from 'react';
import { api, type CustomFieldAnswer, type PaymentStory, type StoryDelivery, type StoryEvent } from '../api';
import { ColumnHeads, CopyId, ErrorNote, Loading, StatusBadge } from '../components';
import { formatMoney, formatTime, statusLabel } from '../format';
import type { PageScope } from '../Layout';
import { Link } from '../router';
import { queryKeyOf, useApiQuery } from '../queries';
import { useAction } from '../use-action';
import { useT, type DashboardMessageKey } from '../i18n';
import { PaymentActions } from './PaymentActions';
import { localBankOf, methodTypeLabels, methodTypeName, usBankAccountOf } from '../format';
import { can } from '../../../src/domain/team/permissions';
import { addressLines } from '../../../src/domain/addresses/address-lines';
import type { PostalAddress } from '../api';

/** An address as lines, one under the other. */
function AddressBlock({ name, address, testId }: { name?: string; address: PostalAddress; testId: string }) {
  return (
    <address data-testid={testId}>
      {[...(name ? [name] : []), ...addressLines(address)].map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: an address's lines never reorder.
        <Fragment key={i}>
          {i > 0 && <br />}
          {line}
        </Fragment>
      ))}
    </address>
  );
}

const eventLabels: Record<string, DashboardMessageKey> = {
  'payment.succeeded': 'payment.event.succeeded',
  'payment.failed': 'payment.event.failed',
  'payment.requires_capture': 'payment.event.requiresCapture',
  'payment.captured': 'payment.event.captured',
  'payment.canceled': 'payment.event.canceled',
  'refund.succeeded': 'payment.event.refunded',
  'refund.failed': 'payment.event.refundFailed',
  'dispute.created': 'payment.event.disputeOpened',
  'dispute.updated': 'payment.event.disputeUpdated',
  'dispute.closed': 'payment.event.disputeClosed',
};

/** Wallets a card can come from: shown beside the card's brand and last4. */
const wallets = new Set(['google_pay', 'apple_pay']);

/** A custom field's answer as the shopper saw it: a dropdown's option label, else the text typed. */
function answerOf(field: CustomFieldAnswer): string | null {
  if (field.type === 'dropdown') {
    const value = field.dropdown?.value ?? null;
    return value === null ? null : (field.dropdown?.options.find((option) => option.value === value)?.label ?? value);
  }
  return (field.type === 'numeric' ? field.numeric?.value : field.text?.value) ?? null;
}

/** The webhook deliveries one event caused: endpoint, status, last answer, and Resend. */
function EventDeliveries({
  event,
  label,
  deliveries,
  canResend,
  path,
}: {
  event: StoryEvent;
  label: string;
  deliveries: StoryDelivery[];
  canResend: boolean;
  path: string;
}) {
  const t = useT();
  const { busy, error, notice, act } = useAction();
  const resend = (d: StoryDelivery) =>
    act(async () => {
      await api('POST', `${path}/webhook-endpoints/${d.webhook_endpoint}/deliveries/${d.id}/resend`);
      return t('payment.delivery.queued');
    }, [`${path}/payments`]);
  if (deliveries.length === 0) return <p className="hint">{t('payment.deliveries.none')}</p>;
  return (
    <div className="deliveries">
      <ul aria-label={t('payment.deliveries', { event: label })} data-testid={`deliveries-${event.id}`}>
        {deliveries.map((d) => (
          <li key={d.id} data-testid="delivery">
            <StatusBadge status={d.status} />{' '}
            <span className="wrap-anywhere">
              {t('payment.delivery.summary', {
                url: d.endpoint_url ?? d.webhook_endpoint,
                status: d.status,
                attempts: d.attempts,
                code: d.last_response_status ?? '—',
              })}
            </span>{' '}
            {canResend && (
              <button
                type="button"
                className="secondary small"
                disabled={busy}
                onClick={() => void resend(d)}
                aria-label={t('payment.delivery.resendOf', { event: label, url: d.endpoint_url ?? d.webhook_endpoint })}
              >
                {t('payment.delivery.resend')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <ErrorNote error={error} />
      {notice && <p role="status">{notice}</p>}
    </div>
  );
}

/**
 * One payment's whole story, read in one answer: amount and ids, line items and metadata, customer,
 * payment method with 3-D Secure, processor response, refunds and disputes, the timeline of events
 * with the webhook deliveries each caused, and the API requests that touched it.
 */
export function PaymentDetailPage({ base, place, id }: PageScope & { id: string }) {
  const t = useT();
  const path = `/accounts${base}`;
  const payment = useApiQuery<PaymentStory>(`${path}/payments/${id}`);
  const queryClient = useQueryClient();
  /** A capture, void or refund changes the payment here and in every list that shows it. */
  const changed = () => queryClient.invalidateQueries({ queryKey: queryKeyOf(`${path}/payments`) });
  const p = payment.data;
  if (payment.error) return <ErrorNote error={payment.error} />;
  if (!p) return <Loading what={t('payment.loading')} />;
  const role = place.account.role;
  const money = (amount: number) => formatMoney(amount, p.currency.toUpperCase(), undefined);
  const method = p.payment_method;
  const bank = localBankOf(method);
  const account = usBankAccountOf(method);
  const refundOf = (objectId: string) => p.refunds.find((r) => r.id === objectId);
  const eventLabel = (e: StoryEvent) => {
    const name = eventLabels[e.type] ? t(eventLabels[e.type]!) : e.type;
    const refund = refundOf(e.object);
    if (refund) return t('payment.event.withAmount', { event: name, amount: money(refund.amount) });
    // A payment is captured once: what it captured is the payment's.
    return e.type === 'payment.captured' ? t('payment.event.withAmount', { event: name, amount: money(p.amount_captured) }) : name;
  };
  const metadata = Object.entries(p.metadata);
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
      {p.status === 'succeeded' && p.amount_captured !== p.amount && (
        <p data-testid="payment-captured-of">{t('payment.capturedOf', { captured: money(p.amount_captured), amount: money(p.amount) })}</p>
      )}
      <p>
        <CopyId id={p.id} what={t('payment.id')} testId="payment-id" />
      </p>
      <PaymentActions payment={p} role={role} path={`${path}/payments/${p.id}`} onDone={changed} />
      {p.disputes.length > 0 && (
        <section aria-labelledby="payment-disputes-title" className="panel" data-testid="payment-disputes">
          <h2 id="payment-disputes-title">{t('nav.disputes')}</h2>
          <ul>
            {p.disputes.map((d) => (
              <li key={d.id}>
                <Link href={`/dashboard${base}/disputes/${d.id}`}>{formatMoney(d.amount, d.currency.toUpperCase(), undefined)}</Link>{' '}
                <StatusBadge status={d.status} /> {t('disputes.replyBy')} {formatTime(d.reply_by)}
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="columns">
        <section aria-labelledby="line-items-title">
          <h2 id="line-items-title">{t('payment.lineItems')}</h2>
          {p.line_items.length === 0 ? (
            <p>{t('payment.lineItems.none')}</p>
          ) : (
            <div className="table-scroll">
              <table className="data" data-testid="line-items">
                <ColumnHeads
                  labels={[
                    t('payment.lineItems.col.item'),
                    t('payment.lineItems.col.unit'),
                    t('payment.lineItems.col.quantity'),
                    t('payment.lineItems.col.amount'),
                  ]}
                />
                <tbody>
                  {p.line_items.map((item, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, never reordered: its position is its identity.
                    <tr key={i}>
                      <td>{item.name}</td>
                      <td>{money(item.unit_amount)}</td>
                      <td>{item.quantity}</td>
                      <td>{money(item.amount)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <dl className="details" data-testid="payment-order">
            {p.order.amount_subtotal !== null && (
              <>
                <dt>{t('payment.order.subtotal')}</dt>
                <dd>{money(p.order.amount_subtotal)}</dd>
              </>
            )}
            {p.order.discount && (
              <>
                <dt>{p.order.discount.code ? t('payment.order.discountWithCode', { code: p.order.discount.code }) : t('payment.order.discount')}</dt>
                <dd>−{money(p.order.discount.amount)}</dd>
              </>
            )}
            {p.order.shipping && (
              <>
                <dt>{p.order.shipping.name ? t('payment.order.shippingWithName', { name: p.order.shipping.name }) : t('payment.order.shipping')}</dt>
                <dd>{money(p.order.shipping.amount)}</dd>
              </>
            )}
            {p.order.taxes.length > 0
              ? p.order.taxes.map((tax) => (
                  <Fragment key={`${tax.display_name}-${tax.percentage}-${tax.inclusive}`}>
                    <dt>{t(tax.inclusive ? 'payment.order.includesTax' : 'payment.order.taxRate', { name: tax.display_name, percentage: tax.percentage })}</dt>
                    <dd>{money(tax.amount)}</dd>
                  </Fragment>
                ))
              : p.order.amount_tax > 0 && (
                  <>
                    <dt>{t('payment.order.tax')}</dt>
                    <dd>{money(p.order.amount_tax)}</dd>
                  </>
                )}
            <dt>{t('payment.order.total')}</dt>
            <dd>{money(p.order.amount_total)}</dd>
          </dl>
          {p.shipping_details && (
            <>
              <h3>{t('payment.shippingAddress')}</h3>
              <AddressBlock name={p.shipping_details.name} address={p.shipping_details.address} testId="payment-shipping-address" />
            </>
          )}
          {p.customer_details?.address && (
            <>
              <h3>{t('payment.billingAddress')}</h3>
              <AddressBlock address={p.customer_details.address} testId="payment-billing-address" />
            </>
          )}
          <h3>{t('payment.metadata')}</h3>
          {metadata.length === 0 && !p.client_reference_id ? (
            <p>{t('payment.metadata.none')}</p>
          ) : (
            <dl className="details" data-testid="payment-metadata">
              {p.client_reference_id && (
                <>
                  <dt>{t('payment.clientReference')}</dt>
                  <dd className="mono wrap-anywhere">{p.client_reference_id}</dd>
                </>
              )}
              {metadata.map(([key, value]) => (
                <Fragment key={key}>
                  <dt className="mono">{key}</dt>
                  <dd className="wrap-anywhere">{value}</dd>
                </Fragment>
              ))}
            </dl>
          )}
          {(p.custom_fields ?? []).length > 0 && (
            <>
              <h3 id="custom-fields-title">{t('payment.customFields')}</h3>
              <dl className="details" data-testid="payment-custom-fields">
                {(p.custom_fields ?? []).map((field) => (
                  <Fragment key={field.key}>
                    <dt>{field.label.custom}</dt>
                    <dd className="wrap-anywhere">{answerOf(field) ?? t('payment.customFields.unanswered')}</dd>
                  </Fragment>
                ))}
              </dl>
            </>
          )}
        </section>
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title">{t('payment.timeline')}</h2>
          <ol className="timeline" data-testid="payment-timeline">
            <li>
              <span>{t('payment.started')}</span> <time>{formatTime(p.created)}</time>
            </li>
            {p.timeline.map((e) => (
              <li key={e.id} data-testid="timeline-event">
                <span>{eventLabel(e)}</span> <time>{formatTime(e.created)}</time>
                {e.deliveries && (
                  <EventDeliveries event={e} label={eventLabel(e)} deliveries={e.deliveries} canResend={can(role, 'webhooks.manage')} path={path} />
                )}
              </li>
            ))}
          </ol>
        </section>
        <section aria-labelledby="refunds-title">
          <h2 id="refunds-title">{t('payment.refunds')}</h2>
          {p.refunds.length === 0 ? (
            <p>{t('payment.noRefunds')}</p>
          ) : (
            <div className="table-scroll">
              <table className="data" data-testid="payment-refunds">
                <ColumnHeads
                  labels={[t('payment.refund.col.amount'), t('payment.refund.col.reason'), t('payment.refund.col.status'), t('payment.refund.col.when')]}
                />
                <tbody>
                  {p.refunds.map((r) => (
                    <tr key={r.id}>
                      <td>
                        {money(r.amount)}
                        <br />
                        <CopyId id={r.id} what={t('payment.refunds')} />
                      </td>
                      <td>{r.reason ? statusLabel(r.reason) : '—'}</td>
                      <td>
                        <StatusBadge status={r.status} />
                      </td>
                      <td>{formatTime(r.created)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <section aria-labelledby="details-title">
          <h2 id="details-title">{t('payment.details')}</h2>
          <dl className="details">
            <dt>{t('payment.customer')}</dt>
            <dd>
              {p.customer && can(role, 'customers.read') ? (
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
            {p.amount_disputed > 0 && (
              <>
                <dt>{t('payment.disputed')}</dt>
                <dd>{money(p.amount_disputed)}</dd>
                <dt>{t('payment.lostToDisputes')}</dt>
                <dd>{money(p.amount_lost)}</dd>
              </>
            )}
            <dt>{t('payment.net')}</dt>
            <dd data-testid="payment-net">{money(p.amount_captured - p.amount_refunded - p.amount_lost)}</dd>
            <dt>{t('payment.captureMethod')}</dt>
            <dd>{p.capture_method}</dd>
            <dt>{t('payment.checkoutSession')}</dt>
            <dd>
              {p.checkout_session ? (
                <>
                  <Link href={`/dashboard${base}/sessions/${p.checkout_session}`}>{p.checkout_session}</Link>{' '}
                  <CopyId id={p.checkout_session} what={t('payment.checkoutSession')} />
                </>
              ) : (
                '—'
              )}
            </dd>
            {p.invoice && (
              <>
                <dt>{t('payment.invoice')}</dt>
                <dd>
                  {can(role, 'subscriptions.read') ? (
                    <Link href={`/dashboard${base}/invoices/${p.invoice}`} data-testid="payment-invoice">
                      {p.invoice}
                    </Link>
                  ) : (
                    p.invoice
                  )}
                </dd>
              </>
            )}
          </dl>
          <h3>{t('payment.method')}</h3>
          <dl className="details">
            <dt>{t('payment.method.type')}</dt>
            <dd>{method ? methodTypeName(method.type, t) : '—'}</dd>
            {method && wallets.has(method.type) && (
              <>
                <dt>{t('payment.method.wallet')}</dt>
                <dd>{t(methodTypeLabels[method.type]!)}</dd>
              </>
            )}
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
            {bank && (
              <>
                <dt>{t('payment.method.bank')}</dt>
                <dd data-testid="payment-bank">{bank.bank ?? '—'}</dd>
                <dt>{t('payment.method.bic')}</dt>
                <dd className="mono">{bank.bic ?? '—'}</dd>
                <dt>{t('payment.method.ibanLast4')}</dt>
                <dd className="mono">{bank.iban_last4 ?? '—'}</dd>
              </>
            )}
            {account && (
              <>
                <dt>{t('payment.method.bank')}</dt>
                <dd data-testid="payment-bank">{account.bank_name ?? '—'}</dd>
                <dt>{t('payment.method.accountLast4')}</dt>
                <dd className="mono">{account.last4 ?? '—'}</dd>
                <dt>{t('payment.method.routingNumber')}</dt>
                <dd className="mono">{account.routing_number ?? '—'}</dd>
                <dt>{t('payment.method.accountType')}</dt>
                <dd>{account.account_type ?? '—'}</dd>
                <dt>{t('payment.method.accountHolderType')}</dt>
                <dd>{account.account_holder_type ?? '—'}</dd>
                <dt>{t('payment.achReturn')}</dt>
                <dd data-testid="payment-ach-return">
                  {p.ach_return
                    ? t('payment.achReturn.value', {
                        code: p.ach_return.code,
                        reason: statusLabel(p.ach_return.reason),
                        at: formatTime(p.ach_return.returned_at),
                      })
                    : t('payment.achReturn.none')}
                </dd>
              </>
            )}
            <dt>{t('payment.method.card')}</dt>
            <dd>{method?.last4 && !account ? t('payments.card', { brand: method.brand ?? t('payments.cardUnknownBrand'), last4: method.last4 }) : '—'}</dd>
            <dt>{t('payment.method.expires')}</dt>
            <dd>{method?.exp_month ? `${String(method.exp_month).padStart(2, '0')}/${method.exp_year}` : '—'}</dd>
            <dt>{t('payment.threeDSecure')}</dt>
            <dd data-testid="payment-three-d-secure">
              {p.three_d_secure
                ? t('payment.threeDSecure.result', { status: p.three_d_secure.status, shifted: p.three_d_secure.liability_shifted ? 'yes' : 'no' })
                : t('payment.threeDSecure.notUsed')}
            </dd>
            <dt>{t('payment.riskDecision')}</dt>
            <dd data-testid="payment-risk-decision">{p.risk_decision ?? t('payment.riskDecision.none')}</dd>
          </dl>
          <h3>{t('payment.processor')}</h3>
          <dl className="details">
            <dt>{t('payment.processor.name')}</dt>
            <dd>{p.processor}</dd>
            <dt>{t('payment.processor.transaction')}</dt>
            <dd className="mono wrap-anywhere">{p.processor_transaction_id ?? '—'}</dd>
            <dt>{t('payment.processor.response')}</dt>
            <dd>{p.processor_response ? `${p.processor_response.code} ${p.processor_response.text}` : '—'}</dd>
            <dt>{t('payment.processor.declineCode')}</dt>
            <dd>{p.decline_code ?? '—'}</dd>
          </dl>
        </section>
      </div>
      {p.request_log && (
        <section aria-labelledby="request-log-title">
          <h2 id="request-log-title">{t('payment.requestLog')}</h2>
          {p.request_log.length === 0 ? (
            <p>{t('payment.requestLog.none')}</p>
          ) : (
            <div className="table-scroll">
              <table className="data" data-testid="payment-request-log">
                <ColumnHeads
                  labels={[
                    t('payment.requestLog.col.request'),
                    t('payment.requestLog.col.status'),
                    t('payment.requestLog.col.when'),
                    t('payment.requestLog.col.requestId'),
                  ]}
                />
                <tbody>
                  {p.request_log.map((r) => (
                    <tr key={r.id}>
                      <td className="mono">
                        {r.method} {r.path}
                      </td>
                      <td>
                        {r.status}
                        {r.error_code ? ` ${r.error_code}` : ''}
                      </td>
                      <td>{formatTime(r.created)}</td>
                      <td className="mono">{r.request_id}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      )}
    </>
  );
}
