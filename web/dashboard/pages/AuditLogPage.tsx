import type { List } from '../api';
import { ErrorNote, Loading } from '../components';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { Pager, useCursorStack } from '../Pager';
import { useApiQuery } from '../queries';
import { useT } from '../i18n';

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
  const t = useT();
  const pages = useCursorStack();
  const after = pages.after;
  const path = `/accounts/${place.account.id}/audit-log?limit=50${after ? `&starting_after=${after}` : ''}`;
  const log = useApiQuery<List<AuditEntry>>(path);
  return (
    <>
      <h1>{t('audit.title')}</h1>
      <ErrorNote error={log.error} />
      {!log.data ? (
        <Loading what={t('audit.loading')} />
      ) : (
        <>
          <table className="data">
            <caption className="visually-hidden">{t('audit.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('audit.col.when')}</th>
                <th scope="col">{t('audit.col.who')}</th>
                <th scope="col">{t('audit.col.action')}</th>
                <th scope="col">{t('audit.col.target')}</th>
                <th scope="col">{t('audit.col.mode')}</th>
                <th scope="col">{t('audit.col.from')}</th>
              </tr>
            </thead>
            <tbody>
              {log.data.data.map((e) => (
                <tr key={e.id}>
                  <td>{formatTime(e.created)}</td>
                  <td>{e.actor.type === 'api_key' ? t('audit.apiKey', { label: e.actor.label }) : e.actor.label}</td>
                  <td className="mono">{e.action}</td>
                  <td className="mono">{e.target ?? '—'}</td>
                  <td>{e.mode ?? t('audit.accountWide')}</td>
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
