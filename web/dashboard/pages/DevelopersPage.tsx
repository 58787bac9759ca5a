import { useState, type FormEvent } from 'react';
import { can } from '../../../src/domain/team/permissions';
import { apiResources, rollExpiries, type ApiPermissionLevel, type ApiResource } from '../../../src/domain/team/api-key-permissions';
import { api, type List } from '../api';
import { ErrorNote, Field, ModeTable } from '../components';
import { Confirm } from '../Confirm';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { useApiQuery } from '../queries';
import { useAction } from '../use-action';
import { FormattedMessage } from 'react-intl';
import { useT, type DashboardMessageKey } from '../i18n';

type KeyKind = 'secret' | 'restricted' | 'publishable';

interface ApiKey {
  id: string;
  kind: KeyKind;
  name: string;
  redacted: string;
  created: number;
  last_used_at: number | null;
  revoked_at: number | null;
  expires_at: number | null;
  permissions: Partial<Record<ApiResource, ApiPermissionLevel>> | null;
}

interface ApiRequest {
  id: string;
  method: string;
  path: string;
  status: number;
  error_code: string | null;
  created: number;
}

const levels: ApiPermissionLevel[] = ['none', 'read', 'write'];
const createLabel: Record<KeyKind, DashboardMessageKey> = {
  secret: 'developers.createSecret',
  restricted: 'developers.createRestricted',
  publishable: 'developers.createPublishable',
};
const rollChoice: Record<(typeof rollExpiries)[number], DashboardMessageKey> = {
  0: 'developers.roll.now',
  3600: 'developers.roll.hour',
  86400: 'developers.roll.day',
  604800: 'developers.roll.week',
};

const permissionSummary = (key: ApiKey) =>
  apiResources
    .filter((resource) => key.permissions?.[resource] && key.permissions[resource] !== 'none')
    .map((resource) => `${resource}: ${key.permissions![resource]}`)
    .join(', ');

