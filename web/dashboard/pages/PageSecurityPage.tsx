import { useState } from 'react';
import { can } from '../../../src/domain/team/permissions';
import { api, type List } from '../api';
import { ErrorNote, Loading } from '../components';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { useAction } from '../use-action';
import { useApiQuery } from '../queries';
import { FormattedMessage } from 'react-intl';
import { useT, type DashboardMessageKey } from '../i18n';

interface Script {
  id: string;
  party: 'first' | 'third';
  type: 'script' | 'stylesheet';
  url: string;
  sha384: string | null;
  size: number | null;
  integrity: 'sri' | 'csp_origin';
  loading: 'page' | 'on_demand';
  loaded_when: string[];
  justification: string | null;
  integrity_note: string | null;
  merchant_note: string | null;
}

interface Difference {
  kind: string;
  subject: string;
  before: string | null;
  after: string | null;
}

interface Change {
  id: string;
  digest: string;
  differences: Difference[];
  detected_at: number;
  resolved_at: number | null;
  resolution: string | null;
}

interface PageSecurity {
  current: { digest: string };
  baseline: { digest: string; approved_by: string | null; approved_at: number } | null;
  matches_baseline: boolean;
  open_change: Change | null;
  content_security_policy: string;
  scripts: Script[];
}

interface CspReport {
  id: string;
  directive: string;
  blocked_url: string;
  document_url: string;
  disposition: string;
  sample: string | null;
  received_at: number;
}

const setups: Record<string, DashboardMessageKey> = {
  always: 'pageSecurity.setup.always',
  test_processor: 'pageSecurity.setup.testProcessor',
  braintree: 'pageSecurity.setup.braintree',
  card: 'pageSecurity.setup.card',
  google_pay: 'pageSecurity.setup.googlePay',
  three_d_secure: 'pageSecurity.setup.threeDSecure',
  sentry: 'pageSecurity.setup.sentry',
};

const differenceLabel: Record<string, DashboardMessageKey> = {
  script_added: 'pageSecurity.difference.scriptAdded',
  script_removed: 'pageSecurity.difference.scriptRemoved',
  script_changed: 'pageSecurity.difference.scriptChanged',
  tag_added: 'pageSecurity.difference.tagAdded',
  tag_removed: 'pageSecurity.difference.tagRemoved',
  header_changed: 'pageSecurity.difference.headerChanged',
};

const strong = (chunks: React.ReactNode[]) => <strong>{chunks}</strong>;
const code = (chunks: React.ReactNode[]) => <code>{chunks}</code>;

function NoteEditor({ script, path, editable, onSaved }: { script: Script; path: string; editable: boolean; onSaved: () => void }) {
  const t = useT();
  const [text, setText] = useState(script.merchant_note ?? '');
  const action = useAction();
  if (!editable) return <>{script.merchant_note ?? '—'}</>;
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void action.act(async () => {
          await api('POST', `${path}/scripts/${encodeURIComponent(script.id)}/note`, { note: text });
          onSaved();
          return t('pageSecurity.noteSaved');
        });
      }}
    >
      <label className="visually-hidden" htmlFor={`note-${script.id}`}>
        {t('pageSecurity.noteOn', { id: script.id })}
      </label>
      <input id={`note-${script.id}`} value={text} maxLength={2000} onChange={(e) => setText(e.target.value)} />
      <button type="submit" disabled={action.busy}>
        {t('pageSecurity.saveNote')}
      </button>
      {action.notice && <span role="status">{action.notice}</span>}
      <ErrorNote error={action.error} />
    </form>
  );
}

/**
 * Settings → Payment page security: the checkout page's script inventory with SHA-384 hashes and
 * reasons (PCI DSS 6.4.3), its fingerprint against the approved baseline and the changes detected
 * (11.6.1), CSP violation reports, and the export for an assessor.
 */
