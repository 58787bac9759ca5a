import { useState } from 'react';
import { can, roles, type Role } from '../../../src/domain/permissions';
import { api, DashboardApiError } from '../api';
import { ErrorNote, Loading } from '../components';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { useLoad } from '../use-load';

interface Team {
  members: Array<{ user_id: string; email: string; name: string; role: Role; joined: number }>;
  invites: Array<{ id: string; role: Role; created: number; expires_at: number }>;
}

/** Members and their roles, invite links, pending invites. */
export function TeamPage({ place }: PageScope) {
  const base = `/accounts/${place.account.id}`;
  const team = useLoad(() => api<Team>('GET', `${base}/team`), base);
  const [role, setRole] = useState<Role>('viewer');
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const manage = can(place.account.role, 'team.manage');
  const grantable = roles.filter((r) => r !== 'owner' || can(place.account.role, 'ownership.transfer'));

  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      await team.reload();
    } catch (e) {
      setError(e as DashboardApiError);
    }
  };

  return (
    <>
      <h1>Team</h1>
      <ErrorNote error={error ?? team.error} />
      {manage && (
        <section aria-labelledby="invite-title" className="panel">
          <h2 id="invite-title">Invite someone</h2>
          <label htmlFor="invite-role">Role</label>{' '}
          <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {grantable.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>{' '}
          <button type="button" onClick={() => act(async () => setLink((await api<{ url: string }>('POST', `${base}/invites`, { role })).url))}>
            Create invite link
          </button>
          {link && (
            <p role="status">
              Send this link to the person you invite (single use, valid 7 days):{' '}
              <code data-testid="invite-link">{link}</code>
            </p>
          )}
        </section>
      )}
      {!team.data ? (
        <Loading what="the team" />
      ) : (
        <>
          <table className="data">
            <caption className="visually-hidden">Members</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                {manage && <th scope="col">Actions</th>}
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
                        aria-label={`Role of ${m.email}`}
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
                  <td>{formatTime(m.joined)}</td>
                  {manage && (
                    <td>
                      <button
                        type="button"
                        className="danger"
                        aria-label={`Remove ${m.email}`}
                        onClick={() => window.confirm(`Remove ${m.email} from ${place.account.name}?`) && act(() => api('DELETE', `${base}/members/${m.user_id}`))}
                      >
                        Remove
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          {team.data.invites.length > 0 && (
            <>
              <h2>Pending invites</h2>
              <ul>
                {team.data.invites.map((i) => (
                  <li key={i.id}>
                    {i.role}, expires {formatTime(i.expires_at)}{' '}
                    {manage && (
                      <button type="button" className="link-button" onClick={() => act(() => api('POST', `${base}/invites/${i.id}/revoke`))}>
                        Withdraw
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
