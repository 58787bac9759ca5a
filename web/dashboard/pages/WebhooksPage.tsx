import { Fragment, useState, type FormEvent } from 'react';
import { eventTypes } from '../../../src/domain/shared/events';
import { can } from '../../../src/domain/team/permissions';
import { api, type List, type WebhookDelivery, type WebhookEndpoint } from '../api';
import { ErrorNote, Field, Loading, ModeTable, StatusBadge } from '../components';
import { Confirm } from '../Confirm';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { useAction } from '../use-action';
import { useApiQuery } from '../queries';
import { FormattedMessage } from 'react-intl';
import { useT, type DashboardMessageKey } from '../i18n';

/** Webhook endpoints (secret revealed once, rollable), each with its delivery log and resend. */
export function WebhooksPage({ base, place }: PageScope) {
  const t = useT();
  const endpoints = useApiQuery<List<WebhookEndpoint>>(`/accounts${base}/webhook-endpoints?limit=100`);
  const manage = can(place.account.role, 'webhooks.manage');
  const { busy, error, act } = useAction();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['*']);
  const [revealed, setRevealed] = useState<{ url: string; secret: string } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);

  const create = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const created = await api<WebhookEndpoint>('POST', `/accounts${base}/webhook-endpoints`, { url: url.trim(), enabled_events: events });
      setRevealed({ url: created.url, secret: created.secret! });
      setUrl('');
    }, [`/accounts${base}/webhook-endpoints`]);
  };
  // Rolling the secret and deleting cannot be undone: each waits for the in-page confirmation.
  const [confirming, setConfirming] = useState<{ endpoint: WebhookEndpoint; action: 'roll' | 'delete' } | null>(null);
  const roll = (endpoint: WebhookEndpoint) =>
    act(async () => {
      setConfirming(null);
      const rolled = await api<WebhookEndpoint>('POST', `/accounts${base}/webhook-endpoints/${endpoint.id}/roll-secret`);
      setRevealed({ url: rolled.url, secret: rolled.secret! });
    });
  const toggle = (endpoint: WebhookEndpoint) =>
    act(async () => {
      await api('POST', `/accounts${base}/webhook-endpoints/${endpoint.id}`, { disabled: endpoint.status === 'enabled' });
    }, [`/accounts${base}/webhook-endpoints`]);
  const remove = (endpoint: WebhookEndpoint) =>
    act(async () => {
      setConfirming(null);
      await api('DELETE', `/accounts${base}/webhook-endpoints/${endpoint.id}`);
      if (selected === endpoint.id) setSelected(null);
    }, [`/accounts${base}/webhook-endpoints`]);
  const toggleEvent = (type: string, on: boolean) => {
    const rest = events.filter((e) => e !== type && e !== '*');
    setEvents(type === '*' ? (on ? ['*'] : []) : on ? [...rest, type] : rest);
  };

  return (
    <>
      <h1>{t('webhooks.title')}</h1>
      <ErrorNote error={error ?? endpoints.error} />
      {revealed && (
        <div className="reveal" role="status">
          <p>
            <FormattedMessage
              id={'webhooks.secretOnce' satisfies DashboardMessageKey}
              values={{ url: revealed.url, strong: (chunks) => <strong>{chunks}</strong> }}
            />
          </p>
          <code data-testid="webhook-secret">{revealed.secret}</code>{' '}
          <button type="button" className="secondary" onClick={() => void navigator.clipboard?.writeText(revealed.secret)}>
            {t('webhooks.copy')}
          </button>{' '}
          <button type="button" className="link-button" onClick={() => setRevealed(null)}>
            {t('webhooks.done')}
          </button>
        </div>
      )}
      {manage && (
        <form className="panel" onSubmit={create} aria-labelledby="new-endpoint-title">
          <h2 id="new-endpoint-title">{t('webhooks.addTitle')}</h2>
          <Field id="endpoint-url" label={t('webhooks.endpointUrl')} hint={place.mode === 'live' ? t('webhooks.urlHintLive') : t('webhooks.urlHintTest')}>
            <input id="endpoint-url" type="url" required value={url} aria-describedby="endpoint-url-hint" onChange={(e) => setUrl(e.target.value)} />
          </Field>
          <fieldset className="events">
            <legend>{t('webhooks.events')}</legend>
            {['*', ...eventTypes].map((type) => (
              <label key={type} className="inline">
                <input type="checkbox" checked={events.includes(type)} onChange={(e) => toggleEvent(type, e.target.checked)} />
                {type === '*' ? t('webhooks.allEvents') : <EventTypeName type={type} />}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={busy || events.length === 0}>
            {t('webhooks.addEndpoint')}
          </button>
        </form>
      )}
      {confirming && (
        <Confirm
          message={
            confirming.action === 'roll'
              ? t('webhooks.rollConfirm', { url: confirming.endpoint.url })
              : t('webhooks.deleteConfirm', { url: confirming.endpoint.url })
          }
          confirmLabel={confirming.action === 'roll' ? t('webhooks.rollConfirmButton') : t('webhooks.deleteConfirmButton')}
          busy={busy}
          onConfirm={() => void (confirming.action === 'roll' ? roll(confirming.endpoint) : remove(confirming.endpoint))}
          onCancel={() => setConfirming(null)}
        />
      )}
      <ModeTable
        rows={endpoints.data?.data}
        what={t('webhooks.loading')}
        emptyWhat={t('webhooks.none')}
        mode={place.mode}
        columns={[t('webhooks.col.url'), t('webhooks.col.events'), t('webhooks.col.state'), t('webhooks.col.actions')]}
        row={(e) => (
          <tr key={e.id}>
            <td className="mono">{e.url}</td>
            <td>{e.enabled_events.includes('*') ? t('webhooks.allEvents') : e.enabled_events.join(', ')}</td>
            <td>
              <StatusBadge status={e.status} />
            </td>
            <td className="actions">
              <button type="button" className="secondary" onClick={() => setSelected(e.id)} aria-label={t('webhooks.deliveryLogOf', { url: e.url })}>
                {t('webhooks.deliveries')}
              </button>
              {manage && (
                <>
                  <button
                    type="button"
                    className="secondary"
                    disabled={busy}
                    onClick={() => setConfirming({ endpoint: e, action: 'roll' })}
                    aria-label={t('webhooks.rollSecretOf', { url: e.url })}
                  >
                    {t('webhooks.rollSecret')}
                  </button>
                  <button type="button" className="secondary" disabled={busy} onClick={() => void toggle(e)}>
                    {e.status === 'enabled' ? t('webhooks.disable') : t('webhooks.enable')}
                  </button>
                  <button
                    type="button"
                    className="danger"
                    disabled={busy}
                    onClick={() => setConfirming({ endpoint: e, action: 'delete' })}
                    aria-label={t('webhooks.deleteOf', { url: e.url })}
                  >
                    {t('webhooks.delete')}
                  </button>
                </>
              )}
            </td>
          </tr>
        )}
      />
      {selected && <DeliveryLog key={selected} path={`/accounts${base}/webhook-endpoints/${selected}`} manage={manage} />}
    </>
  );
}

/** The deliveries to one endpoint: what was sent, what came back, how long it took; resend. */
function DeliveryLog({ path, manage }: { path: string; manage: boolean }) {
  const t = useT();
  const deliveries = useApiQuery<List<WebhookDelivery>>(`${path}/deliveries?limit=50`);
  const { error, notice, act } = useAction();
  const resend = (delivery: WebhookDelivery) =>
    act(async () => {
      await api('POST', `${path}/deliveries/${delivery.id}/resend`);
      return t('webhooks.resent', { type: delivery.event_type });
    }, [path]);
  return (
    <section aria-labelledby="deliveries-title">
      <div className="page-head">
        <h2 id="deliveries-title">{t('webhooks.deliveryLog')}</h2>
        <button type="button" className="secondary" onClick={() => void deliveries.reload()}>
          {t('webhooks.refresh')}
        </button>
      </div>
      <ErrorNote error={error ?? deliveries.error} />
      {notice && <p role="status">{notice}</p>}
      {!deliveries.data ? (
        <Loading what={t('webhooks.deliveries.loading')} />
      ) : deliveries.data.data.length === 0 ? (
        <p>{t('webhooks.deliveries.none')}</p>
      ) : (
        <ul className="deliveries">
          {deliveries.data.data.map((d) => {
            const last = d.log[d.log.length - 1];
            return (
              <li key={d.id} className="panel" data-testid="delivery">
                <div className="page-head">
                  <h3>
                    {d.event_type} <StatusBadge status={d.status} />
                  </h3>
                  {manage && (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => void resend(d)}
                      aria-label={t('webhooks.resendOf', { type: d.event_type, id: d.id })}
                    >
                      {t('webhooks.resend')}
                    </button>
                  )}
                </div>
                <p>
                  {t('webhooks.deliverySummary', {
                    created: formatTime(d.created),
                    attempts: d.attempts,
                    hasLast: last ? 'yes' : 'no',
                    status: last?.response_status ?? t('webhooks.noStatus'),
                    ms: last?.duration_ms ?? 0,
                    hasNext: d.next_attempt_at ? 'yes' : 'no',
                    next: d.next_attempt_at ? formatTime(d.next_attempt_at) : '',
                  })}
                </p>
                <details>
                  <summary>{t('webhooks.requestAndResponses')}</summary>
                  <h4>{t('webhooks.requestBody')}</h4>
                  {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block is reached by keyboard to scroll it. */}
                  <pre className="mono" tabIndex={0}>
                    {d.request_body ?? '—'}
                  </pre>
                  {d.log.map((a) => (
                    <div key={a.attempt}>
                      <h4>
                        {t('webhooks.attempt', {
                          attempt: a.attempt,
                          outcome: a.outcome,
                          status: a.response_status ?? t('webhooks.noStatus'),
                          ms: a.duration_ms,
                        })}
                      </h4>
                      {a.error && <p className="error">{a.error}</p>}
                      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block is reached by keyboard to scroll it. */}
                      <pre className="mono" tabIndex={0}>
                        {a.response_body ?? ''}
                      </pre>
                    </div>
                  ))}
                </details>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** An event type that may wrap after each dot on a phone ("customer.subscription.<wbr>trial_will_end"), never mid-word. */
function EventTypeName({ type }: { type: string }) {
  return (
    <>
      {type.split('.').map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one name, in order, never reordered.
        <Fragment key={i}>
          {i > 0 && '.'}
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
