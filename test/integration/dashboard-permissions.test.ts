import { describe, expect, it } from 'vitest';
import { can, permissions, roles } from '../../src/domain/team/permissions';
import { dashboardEndpoints } from '../../src/http/dashboard/index';
import { testDatabases } from '../support/databases';
import { dashboardCall } from '../support/dashboard';
import { ownerCall, samples, urlFor, useDashboardFixtures, type Fixtures } from '../support/dashboard-fixtures';
import { expectError } from '../support/integration';

describe.each(testDatabases)('dashboard role × action matrix ($name)', (database) => {
  const fx = useDashboardFixtures(database);

  const endpoints = dashboardEndpoints({ publicUrl: 'http://checkout.test' } as never, {} as never).filter(
    (e) => e.contract.access.kind === 'account' || e.contract.access.kind === 'mode',
  );

  it('has a sample request for every account endpoint, and every endpoint names a permission of the table', () => {
    const names = endpoints.map((e) => `${e.contract.method} ${e.contract.url}`);
    expect(names.sort()).toEqual(Object.keys(samples).sort());
    for (const { contract } of endpoints) {
      const access = contract.access as { permission: string };
      expect(permissions as readonly string[]).toContain(access.permission);
    }
  });

  it.each(endpoints.map((e) => [`${e.contract.method} ${e.contract.url}`, e] as const))('%s', async (name, endpoint) => {
    const { contract } = endpoint;
    const permission = (contract.access as { permission: (typeof permissions)[number] }).permission;
    const sample = samples[name];
    expect(sample, `no sample request for ${name}`).toBeDefined();

    for (const role of roles) {
      const { params = {}, query, body } = await sample!(fx);
      const url = urlFor(contract.url, { account_id: fx.accountId, mode: 'test', ...params }) + (query ? `?${query}` : '');
      const res = await dashboardCall(fx.h, fx.members[role], contract.method, url, body);
      if (can(role, permission)) {
        expect(res.statusCode, `${role} ${name}: ${res.body}`).toBe(contract.status ?? 200);
      } else {
        expect(res.statusCode, `${role} ${name}: ${res.body}`).toBe(403);
        expectError(res, 403, 'insufficient_role');
      }
    }

    // A member of another account, calling this account's URLs the way an attacker would.
    const { params = {}, query, body } = await sample!(fx);
    const url = urlFor(contract.url, { account_id: fx.accountId, mode: 'test', ...params }) + (query ? `?${query}` : '');
    expectError(await dashboardCall(fx.h, fx.outsider, contract.method, url, body), 404, 'resource_missing', { param: 'id' });
    // Nobody signed in.
    const anonymous = await fx.h.app.inject({ method: contract.method, url, ...(body ? { payload: body } : {}) });
    expectError(anonymous, 401, 'not_signed_in');
  });

  it.each([
    ['payments/:id', (fx: Fixtures) => `/test/payments/${fx.paymentId}`, 'GET'],
    ['checkout-sessions/:id', (fx: Fixtures) => `/test/checkout-sessions/${fx.sessionId}`, 'GET'],
  ] as const)("answers another account's %s under the caller's own account with 404", async (_label, path, method) => {
    const res = await dashboardCall(fx.h, fx.outsider, method, `/dashboard/api/accounts/${fx.outsider.accountId}${path(fx)}`);
    expectError(res, 404, 'resource_missing', { param: 'id' });
  });

  it("cannot revoke another account's key or invite, or touch its members, from the caller's own account", async () => {
    const key = await ownerCall(fx, 'POST', '/test/api-keys', { kind: 'publishable' });
    const invite = await ownerCall(fx, 'POST', '/invites', { role: 'viewer' });
    const own = `/dashboard/api/accounts/${fx.outsider.accountId}`;
    expectError(await dashboardCall(fx.h, fx.outsider, 'POST', `${own}/test/api-keys/${key.id}/revoke`), 404, 'resource_missing', { param: 'id' });
    expectError(await dashboardCall(fx.h, fx.outsider, 'POST', `${own}/invites/${invite.id}/revoke`), 404, 'resource_missing', { param: 'id' });
    expectError(await dashboardCall(fx.h, fx.outsider, 'DELETE', `${own}/members/${fx.members.viewer.userId}`), 404, 'resource_missing', { param: 'id' });
    const keys = await ownerCall(fx, 'GET', '/test/api-keys');
    expect(keys.data.find((k: { id: string }) => k.id === key.id).revoked_at).toBeNull();
  });

  it('shows test data only in test mode: the live payments list is empty', async () => {
    const live = await ownerCall(fx, 'GET', '/live/payments');
    expect(live.data).toEqual([]);
    expectError(await dashboardCall(fx.h, fx.owner, 'GET', `/dashboard/api/accounts/${fx.accountId}/live/payments/${fx.paymentId}`), 404, 'resource_missing', {
      param: 'id',
    });
  });
});
