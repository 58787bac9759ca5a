import { useState } from 'react';
import { can } from '../../../src/domain/team/permissions';
import { api, DashboardApiError, type List } from '../api';
import { ErrorNote, ModeTable } from '../components';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { useLoad } from '../use-load';
import { FormattedMessage } from 'react-intl';
import { useT, type DashboardMessageKey } from '../i18n';

interface ApiKey {
  id: string;
  kind: 'secret' | 'publishable';
  redacted: string;
  created: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

interface ApiRequest {
  id: string;
  method: string;
  path: string;
  status: number;
  error_code: string | null;
  created: number;
}

/** API keys of the current mode (created, shown once, revoked) and the log of recent API calls. */
export function DevelopersPage({ base, place }: PageScope) {
  const t = useT();
  const keys = useLoad(() => api<List<ApiKey>>('GET', `/accounts${base}/api-keys`), base);
  const log = useLoad(() => api<List<ApiRequest>>('GET', `/accounts${base}/request-log`), base);
  const [created, setCreated] = useState<{ secret: string; kind: string } | null>(null);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const manage = can(place.account.role, 'keys.manage');
  const logVisible = can(place.account.role, 'request_log.read');

  const create = async (kind: 'secret' | 'publishable') => {
    setBusy(true);
    setError(null);
    try {
      const key = await api<{ secret: string }>('POST', `/accounts${base}/api-keys`, { kind });
      setCreated({ secret: key.secret, kind });
      await keys.reload();
    } catch (e) {
      setError(e as DashboardApiError);
    }
    setBusy(false);
  };
  const revoke = async (key: ApiKey) => {
    if (!window.confirm(t('developers.revokeConfirm', { key: key.redacted }))) return;
    try {
      await api('POST', `/accounts${base}/api-keys/${key.id}/revoke`);
      await keys.reload();
    } catch (e) {
      setError(e as DashboardApiError);
    }
  };

  return (
    <>
      <h1>{t('developers.title')}</h1>
      <section aria-labelledby="keys-title">
        <div className="page-head">
          <h2 id="keys-title">{t('developers.keys', { mode: place.mode })}</h2>
          {manage && (
            <div className="actions">
              <button type="button" disabled={busy} onClick={() => create('secret')}>
                {t('developers.createSecret')}
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => create('publishable')}>
                {t('developers.createPublishable')}
              </button>
            </div>
          )}
        </div>
        <ErrorNote error={error ?? keys.error} />
        {created && (
          <div className="reveal" role="status">
            <p>
              <FormattedMessage id={'developers.newKey' satisfies DashboardMessageKey} values={{ kind: created.kind, strong: (chunks) => <strong>{chunks}</strong> }} />
            </p>
            <code data-testid="new-key">{created.secret}</code>{' '}
            <button type="button" className="secondary" onClick={() => void navigator.clipboard?.writeText(created.secret)}>
              {t('developers.copy')}
            </button>{' '}
            <button type="button" className="link-button" onClick={() => setCreated(null)}>
              {t('developers.done')}
            </button>
          </div>
        )}
        <ModeTable
          rows={keys.data?.data}
          what={t('developers.keys.loading')}
          emptyWhat={t('developers.keys.none')}
          mode={place.mode}
          columns={[t('developers.col.key'), t('developers.col.type'), t('developers.col.created'), t('developers.col.lastUsed'), t('developers.col.state')]}
          row={(k) => (
                <tr key={k.id}>
                  <td className="mono">{k.redacted}</td>
                  <td>{k.kind}</td>
                  <td>{formatTime(k.created)}</td>
                  <td>{k.last_used_at ? formatTime(k.last_used_at) : t('developers.never')}</td>
                  <td>
                    {k.revoked_at ? (
                      t('developers.revokedAt', { when: formatTime(k.revoked_at) })
                    ) : manage ? (
                      <button type="button" className="danger" onClick={() => revoke(k)} aria-label={t('developers.revokeKey', { key: k.redacted })}>
                        {t('developers.revoke')}
                      </button>
                    ) : (
                      t('developers.active')
                    )}
                  </td>
                </tr>
          )}
        />
      </section>
      {logVisible && (
        <section aria-labelledby="log-title">
          <h2 id="log-title">{t('developers.log')}</h2>
          <ErrorNote error={log.error} />
          <ModeTable
            rows={log.data?.data}
            what={t('developers.log.loading')}
            emptyWhat={t('developers.log.none')}
            mode={place.mode}
            columns={[t('developers.col.request'), t('developers.col.status'), t('developers.col.error'), t('developers.col.when')]}
            row={(r) => (
                  <tr key={r.id}>
                    <td className="mono">
                      {r.method} {r.path}
                    </td>
                    <td className={r.status >= 400 ? 'status-error' : undefined}>{r.status}</td>
                    <td>{r.error_code ?? '—'}</td>
                    <td>{formatTime(r.created)}</td>
                  </tr>
            )}
          />
        </section>
      )}
    </>
  );
}
