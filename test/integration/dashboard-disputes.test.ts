import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { dashboardCall } from '../support/dashboard';
import { openDispute, ownerCall, useDashboardFixtures } from '../support/dashboard-fixtures';
import { expectError, merchantCall } from '../support/integration';
import { dumpBusinessData } from '../support/payments';

/** The dashboard's Disputes inbox and a member's actions on a dispute, with their audit lines. */
describe.each(testDatabases)('dashboard disputes ($name)', (database) => {
  const fx = useDashboardFixtures(database);
  const url = (path: string) => `/dashboard/api/accounts/${fx.accountId}/test/disputes${path}`;
  const auditOf = async (disputeId: string) =>
    (
      await fx.db.query<{ actor_type: string; actor_label: string; action: string }>(
        'SELECT actor_type, actor_label, action FROM audit_log WHERE target = $1 ORDER BY at, id',
        [disputeId],
      )
    ).rows;

  it('support adds evidence; submit and accept are refused to support, writing nothing; the owner submits and accepts; one audit line each, naming the member', async () => {
    const disputeId = await openDispute(fx);
    const support = fx.members.support;
    const evidence = await dashboardCall(fx.h, support, 'POST', url(`/${disputeId}/evidence`), { text: 'Tracking shows delivery on 3 May' });
    expect(evidence.statusCode, evidence.body).toBe(200);
    expect(evidence.json().evidence).toMatchObject([{ kind: 'text', text: 'Tracking shows delivery on 3 May' }]);

    // The clock is frozen: each action its own second, so the audit's order is theirs.
    fx.h.clock.advance(1000);
    const before = await dumpBusinessData(fx.db);
    expectError(await dashboardCall(fx.h, support, 'POST', url(`/${disputeId}/submit`)), 403, 'insufficient_role');
    expectError(await dashboardCall(fx.h, support, 'POST', url(`/${disputeId}/accept`)), 403, 'insufficient_role');
    expectError(await dashboardCall(fx.h, fx.members.viewer, 'POST', url(`/${disputeId}/evidence`), { text: 'x' }), 403, 'insufficient_role');
    expect(await dumpBusinessData(fx.db)).toEqual(before);

    const submitted = await dashboardCall(fx.h, fx.owner, 'POST', url(`/${disputeId}/submit`));
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().status).toBe('under_review');
    expect(await auditOf(disputeId)).toEqual([
      { actor_type: 'user', actor_label: support.email, action: 'dispute.add_evidence' },
      { actor_type: 'user', actor_label: fx.owner.email, action: 'dispute.submit' },
    ]);

    const other = await openDispute(fx);
    const accepted = await dashboardCall(fx.h, fx.members.admin, 'POST', url(`/${other}/accept`));
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().status).toBe('accepted');
    expect(await auditOf(other)).toEqual([{ actor_type: 'user', actor_label: fx.members.admin.email, action: 'dispute.accept' }]);
  });

  it("the evidence form's route takes a file's base64 past 256 KB, and above its own 5.4 MB says that limit", async () => {
    const disputeId = await openDispute(fx);
    const huge = Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(4.3 * 1024 * 1024)]).toString('base64');
    const refused = await dashboardCall(fx.h, fx.owner, 'POST', url(`/${disputeId}/evidence`), {
      file: { name: 'huge.pdf', type: 'application/pdf', data: huge },
    });
    expect(expectError(refused, 413, 'request_too_large').message).toContain('5.4 MB (5657942 bytes): an evidence file may be at most 4 MB');
    const scan = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(512 * 1024)]).toString('base64');
    const taken = await dashboardCall(fx.h, fx.owner, 'POST', url(`/${disputeId}/evidence`), {
      file: { name: 'scan.pdf', type: 'application/pdf', data: scan },
    });
    expect(taken.statusCode, taken.body).toBe(200);
  });

  it('the inbox lists open disputes by reply-by, soonest first, then closed ones; the API lists newest first', async () => {
    const first = await openDispute(fx);
    const second = await openDispute(fx);
    const third = await openDispute(fx);
    expect((await dashboardCall(fx.h, fx.owner, 'POST', url(`/${first}/accept`))).statusCode).toBe(200);

    const inbox = await dashboardCall(fx.h, fx.members.viewer, 'GET', url(''));
    expect(inbox.statusCode, inbox.body).toBe(200);
    const listed = inbox.json().data as Array<{ id: string; status: string; reply_by: number }>;
    const ours = (ids: string[]) => ids.filter((id) => [first, second, third].includes(id));
    expect(ours(listed.map((d) => d.id))).toEqual([second, third, first]);
    // Besides, the whole inbox (with the other test's disputes): every open one before every closed
    // one, the open ones by reply-by.
    const isOpen = (d: { status: string }) => d.status === 'needs_response' || d.status === 'under_review';
    const open = listed.filter(isOpen);
    expect(listed.slice(0, open.length)).toEqual(open);
    expect(open.length).toBeGreaterThanOrEqual(3);
    expect(open.map((d) => d.reply_by)).toEqual(open.map((d) => d.reply_by).sort((a, b) => a - b));
    expect(new Set(open.map((d) => d.reply_by)).size).toBe(open.length);

    const api = await merchantCall(fx.h, fx.secretKey, 'GET', '/v1/disputes');
    expect(ours(api.json().data.map((d: { id: string }) => d.id))).toEqual([third, second, first]);
  });

  it('the overview counts the disputed amount and the amount lost (lost, accepted, expired) apart from refunds', async () => {
    const all = (await merchantCall(fx.h, fx.secretKey, 'GET', '/v1/disputes?limit=100')).json().data as Array<{ amount: number; status: string }>;
    const gone = all.filter((d) => ['lost', 'accepted', 'expired'].includes(d.status));
    // The tests above left open, under-review and accepted disputes: both figures mean something.
    expect(gone.length).toBeGreaterThanOrEqual(2);
    expect(gone.length).toBeLessThan(all.length);
    const sum = (disputes: Array<{ amount: number }>) => disputes.reduce((total, d) => total + d.amount, 0);
    const overview = await ownerCall(fx, 'GET', '/test/overview');
    expect(overview.disputes).toEqual([{ currency: 'USD', disputed: sum(all), lost: sum(gone) }]);
    // A dispute is no refund: the refunded figure does not take it.
    expect(overview.figures.find((f: { currency: string }) => f.currency === 'USD').current.refunded).toBe(0);
  });
});
