import { useState } from 'react';
import { can, roles, type Role } from '../../../src/domain/team/permissions';
import { api, type DashboardApiError } from '../api';
import { ErrorNote, Loading } from '../components';
import { Confirm } from '../Confirm';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { useApiQuery } from '../queries';
import { FormattedMessage } from 'react-intl';
import { useT, type DashboardMessageKey } from '../i18n';

interface Team {
  members: Array<{ user_id: string; email: string; name: string; role: Role; joined: number }>;
  invites: Array<{ id: string; role: Role; created: number; expires_at: number }>;
}

/** Members and their roles, invite links, pending invites. */
export function TeamPage({ place }: PageScope) {
  const t = useT();
  const base = `/accounts/${place.account.id}`;
  const team = useApiQuery<Team>(`${base}/team`);
  const [role, setRole] = useState<Role>('viewer');
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const [resetLink, setResetLink] = useState<{ email: string; url: string } | null>(null);
  const [removing, setRemoving] = useState<{ userId: string; email: string } | null>(null);
  const security = useApiQuery<{ require_second_factor: boolean; members_with_second_factor: string[] }>(`${base}/security`);
  const manage = can(place.account.role, 'team.manage');
  const grantable = roles.filter((r) => r !== 'owner' || can(place.account.role, 'ownership.transfer'));

  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      await Promise.all([team.reload(), security.reload()]);
    } catch (e) {
      setError(e as DashboardApiError);
    }
  };

  return (
    <>
      <h1>{t('team.title')}</h1>
      <ErrorNote error={error ?? team.error} />
      {manage && (
        <section aria-labelledby="invite-title" className="panel">
          <h2 id="invite-title">{t('team.invite')}</h2>
          <label htmlFor="invite-role">{t('team.role')}</label>{' '}
          <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {grantable.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>{' '}
          <button type="button" onClick={() => act(async () => setLink((await api<{ url: string }>('POST', `${base}/invites`, { role })).url))}>
            {t('team.createInvite')}
          </button>
          {link && (
            <p role="status">
              <FormattedMessage
                id={'team.inviteLink' satisfies DashboardMessageKey}
                values={{ link, code: (chunks) => <code data-testid="invite-link">{chunks}</code> }}
              />
            </p>
          )}
        </section>
      )}
      <section aria-labelledby="team-security-title" className="panel">
        <h2 id="team-security-title">{t('team.security')}</h2>
        {security.data && (
          <label className="inline">
            <input
              type="checkbox"
              checked={security.data.require_second_factor}
              disabled={!manage}
              onChange={(e) => act(() => api('POST', `${base}/security`, { require_second_factor: e.target.checked }))}
            />
            {t('team.requireTwoStep')}
          </label>
        )}
        <p className="hint">{t('team.requireTwoStepHint')}</p>
      </section>
      {resetLink && (
        <p role="status" className="reveal">
          <FormattedMessage
            id={'team.resetLink' satisfies DashboardMessageKey}
            values={{ email: resetLink.email, link: resetLink.url, code: (chunks) => <code data-testid="reset-link">{chunks}</code> }}
          />
        </p>
      )}
      {removing && (
        <Confirm
          message={t('team.removeConfirm', { email: removing.email, account: place.account.name })}
          confirmLabel={t('team.removeConfirmButton')}
          onConfirm={() => {
            setRemoving(null);
            void act(() => api('DELETE', `${base}/members/${removing.userId}`));
          }}
          onCancel={() => setRemoving(null)}
        />
      )}
      {!team.data ? (
        <Loading what={t('team.loading')} />
      ) : (
        <>
          <table className="data">
            <caption className="visually-hidden">{t('team.members')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('team.col.name')}</th>
                <th scope="col">{t('team.col.email')}</th>
                <th scope="col">{t('team.col.role')}</th>
                <th scope="col">{t('team.col.twoStep')}</th>
                <th scope="col">{t('team.col.joined')}</th>
                {manage && <th scope="col">{t('team.col.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {team.data.members.map((m) => (
                <tr key={m.user_id}>
                  <td>{m.name}</td>
                  <td>{m.email}</td>
                  <td>
                    {manage ? (
                      <select
                        aria-label={t('team.roleOf', { email: m.email })}
                        value={m.role}
                        onChange={(e) => act(() => api('POST', `${base}/members/${m.user_id}/role`, { role: e.target.value }))}
                      >
                        {(m.role === 'owner' ? roles : grantable).map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td>{security.data?.members_with_second_factor.includes(m.user_id) ? t('team.twoStepOn') : t('team.twoStepOff')}</td>
                  <td>{formatTime(m.joined)}</td>
                  {manage && (
                    <td className="actions">
                      <button
                        type="button"
                        className="secondary"
                        aria-label={t('team.resetOf', { email: m.email })}
                        onClick={() =>
                          act(async () => setResetLink(await api<{ email: string; url: string }>('POST', `${base}/members/${m.user_id}/password-reset-link`)))
                        }
                      >
                        {t('team.reset')}
                      </button>
                      <button
                        type="button"
                        className="danger"
                        aria-label={t('team.removeOf', { email: m.email })}
                        onClick={() => setRemoving({ userId: m.user_id, email: m.email })}
                      >
                        {t('team.remove')}
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          {team.data.invites.length > 0 && (
            <>
              <h2>{t('team.pending')}</h2>
              <ul>
                {team.data.invites.map((i) => (
                  <li key={i.id}>
                    {t('team.pendingInvite', { role: i.role, when: formatTime(i.expires_at) })}{' '}
                    {manage && (
                      <button type="button" className="link-button" onClick={() => act(() => api('POST', `${base}/invites/${i.id}/revoke`))}>
                        {t('team.withdraw')}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </>
  );
}