export function PageSecurityPage({ place }: PageScope) {
  const t = useT();
  const path = `/accounts/${place.account.id}/page-security`;
  const state = useApiQuery<PageSecurity>(path);
  const reports = useApiQuery<List<CspReport>>(`${path}/csp-reports?limit=20`);
  const changes = useApiQuery<List<Change>>(`${path}/changes?limit=20`);
  const approve = useAction();
  const manage = can(place.account.role, 'settings.manage');
  const data = state.data;

  return (
    <>
      <h1>{t('pageSecurity.title')}</h1>
      <p>{t('pageSecurity.intro')}</p>
      <p className="actions">
        <a href={`/dashboard/api${path}/export.json`} download>
          {t('pageSecurity.downloadEvidence')}
        </a>{' '}
        <a href={`/dashboard/api${path}/export.csv`} download>
          {t('pageSecurity.downloadInventory')}
        </a>
      </p>
      <ErrorNote error={state.error} />
      {!data ? (
        <Loading what={t('pageSecurity.loading')} />
      ) : (
        <>
          <section aria-labelledby="page-status">
            <h2 id="page-status">{t('pageSecurity.changeDetection')}</h2>
            {data.baseline === null ? (
              <p role="status" data-testid="page-status">
                {t('pageSecurity.noBaseline')}
              </p>
            ) : data.matches_baseline ? (
              <p role="status" data-testid="page-status">
                {t('pageSecurity.matches', {
                  approved: data.baseline?.approved_by ? 'by' : 'first',
                  approver: data.baseline?.approved_by ?? '',
                  when: formatTime(data.baseline?.approved_at ?? null),
                })}
              </p>
            ) : (
              <div role="alert" className="alert" data-testid="page-status">
                <p>
                  <FormattedMessage
                    id={'pageSecurity.changed' satisfies DashboardMessageKey}
                    values={{
                      strong,
                      detected: data.open_change ? 'yes' : 'no',
                      when: data.open_change ? formatTime(data.open_change.detected_at) : '',
                    }}
                  />
                </p>
                {data.open_change && (
                  <ul>
                    {data.open_change.differences.map((d) => (
                      <li key={`${d.kind}:${d.subject}`}>
                        <FormattedMessage
                          id={'pageSecurity.difference' satisfies DashboardMessageKey}
                          values={{ label: differenceLabel[d.kind] ? t(differenceLabel[d.kind]!) : d.kind, subject: d.subject, code }}
                        />
                      </li>
                    ))}
                  </ul>
                )}
                {manage && (
                  <button
                    type="button"
                    disabled={approve.busy}
                    onClick={() =>
                      void approve.act(async () => {
                        await api('POST', `${path}/baseline`, { digest: data.current.digest });
                        await Promise.all([state.reload(), changes.reload()]);
                        return t('pageSecurity.approved');
                      })
                    }
                  >
                    {t('pageSecurity.approve')}
                  </button>
                )}
              </div>
            )}
            {approve.notice && <p role="status">{approve.notice}</p>}
            <ErrorNote error={approve.error} />
            <p className="hint">
              <FormattedMessage id={'pageSecurity.fingerprint' satisfies DashboardMessageKey} values={{ digest: data.current.digest.slice(0, 16), code }} />
            </p>
          </section>

          <section aria-labelledby="inventory">
            <h2 id="inventory">{t('pageSecurity.scripts', { count: data.scripts.length })}</h2>
            <table className="data">
              <caption className="visually-hidden">{t('pageSecurity.scripts.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('pageSecurity.col.script')}</th>
                  <th scope="col">{t('pageSecurity.col.integrity')}</th>
                  <th scope="col">{t('pageSecurity.col.loadedWhen')}</th>
                  <th scope="col">{t('pageSecurity.col.why')}</th>
                  <th scope="col">{t('pageSecurity.col.note')}</th>
                </tr>
              </thead>
              <tbody>
                {data.scripts.map((script) => (
                  <tr key={script.id}>
                    <td>
                      <strong>{script.id}</strong>
                      <br />
                      <code>{script.url}</code>
                    </td>
                    <td>
                      {script.sha384 ? <code title={script.sha384}>{script.sha384.slice(0, 18)}…</code> : t('pageSecurity.originPinned')}
                      {script.size !== null && <div>{t('pageSecurity.size', { kb: (script.size / 1024).toFixed(1) })}</div>}
                      {script.integrity_note && <div className="hint">{script.integrity_note}</div>}
                    </td>
                    <td>{script.loaded_when.map((c) => (setups[c] ? t(setups[c]!) : c)).join(' + ')}</td>
                    <td>{script.justification ?? <strong>{t('pageSecurity.noJustification')}</strong>}</td>
                    <td>
                      <NoteEditor script={script} path={path} editable={manage} onSaved={() => void state.reload()} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}

      <section aria-labelledby="csp-reports">
        <h2 id="csp-reports">{t('pageSecurity.csp')}</h2>
        <ErrorNote error={reports.error} />
        {reports.data && reports.data.data.length === 0 && <p>{t('pageSecurity.csp.none')}</p>}
        {reports.data && reports.data.data.length > 0 && (
          <table className="data">
            <caption className="visually-hidden">{t('pageSecurity.csp.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('pageSecurity.csp.col.when')}</th>
                <th scope="col">{t('pageSecurity.csp.col.directive')}</th>
                <th scope="col">{t('pageSecurity.csp.col.blocked')}</th>
                <th scope="col">{t('pageSecurity.csp.col.page')}</th>
              </tr>
            </thead>
            <tbody>
              {reports.data.data.map((r) => (
                <tr key={r.id}>
                  <td>{formatTime(r.received_at)}</td>
                  <td>{t('pageSecurity.csp.directive', { directive: r.directive, disposition: r.disposition })}</td>
                  <td>
                    <code>{r.blocked_url || r.sample || '—'}</code>
                  </td>
                  <td>
                    <code>{r.document_url}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="changes">
        <h2 id="changes">{t('pageSecurity.history')}</h2>
        <ErrorNote error={changes.error} />
        {changes.data && changes.data.data.length === 0 && <p>{t('pageSecurity.history.none')}</p>}
        {changes.data && changes.data.data.length > 0 && (
          <ul>
            {changes.data.data.map((c) => (
              <li key={c.id}>
                {t('pageSecurity.history.entry', {
                  when: formatTime(c.detected_at),
                  count: c.differences.length,
                  resolved: c.resolution ? 'yes' : 'no',
                  resolution: c.resolution ?? '',
                  resolvedAt: c.resolution ? formatTime(c.resolved_at) : '',
                })}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
