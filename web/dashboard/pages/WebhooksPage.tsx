import { useState, type FormEvent } from 'react';
import { eventTypes } from '../../../src/domain/events';
import { can } from '../../../src/domain/permissions';
import { api, type List } from '../api';
import { ErrorNote, Field, Loading, ModeTable, StatusBadge } from '../components';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  status: 'enabled' | 'disabled';
  secret?: string;
  created: number;
}

interface Delivery {
  id: string;
  event: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  created: number;
  request_body: string | null;
  log: Array<{ attempt: number; outcome: string; response_status: number | null; response_body: string | null; duration_ms: number; error: string | null; started_at: number }>;
}

/** Webhook endpoints (secret revealed once, rollable), each with its delivery log and resend. */
export function WebhooksPage({ base, place }: PageScope) {
  const endpoints = useLoad(() => api<List<Endpoint>>('GET', `/accounts${base}/webhook-endpoints?limit=100`), base);
  const manage = can(place.account.role, 'webhooks.manage');
  const { busy, error, notice, act } = useAction();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['*']);
  const [revealed, setRevealed] = useState<{ url: string; secret: string } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);


  const create = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const created = await api<Endpoint>('POST', `/accounts${base}/webhook-endpoints`, { url: url.trim(), enabled_events: events });
      setRevealed({ url: created.url, secret: created.secret! });
      setUrl('');
      await endpoints.reload();
    });
  };
  const roll = (endpoint: Endpoint) =>
    act(async () => {
      if (!window.confirm(`Replace the signing secret of ${endpoint.url}? The old one stops working at once.`)) return;
      const rolled = await api<Endpoint>('POST', `/accounts${base}/webhook-endpoints/${endpoint.id}/roll-secret`);
      setRevealed({ url: rolled.url, secret: rolled.secret! });
    });
  const toggle = (endpoint: Endpoint) =>
    act(async () => {
      await api('POST', `/accounts${base}/webhook-endpoints/${endpoint.id}`, { disabled: endpoint.status === 'enabled' });
      await endpoints.reload();
    });
  const remove = (endpoint: Endpoint) =>
    act(async () => {
      if (!window.confirm(`Delete ${endpoint.url} and its delivery log?`)) return;
      await api('DELETE', `/accounts${base}/webhook-endpoints/${endpoint.id}`);
      if (selected === endpoint.id) setSelected(null);
      await endpoints.reload();
    });
  const toggleEvent = (type: string, on: boolean) => {
    const rest = events.filter((e) => e !== type && e !== '*');
    setEvents(type === '*' ? (on ? ['*'] : []) : on ? [...rest, type] : rest);
  };

  return (
    <>
      <h1>Webhooks</h1>
      <ErrorNote error={error ?? endpoints.error} />
      {revealed && (
        <div className="reveal" role="status">
          <p>
            Signing secret of {revealed.url}. Copy it now: it is shown <strong>only once</strong>.
          </p>
          <code data-testid="webhook-secret">{revealed.secret}</code>{' '}
          <button type="button" className="secondary" onClick={() => void navigator.clipboard?.writeText(revealed.secret)}>
            Copy
          </button>{' '}
          <button type="button" className="link-button" onClick={() => setRevealed(null)}>
            Done
          </button>
        </div>
      )}
      {manage && (
        <form className="panel" onSubmit={create} aria-labelledby="new-endpoint-title">
          <h2 id="new-endpoint-title">Add an endpoint</h2>
          <Field id="endpoint-url" label="Endpoint URL" hint={place.mode === 'live' ? 'https, on a public address.' : 'Test mode also accepts http://localhost.'}>
            <input id="endpoint-url" type="url" required value={url} aria-describedby="endpoint-url-hint" onChange={(e) => setUrl(e.target.value)} />
          </Field>
          <fieldset className="events">
            <legend>Events to send</legend>
            {['*', ...eventTypes].map((type) => (
              <label key={type} className="inline">
                <input type="checkbox" checked={events.includes(type)} onChange={(e) => toggleEvent(type, e.target.checked)} />
                {type === '*' ? 'All events' : type}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={busy || events.length === 0}>
            Add endpoint
          </button>
        </form>
      )}
      <ModeTable
        rows={endpoints.data?.data}
        what="webhook endpoints"
        emptyWhat="webhook endpoints"
        mode={place.mode}
        columns={['URL', 'Events', 'State', 'Actions']}
        row={(e) => (
              <tr key={e.id}>
                <td className="mono">{e.url}</td>
                <td>{e.enabled_events.includes('*') ? 'All events' : e.enabled_events.join(', ')}</td>
                <td>
                  <StatusBadge status={e.status} />
                </td>
                <td className="actions">
                  <button type="button" className="secondary" onClick={() => setSelected(e.id)} aria-label={`Delivery log of ${e.url}`}>
                    Deliveries
                  </button>
                  {manage && (
                    <>
                      <button type="button" className="secondary" disabled={busy} onClick={() => void roll(e)} aria-label={`Roll secret of ${e.url}`}>
                        Roll secret
                      </button>
                      <button type="button" className="secondary" disabled={busy} onClick={() => void toggle(e)}>
                        {e.status === 'enabled' ? 'Disable' : 'Enable'}
                      </button>
                      <button type="button" className="danger" disabled={busy} onClick={() => void remove(e)} aria-label={`Delete ${e.url}`}>
                        Delete
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
  const deliveries = useLoad(() => api<List<Delivery>>('GET', `${path}/deliveries?limit=50`), path);
  const { error, notice, act } = useAction();
  const resend = (delivery: Delivery) =>
    act(async () => {
      await api('POST', `${path}/deliveries/${delivery.id}/resend`);
      await deliveries.reload();
      return `Delivery of ${delivery.event_type} queued again.`;
    });
  return (
    <section aria-labelledby="deliveries-title">
      <div className="page-head">
        <h2 id="deliveries-title">Delivery log</h2>
        <button type="button" className="secondary" onClick={() => void deliveries.reload()}>
          Refresh
        </button>
      </div>
      <ErrorNote error={error ?? deliveries.error} />
      {notice && <p role="status">{notice}</p>}
      {!deliveries.data ? (
        <Loading what="deliveries" />
      ) : deliveries.data.data.length === 0 ? (
        <p>Nothing sent to this endpoint yet.</p>
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
                    <button type="button" className="secondary" onClick={() => void resend(d)} aria-label={`Resend ${d.event_type} ${d.id}`}>
                      Resend
                    </button>
                  )}
                </div>
                <p>
                  {formatTime(d.created)} · {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                  {last && ` · last answer ${last.response_status ?? 'none'} in ${last.duration_ms} ms`}
                  {d.next_attempt_at && ` · next attempt ${formatTime(d.next_attempt_at)}`}
                </p>
                <details>
                  <summary>Request and responses</summary>
                  <h4>Request body</h4>
                  <pre className="mono" tabIndex={0}>{d.request_body ?? '—'}</pre>
                  {d.log.map((a) => (
                    <div key={a.attempt}>
                      <h4>
                        Attempt {a.attempt}: {a.outcome}, status {a.response_status ?? 'none'}, {a.duration_ms} ms
                      </h4>
                      {a.error && <p className="error">{a.error}</p>}
                      <pre className="mono" tabIndex={0}>{a.response_body ?? ''}</pre>
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
