import { api, type List } from '../api';
import { ErrorNote, Loading } from '../components';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { Pager, useCursorStack } from '../Pager';
import { useLoad } from '../use-load';

interface AuditEntry {
  id: string;
  mode: string | null;
  actor: { type: 'user' | 'api_key'; label: string };
  ip: string | null;
  action: string;
  target: string | null;
  created: number;
}

/** Who did what, when, from where. */
export function AuditLogPage({ place }: PageScope) {
  const pages = useCursorStack();
  const after = pages.after;
  const path = `/accounts/${place.account.id}/audit-log?limit=50${after ? `&starting_after=${after}` : ''}`;
  const log = useLoad(() => api<List<AuditEntry>>('GET', path), path);
  return (
    <>
      <h1>Audit log</h1>
      <ErrorNote error={log.error} />
      {!log.data ? (
        <Loading what="the audit log" />
      ) : (
        <>
          <table className="data">
            <caption className="visually-hidden">Audit log, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Mode</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {log.data.data.map((e) => (
                <tr key={e.id}>
                  <td>{formatTime(e.created)}</td>
                  <td>{e.actor.type === 'api_key' ? `API key ${e.actor.label}` : e.actor.label}</td>
                  <td className="mono">{e.action}</td>
                  <td className="mono">{e.target ?? '—'}</td>
                  <td>{e.mode ?? 'account'}</td>
                  <td>{e.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager atStart={pages.atStart} hasMore={log.data.has_more} onPrevious={pages.previous} onNext={() => pages.next(log.data!.data.at(-1)!.id)} />
        </>
      )}
    </>
  );
}
