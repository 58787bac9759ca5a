import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { dashboardCall, signUpOwner } from '../support/dashboard';
import { expectError, useIntegration } from '../support/integration';

describe.each(testDatabases)('payments CSV export ($name)', (database) => {
  const ctx = useIntegration(database);

  it('streams every payment of exactly the filter, across batches, newest first', async () => {
    const owner = await signUpOwner(ctx.h, 'Export Shop');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    // 2,345 payments (three batches of 1,000), every third one failed.
    await ctx.db.query(
      `INSERT INTO checkout_sessions (id, account_id, mode, status, currency, line_items, amount_subtotal, amount_total,
         capture_method, payment_method_types, metadata, expires_at, created_at, updated_at)
       SELECT 'cs_export' || g, $1, 'test', 'complete', 'USD', '[]'::jsonb, 1000 + g, 1000 + g, 'automatic', '["card"]'::jsonb,
         '{}'::jsonb, now() + interval '1 day', now() - (g || ' seconds')::interval, now()
       FROM generate_series(1, 2345) AS g`,
      [owner.accountId],
    );
    await ctx.db.query(
      `INSERT INTO payments (id, account_id, mode, checkout_session_id, amount, currency, status, capture_method,
         amount_captured, customer_email, payment_method, processor, created_at, updated_at)
       SELECT 'pay_export' || g, $1, 'test', 'cs_export' || g, 1000 + g, 'USD',
         CASE WHEN g % 3 = 0 THEN 'failed' ELSE 'succeeded' END, 'automatic',
         CASE WHEN g % 3 = 0 THEN 0 ELSE 1000 + g END, 'buyer' || g || '@shop.example',
         jsonb_build_object('type', 'card', 'brand', 'visa', 'last4', '4242'), 'test', now() - (g || ' seconds')::interval, now()
       FROM generate_series(1, 2345) AS g`,
      [owner.accountId],
    );

    const all = await dashboardCall(ctx.h, owner, 'GET', `${base}/payments/export.csv`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.headers['content-type']).toContain('text/csv');
    expect(all.headers['content-length']).toBeUndefined(); // sent as it is read, not built first
    const lines = all.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2346);
    expect(lines[1]).toMatch(/^pay_export1,/);
    expect(lines.at(-1)).toMatch(/^pay_export2345,/);
    expect(new Set(lines.slice(1).map((line) => line.split(',')[0])).size).toBe(2345);

    const failed = (await dashboardCall(ctx.h, owner, 'GET', `${base}/payments/export.csv?status=failed&amount_min=2000`)).body.trimEnd().split('\r\n');
    // g % 3 = 0 and 1000 + g >= 2000: g = 1002, 1005, …, 2343.
    expect(failed).toHaveLength(1 + 448);
    expect(failed.slice(1).every((line) => line.split(',')[2] === 'failed' && Number(line.split(',')[3]) >= 20)).toBe(true);

    expectError(await dashboardCall(ctx.h, owner, 'GET', `${base}/payments/export.csv?last4=12`), 400, 'parameter_invalid', { param: 'last4' });
  });
});
