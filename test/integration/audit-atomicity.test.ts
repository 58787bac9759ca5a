import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { dashboardCall, signUpOwner } from '../support/dashboard';
import { countRows, expectError, merchantCall, useIntegration } from '../support/integration';

/**
 * A write and its audit line commit or roll back together (design.md §6: every write by a user or a
 * key is in the audit log). With the audit log refusing every insert, each write fails and leaves
 * nothing behind; once the log accepts lines again, the same writes go through, each with its line.
 */
describe.each(testDatabases)('a write and its audit line are one transaction ($name)', (database) => {
  const ctx = useIntegration(database);

  const breakAuditLog = () => ctx.db.query('ALTER TABLE audit_log ADD CONSTRAINT audit_log_refuses CHECK (false) NOT VALID');
  const repairAuditLog = () => ctx.db.query('ALTER TABLE audit_log DROP CONSTRAINT audit_log_refuses');

  it('when the audit line cannot be written, the dashboard and API writes do not happen either', async () => {
    const owner = await signUpOwner(ctx.h, 'Audit Shop');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    const product = (
      await dashboardCall(ctx.h, owner, 'POST', `${base}/products`, { name: 'Beans', default_price_data: { currency: 'usd', unit_amount: 1200 } })
    ).json();
    const link = (
      await dashboardCall(ctx.h, owner, 'POST', `${base}/payment-links`, { line_items: [{ price: product.default_price.id, quantity: 1 }] })
    ).json();
    const endpoint = (
      await dashboardCall(ctx.h, owner, 'POST', `${base}/webhook-endpoints`, { url: 'https://example.com/hook', enabled_events: ['*'] })
    ).json();
    const auditLines = async () => (await ctx.db.query<{ id: string; action: string; target: string | null }>('SELECT id, action, target FROM audit_log')).rows;
    const linesBefore = new Set((await auditLines()).map((line) => line.id));
    const productsBefore = await countRows(ctx.db, 'products');

    await breakAuditLog();
    try {
      expectError(await dashboardCall(ctx.h, owner, 'POST', `${base}/products`, { name: 'Filters' }), 500, 'internal_error');
      expectError(await dashboardCall(ctx.h, owner, 'POST', `${base}/payment-links/${link.id}`, { active: false }), 500, 'internal_error');
      expectError(await dashboardCall(ctx.h, owner, 'DELETE', `${base}/webhook-endpoints/${endpoint.id}`), 500, 'internal_error');
      expectError(await dashboardCall(ctx.h, owner, 'POST', `${base}/processor`, { processor: 'test' }), 500, 'internal_error');
      expectError(await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags', { key: 'gift_wrap', value: true }), 500, 'internal_error');
    } finally {
      await repairAuditLog();
    }

    expect(await countRows(ctx.db, 'products')).toBe(productsBefore);
    expect((await ctx.h.app.inject({ method: 'GET', url: new URL(link.url).pathname })).statusCode).toBe(303);
    const endpoints = (await dashboardCall(ctx.h, owner, 'GET', `${base}/webhook-endpoints`)).json().data;
    expect(endpoints.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    expect((await dashboardCall(ctx.h, owner, 'GET', `${base}/processor`)).json()).toMatchObject({ processor: 'test', updated_at: null });
    expect((await merchantCall(ctx.h, ctx.key, 'GET', '/v1/flags/gift_wrap')).statusCode).toBe(404);
    expect(await countRows(ctx.db, 'audit_log')).toBe(linesBefore.size);

    // The same writes, with the log working again: each happens and leaves its line.
    expect((await dashboardCall(ctx.h, owner, 'POST', `${base}/payment-links/${link.id}`, { active: false })).statusCode).toBe(200);
    expect((await dashboardCall(ctx.h, owner, 'DELETE', `${base}/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(200);
    expect((await dashboardCall(ctx.h, owner, 'POST', `${base}/processor`, { processor: 'test' })).statusCode).toBe(200);
    expect((await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags', { key: 'gift_wrap', value: true })).statusCode).toBe(200);
    const added = (await auditLines()).filter((line) => !linesBefore.has(line.id)).map(({ action, target }) => ({ action, target }));
    expect(added.sort((a, b) => a.action.localeCompare(b.action))).toEqual([
      { action: 'flag.create', target: 'gift_wrap' },
      { action: 'payment_link.deactivate', target: link.id },
      { action: 'processor.set.test', target: owner.accountId },
      { action: 'webhook_endpoint.delete', target: endpoint.id },
    ]);
  });
});
