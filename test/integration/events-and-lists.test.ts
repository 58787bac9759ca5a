import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { createSession, expectError, merchantCall, useIntegration, type IntegrationContext } from '../support/integration';
import { paidPayment } from '../support/payments';

const ids = (body: { data: Array<{ id: string }> }) => body.data.map((item) => item.id);

describe.each(testDatabases)('events API and pagination of every list ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (url: string) => merchantCall(ctx.h, ctx.key, 'GET', url);

  it('lists events newest first, by type and by time (created[gte] / created[lte], Unix seconds)', async () => {
    const t0 = Math.floor(ctx.h.clock.now().getTime() / 1000);
    const manual = await paidPayment(ctx, 5000, 'manual'); // t0: requires_capture + session completed
    ctx.h.clock.advance(9000);
    const captured = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/payments/${manual.id}/capture`, {}); // t0 + 10
    expect(captured.statusCode).toBe(200);
    ctx.h.clock.advance(10_000);
    const refund = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: manual.id, amount: 100 }); // t0 + 20
    expect(refund.statusCode).toBe(200);

    const all = (await call('/v1/events')).json();
    expect(all).toMatchObject({ object: 'list', url: '/v1/events', has_more: false });
    expect(all.data.map((e: { type: string }) => e.type).slice(0, 2)).toEqual(['refund.succeeded', 'payment.captured']);
    expect(all.data).toHaveLength(4);

    const [newest] = all.data;
    expect(newest).toMatchObject({
      object: 'event',
      type: 'refund.succeeded',
      livemode: false,
      created: t0 + 20,
      data: { object: { id: refund.json().id, object: 'refund', status: 'succeeded', amount: 100 } },
    });
    expect((await call(`/v1/events/${newest.id}`)).json()).toEqual(newest);

    const capturedOnly = (await call('/v1/events?type=payment.captured')).json();
    expect(capturedOnly.data.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toEqual([manual.id]);

    const window = (await call(`/v1/events?created[gte]=${t0 + 10}&created[lte]=${t0 + 10}`)).json();
    expect(window.data.map((e: { type: string }) => e.type)).toEqual(['payment.captured']);
    const encoded = (await call(`/v1/events?created%5Bgte%5D=${t0 + 11}`)).json();
    expect(encoded.data.map((e: { type: string }) => e.type)).toEqual(['refund.succeeded']);
    const before = (await call(`/v1/events?created[lte]=${t0 + 9}`)).json();
    expect(before.data.map((e: { type: string }) => e.type).sort()).toEqual(['checkout.session.completed', 'payment.requires_capture']);

    expectError(await call('/v1/events?type=payment.exploded'), 400, 'parameter_invalid', { param: 'type' });
    expectError(await call('/v1/events?created[gte]=yesterday'), 400, 'parameter_invalid', { param: 'created[gte]' });
    expectError(await call('/v1/events?created[after]=1'), 400, 'parameter_unknown', { param: 'created[after]' });

    const other = await ctx.h.newAccountKey('Other Shop');
    expect((await merchantCall(ctx.h, other, 'GET', '/v1/events')).json().data).toEqual([]);
    expectError(await merchantCall(ctx.h, other, 'GET', `/v1/events/${newest.id}`), 404, 'resource_missing', { param: 'id' });
  });

  /** Makes three objects of a list at increasing times; returns their ids, oldest first. */
  const lists: Array<[string, (ctx: IntegrationContext) => Promise<string>]> = [
    ['/v1/payments', async (c) => (await paidPayment(c, 5000)).id],
    ['/v1/checkout/sessions', async (c) => (await createSession(c)).id],
    [
      '/v1/events',
      async (c) => {
        const session = await createSession(c);
        return (await merchantCall(c.h, c.key, 'POST', `/v1/checkout/sessions/${session.id}/expire`)).statusCode === 200
          ? (await merchantCall(c.h, c.key, 'GET', '/v1/events?limit=1')).json().data[0].id
          : '';
      },
    ],
    ['/v1/products', async (c) => (await merchantCall(c.h, c.key, 'POST', '/v1/products', { name: 'P' })).json().id],
    [
      '/v1/payment_links',
      async (c) =>
        (
          await merchantCall(c.h, c.key, 'POST', '/v1/payment_links', {
            currency: 'usd',
            line_items: [{ name: 'Thing', unit_amount: 500, quantity: 1 }],
          })
        ).json().id,
    ],
    [
      '/v1/refunds',
      async (c) => {
        const payment = await paidPayment(c, 5000);
        return (await merchantCall(c.h, c.key, 'POST', '/v1/refunds', { payment: payment.id, amount: 10 })).json().id;
      },
    ],
  ];

  it.each(lists)('%s pages with limit, starting_after and has_more', async (url, make) => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      made.push(await make(ctx));
      ctx.h.clock.advance(1000);
    }
    const [oldest, middle, newest] = made;
    const sep = url.includes('?') ? '&' : '?';
    const first = (await call(`${url}${sep}limit=2`)).json();
    expect(first).toMatchObject({ object: 'list', url, has_more: true });
    expect(ids(first)).toEqual([newest, middle]);
    const second = (await call(`${url}${sep}limit=2&starting_after=${middle}`)).json();
    expect(second).toMatchObject({ has_more: false });
    expect(ids(second)).toEqual([oldest]);
    const whole = (await call(url)).json();
    expect(ids(whole)).toEqual([newest, middle, oldest]);

    expectError(await call(`${url}${sep}limit=101`), 400, 'parameter_invalid', { param: 'limit' });
    expectError(await call(`${url}${sep}limit=0`), 400, 'parameter_invalid', { param: 'limit' });
    expectError(await call(`${url}${sep}starting_after=x%20y`), 400, 'parameter_invalid', { param: 'starting_after' });
  });
});
