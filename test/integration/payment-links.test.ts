import { describe, expect, it } from 'vitest';
import { createPaymentLink } from '../../src/domain/sessions/use-cases/create-payment-link';
import { testDatabases } from '../support/databases';
import { countRows, expectError, merchantCall, rows, useIntegration } from '../support/integration';

describe.each(testDatabases)('payment links ($name)', (database) => {
  const ctx = useIntegration(database);

  const makeLink = () =>
    createPaymentLink(ctx.h.tillpoint.deps, {
      scope: { accountId: ctx.accountId, mode: 'test' },
      actor: null,
      currency: 'GBP',
      lineItems: [
        { name: 'Gift card', unitAmount: 2500, quantity: 1 },
        { name: 'Card sleeve', unitAmount: 150, quantity: 2 },
      ],
    });

  it('GET /l/:slug opens a fresh open session with the link items and redirects to it', async () => {
    const link = await makeLink();
    expect(link.slug).toMatch(/^[0-9a-z]{8,}$/);

    const res = await ctx.h.app.inject({ method: 'GET', url: `/l/${link.slug}` });
    expect(res.statusCode).toBe(303);
    const location = String(res.headers.location);
    expect(location).toMatch(/^\/c\/cs_[0-9A-Za-z]{22,}$/);
    const sessionId = location.slice('/c/'.length);

    const stored = await rows(ctx.db, 'SELECT * FROM checkout_sessions');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      id: sessionId,
      account_id: ctx.accountId,
      mode: 'test',
      status: 'open',
      currency: 'GBP',
      payment_link_id: link.id,
    });

    const session = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${sessionId}`);
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({
      status: 'open',
      currency: 'gbp',
      payment_link: link.id,
      line_items: [
        { name: 'Gift card', unit_amount: 2500, quantity: 1, amount: 2500 },
        { name: 'Card sleeve', unit_amount: 150, quantity: 2, amount: 300 },
      ],
      amount_total: 2800,
    });

    // Each visit gets its own session.
    const again = await ctx.h.app.inject({ method: 'GET', url: `/l/${link.slug}` });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).not.toBe(location);
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(2);
  });

  it('an unknown slug answers 404 resource_missing and opens nothing', async () => {
    await makeLink();
    const res = await ctx.h.app.inject({ method: 'GET', url: '/l/nosuchlink' });
    expectError(res, 404, 'resource_missing', { param: 'id' });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(0);
  });

  it('an over-long slug answers the 404 error envelope too (not a bare framework error)', async () => {
    const long = await ctx.h.app.inject({ method: 'GET', url: `/l/${'x'.repeat(500)}` });
    expectError(long, 404, 'resource_missing', { param: 'id' });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(0);
  });

  it('a deactivated link answers 404', async () => {
    const link = await makeLink();
    await ctx.db.query('UPDATE payment_links SET active = false WHERE id = $1', [link.id]);
    expectError(await ctx.h.app.inject({ method: 'GET', url: `/l/${link.slug}` }), 404, 'resource_missing', {
      param: 'id',
    });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(0);
  });
});
