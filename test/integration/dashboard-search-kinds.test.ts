import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { dashboardCall } from '../support/dashboard';
import { openDispute, useDashboardFixtures } from '../support/dashboard-fixtures';
import { merchantCall } from '../support/integration';

/** The search box finds customers and disputes too, each for the roles that may see them. */
describe.each(testDatabases)('search box: customers and disputes ($name)', (database) => {
  const fx = useDashboardFixtures(database);
  const box = async (agent: typeof fx.owner, q: string) => {
    const res = await dashboardCall(fx.h, agent, 'GET', `/dashboard/api/accounts/${fx.accountId}/test/search?q=${encodeURIComponent(q)}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Array<{
      kind: string;
      id: string;
      amount: number | null;
      status: string | null;
      customer_email: string | null;
      detail: string | null;
    }>;
  };
  const kinds = (hits: Array<{ kind: string; id: string }>) => hits.map((hit) => `${hit.kind} ${hit.id}`).sort();

  it('a customer by id prefix and by the start or end of their email; a dispute by id, by its payment and by amount', async () => {
    const customer = await merchantCall(fx.h, fx.secretKey, 'POST', '/v1/customers', { email: 'Rosa.Quill@Inkwell.example', name: 'Rosa Quill' });
    expect(customer.statusCode, customer.body).toBe(200);
    const customerId = customer.json().id as string;
    const disputeId = await openDispute(fx);
    const dispute = (await merchantCall(fx.h, fx.secretKey, 'GET', `/v1/disputes/${disputeId}`)).json();

    expect(kinds(await box(fx.owner, customerId.slice(0, 8)))).toEqual([`customer ${customerId}`]);
    expect(kinds(await box(fx.owner, 'rosa.q'))).toEqual([`customer ${customerId}`]);
    const [hit] = await box(fx.owner, 'inkwell.EXAMPLE');
    expect(hit).toMatchObject({ kind: 'customer', id: customerId, customer_email: 'Rosa.Quill@Inkwell.example', detail: 'Rosa Quill' });

    expect(kinds(await box(fx.owner, disputeId))).toEqual([`dispute ${disputeId}`]);
    // The payment's id finds the payment and its dispute; the amount finds the dispute beside the payment and its session.
    expect(kinds(await box(fx.owner, dispute.payment))).toEqual([`dispute ${disputeId}`, `payment ${dispute.payment}`].sort());
    expect(kinds(await box(fx.owner, '25.00'))).toContain(`dispute ${disputeId}`);
    expect((await box(fx.owner, disputeId))[0]).toMatchObject({ amount: 2500, status: 'needs_response', detail: dispute.payment });

    // A viewer may read customers but not their emails: no search by email, and no email in a hit.
    expect(await box(fx.members.viewer, 'rosa.q')).toEqual([]);
    const seen = await box(fx.members.viewer, customerId);
    expect(seen[0]!.customer_email).toBe('R•••@Inkwell.example');
  });
});
