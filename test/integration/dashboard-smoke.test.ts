import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { addMember, dashboardCall, signUpOwner } from '../support/dashboard';
import { useIntegration } from '../support/integration';

describe.each(testDatabases)('dashboard smoke ($name)', (database) => {
  const ctx = useIntegration(database);
  it('signs up and reads the team', async () => {
    const owner = await signUpOwner(ctx.h);
    const viewer = await addMember(ctx.h, owner, 'viewer');
    const res = await dashboardCall(ctx.h, viewer, 'GET', `/dashboard/api/accounts/${owner.accountId}/team`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().members).toHaveLength(2);
  });
});