/** The none/read/write grid of a restricted key's grants, one row per resource. */
function PermissionGrid({
  grants,
  onChange,
  caption,
  name,
}: {
  grants: Partial<Record<ApiResource, ApiPermissionLevel>>;
  onChange: (grants: Partial<Record<ApiResource, ApiPermissionLevel>>) => void;
  caption: string;
  name: string;
}) {
  const t = useT();
  return (
    <table className="data permissions">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('developers.resource')}</th>
          {levels.map((level) => (
            <th scope="col" key={level}>
              {t(`developers.level.${level}` as DashboardMessageKey)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {apiResources.map((resource) => (
          <tr key={resource}>
            <th scope="row" className="mono">
              {resource}
            </th>
            {levels.map((level) => (
              <td key={level}>
                <input
                  type="radio"
                  name={`${name}-${resource}`}
                  value={level}
                  aria-label={t('developers.grant', { resource, level: t(`developers.level.${level}` as DashboardMessageKey) })}
                  checked={(grants[resource] ?? 'none') === level}
                  onChange={() => onChange({ ...grants, [resource]: level })}
                />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * API keys of the current mode (named; secret, restricted with a grant per resource, or
 * publishable; shown once; renamed, a restricted key's grants changed, rolled with an overlap,
 * revoked after a confirmation) and the log of recent API calls.
 */
export function DevelopersPage({ base, place }: PageScope) {
  const t = useT();
  const keys = useApiQuery<List<ApiKey>>(`/accounts${base}/api-keys`);
  const log = useApiQuery<List<ApiRequest>>(`/accounts${base}/request-log`);
  const [created, setCreated] = useState<{ secret: string; kind: string } | null>(null);
  const { busy, error, act } = useAction();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<KeyKind>('secret');
  const [grants, setGrants] = useState<Partial<Record<ApiResource, ApiPermissionLevel>>>({});
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [rolling, setRolling] = useState<{ key: ApiKey; expiresIn: number } | null>(null);
  const [editing, setEditing] = useState<{ key: ApiKey; grants: Partial<Record<ApiResource, ApiPermissionLevel>> } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const readable = can(place.account.role, 'keys.read');
  const manage = can(place.account.role, 'keys.manage');
  const logVisible = can(place.account.role, 'request_log.read');

  const create = (event: FormEvent) => {
    event.preventDefault();
    return act(async () => {
      const body = { kind, ...(name.trim() ? { name } : {}), ...(kind === 'restricted' ? { permissions: grants } : {}) };
      const key = await api<{ secret: string }>('POST', `/accounts${base}/api-keys`, body);
      setCreated({ secret: key.secret, kind });
      setName('');
      setGrants({});
    }, [`/accounts${base}/api-keys`]);
  };
  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (!renaming) return;
    return act(async () => {
      await api('POST', `/accounts${base}/api-keys/${renaming.id}`, { name: renaming.name });
      setRenaming(null);
    }, [`/accounts${base}/api-keys`]);
  };
  const roll = (event: FormEvent) => {
    event.preventDefault();
    if (!rolling) return;
    return act(async () => {
      const key = await api<{ secret: string; kind: string }>('POST', `/accounts${base}/api-keys/${rolling.key.id}/roll`, { expires_in: rolling.expiresIn });
      setCreated({ secret: key.secret, kind: key.kind });
      setRolling(null);
    }, [`/accounts${base}/api-keys`]);
  };
  const savePermissions = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    return act(async () => {
      await api('POST', `/accounts${base}/api-keys/${editing.key.id}/permissions`, { permissions: editing.grants });
      setEditing(null);
    }, [`/accounts${base}/api-keys`]);
  };
  const revoke = (key: ApiKey) =>
    act(async () => {
      await api('POST', `/accounts${base}/api-keys/${key.id}/revoke`);
      setRevoking(null);
    }, [`/accounts${base}/api-keys`]);
  const keyLabel = (k: ApiKey) => (k.name ? `${k.name} (${k.redacted})` : k.redacted);
  const now = Date.now() / 1000;
  const state = (k: ApiKey) =>
    k.revoked_at
      ? t('developers.revokedAt', { when: formatTime(k.revoked_at) })
      : k.expires_at && k.expires_at <= now
        ? t('developers.expiredAt', { when: formatTime(k.expires_at) })
        : k.expires_at
          ? t('developers.expiresAt', { when: formatTime(k.expires_at) })
          : t('developers.active');

  // A role that may not read keys sees why, and nothing that would wait for them.
  if (!readable) {
    return (
      <>
        <h1>{t('developers.title')}</h1>
        <p className="error" role="alert">
          {t('error.insufficientRole')}
        </p>
      </>
    );
  }

  return (
    <>
      <h1>{t('developers.title')}</h1>
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">{t('developers.keys', { mode: place.mode })}</h2>
        <ErrorNote error={error ?? keys.error} />
        {created && (
          <div className="reveal" role="status">
            <p>
              <FormattedMessage
                id={'developers.newKey' satisfies DashboardMessageKey}
                values={{ kind: created.kind, strong: (chunks) => <strong>{chunks}</strong> }}
              />
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
        {manage && (
          <form className="panel" onSubmit={create} aria-labelledby="new-key-title">
            <h3 id="new-key-title">{t('developers.newKeyTitle')}</h3>
            <Field id="key-name" label={t('developers.name')} hint={t('developers.nameHint')}>
              <input id="key-name" maxLength={100} value={name} aria-describedby="key-name-hint" onChange={(e) => setName(e.target.value)} />
            </Field>
            <fieldset>
              <legend>{t('developers.col.type')}</legend>
              {(['secret', 'restricted', 'publishable'] as const).map((k) => (
                <label key={k} className="inline">
                  <input type="radio" name="key-kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
                  {t(`developers.kind.${k}` as DashboardMessageKey)}
                </label>
              ))}
            </fieldset>
            {kind === 'restricted' && <PermissionGrid grants={grants} onChange={setGrants} caption={t('developers.permissions')} name="grant" />}
            <button type="submit" disabled={busy}>
              {t(createLabel[kind])}
            </button>
          </form>
        )}
        {editing && (
          <form className="panel" onSubmit={savePermissions} aria-labelledby="edit-permissions-title">
            <h3 id="edit-permissions-title">{t('developers.editPermissions.title', { key: keyLabel(editing.key) })}</h3>
            <p>{t('developers.editPermissions.explain')}</p>
            <PermissionGrid
              grants={editing.grants}
              onChange={(grants) => setEditing({ ...editing, grants })}
              caption={t('developers.permissions')}
              name="edit-grant"
            />
            <button type="submit" disabled={busy}>
              {t('developers.editPermissions.submit')}
            </button>{' '}
            <button type="button" className="link-button" onClick={() => setEditing(null)}>
              {t('developers.cancel')}
            </button>
          </form>
        )}
        {revoking && (
          <Confirm
            message={t('developers.revokeConfirm', { key: keyLabel(revoking) })}
            confirmLabel={t('developers.revokeConfirmButton')}
            busy={busy}
            onConfirm={() => void revoke(revoking)}
            onCancel={() => setRevoking(null)}
          />
        )}
        {rolling && (
          <form className="panel" onSubmit={roll} aria-labelledby="roll-title">
            <h3 id="roll-title">{t('developers.roll.title', { key: keyLabel(rolling.key) })}</h3>
            <p>{t('developers.roll.explain')}</p>
            <Field id="roll-expiry" label={t('developers.roll.expiry')}>
              <select id="roll-expiry" value={rolling.expiresIn} onChange={(e) => setRolling({ ...rolling, expiresIn: Number(e.target.value) })}>
                {rollExpiries.map((seconds) => (
                  <option key={seconds} value={seconds}>
                    {t(rollChoice[seconds])}
                  </option>
                ))}
              </select>
            </Field>
            <button type="submit" disabled={busy}>
              {t('developers.roll.submit')}
            </button>{' '}
            <button type="button" className="link-button" onClick={() => setRolling(null)}>
              {t('developers.cancel')}
            </button>
          </form>
        )}
        <ModeTable
          rows={keys.data?.data}
          what={t('developers.keys.loading')}
          emptyWhat={t('developers.keys.none')}
          mode={place.mode}
          columns={[
            t('developers.col.name'),
            t('developers.col.key'),
            t('developers.col.type'),
            t('developers.col.created'),
            t('developers.col.lastUsed'),
            t('developers.col.state'),
          ]}
          row={(k) => (
            <tr key={k.id}>
              <td>
                {renaming?.id === k.id ? (
                  <form onSubmit={rename} className="inline-form">
                    <input
                      aria-label={t('developers.nameOf', { key: k.redacted })}
                      maxLength={100}
                      value={renaming.name}
                      onChange={(e) => setRenaming({ id: k.id, name: e.target.value })}
                    />{' '}
                    <button type="submit" disabled={busy}>
                      {t('developers.save')}
                    </button>{' '}
                    <button type="button" className="link-button" onClick={() => setRenaming(null)}>
                      {t('developers.cancel')}
                    </button>
                  </form>
                ) : (
                  <>
                    {k.name || <span className="muted">{t('developers.unnamed')}</span>}{' '}
                    {manage && !k.revoked_at && (
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => setRenaming({ id: k.id, name: k.name })}
                        aria-label={t('developers.renameKey', { key: k.redacted })}
                      >
                        {t('developers.rename')}
                      </button>
                    )}
                  </>
                )}
              </td>
              <td className="mono">{k.redacted}</td>
              <td>
                {t(`developers.kind.${k.kind}` as DashboardMessageKey)}
                {k.kind === 'restricted' && <div className="hint mono">{permissionSummary(k) || t('developers.noPermissions')}</div>}
              </td>
              <td>{formatTime(k.created)}</td>
              <td>{k.last_used_at ? formatTime(k.last_used_at) : t('developers.never')}</td>
              <td className="actions">
                {state(k)}
                {manage && !k.revoked_at && !(k.expires_at && k.expires_at <= now) && (
                  <>
                    {' '}
                    <button
                      type="button"
                      className="secondary"
                      disabled={busy}
                      onClick={() => setRolling({ key: k, expiresIn: 3600 })}
                      aria-label={t('developers.rollKey', { key: k.redacted })}
                    >
                      {t('developers.roll')}
                    </button>{' '}
                    {k.kind === 'restricted' && (
                      <>
                        <button
                          type="button"
                          className="secondary"
                          disabled={busy}
                          onClick={() => setEditing({ key: k, grants: { ...(k.permissions ?? {}) } })}
                          aria-label={t('developers.editPermissionsOf', { key: k.redacted })}
                        >
                          {t('developers.editPermissions')}
                        </button>{' '}
                      </>
                    )}
                    <button
                      type="button"
                      className="danger"
                      disabled={busy}
                      onClick={() => setRevoking(k)}
                      aria-label={t('developers.revokeKey', { key: k.redacted })}
                    >
                      {t('developers.revoke')}
                    </button>
                  </>
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
