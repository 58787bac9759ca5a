import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { countRows, dumpDatabase, expectError, merchantCall, rows, useIntegration, withoutBookkeeping } from '../support/integration';

describe.each(testDatabases)('prices and product edits over the API ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);

  async function product(body: Record<string, unknown> = {}) {
    const res = await call('POST', '/v1/products', { name: 'Coffee club', ...body });
    expect(res.statusCode, res.body).toBe(200);
    ctx.h.clock.advance(1000);
    return res.json();
  }

  async function price(body: Record<string, unknown>) {
    const res = await call('POST', '/v1/prices', { currency: 'usd', unit_amount: 2000, ...body });
    expect(res.statusCode, res.body).toBe(200);
    ctx.h.clock.advance(1000);
    return res.json();
  }

  /** Everything the requests changed, to compare before and after a refusal. */
  const state = async () => withoutBookkeeping(await dumpDatabase(ctx.db));

  it('creates one-time and recurring prices shaped as Stripe shows them, and reads them back', async () => {
    const club = await product();
    const monthly = await price({ product: club.id, recurring: { interval: 'month' }, nickname: 'Monthly', metadata: { tier: 'gold' } });
    expect(monthly).toEqual({
      id: expect.stringMatching(/^price_/),
      object: 'price',
      livemode: false,
      product: club.id,
      currency: 'usd',
      unit_amount: 2000,
      active: true,
      created: expect.any(Number),
      nickname: 'Monthly',
      metadata: { tier: 'gold' },
      recurring: { interval: 'month', interval_count: 1 },
      type: 'recurring',
    });
    const quarterly = await price({ product: club.id, unit_amount: 5400, recurring: { interval: 'month', interval_count: 3 } });
    expect(quarterly).toMatchObject({ recurring: { interval: 'month', interval_count: 3 }, type: 'recurring', nickname: null, metadata: {} });
    const once = await price({ product: club.id, currency: 'JPY', unit_amount: 3000, active: false });
    expect(once).toMatchObject({ currency: 'jpy', recurring: null, type: 'one_time', active: false });
    for (const made of [monthly, quarterly, once]) expect((await call('GET', `/v1/prices/${made.id}`)).json()).toEqual(made);
    const stored = await rows(ctx.db, 'SELECT recurring_interval, recurring_interval_count FROM prices WHERE id = $1', [quarterly.id]);
    expect(stored).toEqual([{ recurring_interval: 'month', recurring_interval_count: 3 }]);
    const audit = await rows(ctx.db, `SELECT action FROM audit_log WHERE target = $1`, [monthly.id]);
    expect(audit.map((row) => row.action)).toEqual(['price.create']);
  });

  it('a product can be made with a recurring default price', async () => {
    const club = await product({ default_price_data: { currency: 'eur', unit_amount: 1500, recurring: { interval: 'year' } } });
    expect(club.default_price).toMatchObject({ unit_amount: 1500, currency: 'eur', recurring: { interval: 'year', interval_count: 1 }, type: 'recurring' });
    expectError(
      await call('POST', '/v1/products', {
        name: 'X',
        default_price_data: { currency: 'eur', unit_amount: 1500, recurring: { interval: 'year', interval_count: 2 } },
      }),
      400,
      'parameter_invalid',
      { param: 'default_price_data[recurring][interval_count]' },
    );
    expect(await countRows(ctx.db, 'products')).toBe(1);
  });

  it('refuses bad prices by name, and writes nothing', async () => {
    const club = await product();
    const archived = await product({ name: 'Old club', active: false });
    const other = await ctx.h.newAccountKey('Other Shop');
    const theirs = (await merchantCall(ctx.h, other, 'POST', '/v1/products', { name: 'Theirs' })).json();
    const before = await state();
    const refusals: Array<[Record<string, unknown>, number, string, string]> = [
      [{ product: 'prod_nosuchproduct' }, 404, 'resource_missing', 'product'],
      [{ product: theirs.id }, 404, 'resource_missing', 'product'],
      [{ product: archived.id }, 400, 'parameter_invalid', 'product'],
      [{ product: club.id, currency: 'xyz' }, 400, 'currency_not_supported', 'currency'],
      [{ product: club.id, unit_amount: -1 }, 400, 'parameter_invalid', 'unit_amount'],
      [{ product: club.id, unit_amount: 100_000_000 }, 400, 'amount_too_large', 'unit_amount'],
      [{ product: club.id, recurring: { interval: 'fortnight' } }, 400, 'parameter_invalid', 'recurring[interval]'],
      [{ product: club.id, recurring: { interval: 'month', interval_count: 0 } }, 400, 'parameter_invalid', 'recurring[interval_count]'],
      [{ product: club.id, recurring: { interval: 'day', interval_count: 366 } }, 400, 'parameter_invalid', 'recurring[interval_count]'],
      [{ product: club.id, recurring: { interval: 'week', interval_count: 53 } }, 400, 'parameter_invalid', 'recurring[interval_count]'],
      [{ product: club.id, recurring: { interval: 'month', interval_count: 13 } }, 400, 'parameter_invalid', 'recurring[interval_count]'],
      [{ product: club.id, recurring: { interval: 'year', interval_count: 2 } }, 400, 'parameter_invalid', 'recurring[interval_count]'],
      [{ product: club.id, recurring: { interval: 'month', interval_count: 1.5 } }, 400, 'parameter_invalid', 'recurring[interval_count]'],
      [{ product: club.id, nickname: 'n'.repeat(251) }, 400, 'parameter_invalid', 'nickname'],
      [{ product: club.id, metadata: { ['k'.repeat(41)]: 'v' } }, 400, 'parameter_invalid', `metadata[${'k'.repeat(41)}]`],
      [{ product: club.id, billing_scheme: 'tiered' }, 400, 'parameter_unknown', 'billing_scheme'],
    ];
    for (const [body, status, code, param] of refusals) {
      expectError(await call('POST', '/v1/prices', { currency: 'usd', unit_amount: 2000, ...body }), status, code, { param });
    }
    expectError(await call('POST', '/v1/prices', { currency: 'usd', unit_amount: 2000 }), 400, 'parameter_missing', { param: 'product' });
    expect(await state()).toEqual(before);
    // The longest renewals allowed are a year apart.
    for (const [interval, count] of [
      ['day', 365],
      ['week', 52],
      ['month', 12],
      ['year', 1],
    ] as const) {
      expect((await price({ product: club.id, recurring: { interval, interval_count: count } })).recurring).toEqual({ interval, interval_count: count });
    }
  });

  it('the database itself keeps interval and count together and within a year', async () => {
    const club = await product({ default_price_data: { currency: 'usd', unit_amount: 100 } });
    const id = club.default_price.id;
    for (const set of ["recurring_interval = 'month'", 'recurring_interval_count = 1', "recurring_interval = 'week', recurring_interval_count = 53"]) {
      await expect(ctx.db.query(`UPDATE prices SET ${set} WHERE id = $1`, [id])).rejects.toThrow(/prices_recurring_check/);
    }
    await expect(ctx.db.query(`UPDATE prices SET recurring_interval = 'hour', recurring_interval_count = 1 WHERE id = $1`, [id])).rejects.toThrow(/check/);
  });

  it('lists prices newest first, page by page, filtered by product, active and type', async () => {
    const club = await product();
    const beans = await product({ name: 'Beans' });
    const a = await price({ product: club.id, recurring: { interval: 'month' } });
    const b = await price({ product: club.id });
    const c = await price({ product: beans.id, recurring: { interval: 'week', interval_count: 2 }, active: false });
    const d = await price({ product: beans.id });
    const ids = async (query: string) => {
      const res = await call('GET', `/v1/prices${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((p: { id: string }) => p.id);
    };
    expect(await ids('')).toEqual([d.id, c.id, b.id, a.id]);
    const first = (await call('GET', '/v1/prices?limit=3')).json();
    expect(first).toMatchObject({ object: 'list', url: '/v1/prices', has_more: true });
    expect(first.data.map((p: { id: string }) => p.id)).toEqual([d.id, c.id, b.id]);
    const second = (await call('GET', `/v1/prices?limit=3&starting_after=${b.id}`)).json();
    expect(second).toMatchObject({ has_more: false, data: [{ id: a.id }] });
    expect(await ids(`?product=${club.id}`)).toEqual([b.id, a.id]);
    expect(await ids('?active=false')).toEqual([c.id]);
    expect(await ids('?active=true')).toEqual([d.id, b.id, a.id]);
    expect(await ids('?type=recurring')).toEqual([c.id, a.id]);
    expect(await ids(`?type=one_time&product=${beans.id}`)).toEqual([d.id]);
    expect(await ids('?product=prod_nosuchproduct')).toEqual([]);
    expectError(await call('GET', '/v1/prices?type=metered'), 400, 'parameter_invalid', { param: 'type' });
    expectError(await call('GET', '/v1/prices?active=yes'), 400, 'parameter_invalid', { param: 'active' });
    const other = await ctx.h.newAccountKey('Other Shop');
    expect((await merchantCall(ctx.h, other, 'GET', '/v1/prices')).json().data).toEqual([]);
    expectError(await merchantCall(ctx.h, other, 'GET', `/v1/prices/${a.id}`), 404, 'resource_missing', { param: 'id' });
  });

  it('updates only active, nickname and metadata: an amount never changes', async () => {
    const club = await product();
    const monthly = await price({ product: club.id, recurring: { interval: 'month' }, nickname: 'Monthly', metadata: { tier: 'gold', plan: 'a' } });
    ctx.h.clock.advance(5000);
    const res = await call('POST', `/v1/prices/${monthly.id}`, { active: false, nickname: null, metadata: { tier: '', region: 'eu' } });
    expect(res.statusCode, res.body).toBe(200);
    const archived = res.json();
    expect(archived).toEqual({ ...monthly, active: false, nickname: null, metadata: { plan: 'a', region: 'eu' } });
    expect((await call('GET', `/v1/prices/${monthly.id}`)).json()).toEqual(archived);
    expect((await call('POST', `/v1/prices/${monthly.id}`, { active: true, nickname: 'Back' })).json()).toMatchObject({ active: true, nickname: 'Back' });

    const before = await state();
    for (const param of ['unit_amount', 'currency', 'recurring', 'product']) {
      expectError(await call('POST', `/v1/prices/${monthly.id}`, { [param]: param === 'recurring' ? { interval: 'year' } : 'x' }), 400, 'parameter_unknown', {
        param,
      });
    }
    expectError(await call('POST', `/v1/prices/${monthly.id}`, { active: 'no' }), 400, 'parameter_invalid', { param: 'active' });
    expectError(await call('POST', '/v1/prices/price_nosuchprice', { active: false }), 404, 'resource_missing', { param: 'id' });
    const other = await ctx.h.newAccountKey('Other Shop');
    const afterOther = await state();
    expectError(await merchantCall(ctx.h, other, 'POST', `/v1/prices/${monthly.id}`, { active: false }), 404, 'resource_missing', { param: 'id' });
    expect(await state()).toEqual(afterOther);
    expect(Object.keys(afterOther)).toEqual(Object.keys(before));
    expect(afterOther.prices).toEqual(before.prices);

    // Nothing asked, nothing changed: no audit line.
    expect((await call('POST', `/v1/prices/${monthly.id}`, {})).json()).toMatchObject({ active: true, nickname: 'Back' });
    const audit = await rows(ctx.db, `SELECT action FROM audit_log WHERE target = $1 ORDER BY at`, [monthly.id]);
    expect(audit.map((row) => row.action)).toEqual(['price.create', 'price.update', 'price.update']);
  });

  it('edits a product, switches its default price to one of its own active prices, and archives it', async () => {
    const club = await product({ description: 'Beans monthly', default_price_data: { currency: 'usd', unit_amount: 1000 } });
    const yearly = await price({ product: club.id, unit_amount: 10_000, recurring: { interval: 'year' } });
    ctx.h.clock.advance(60_000);
    const res = await call('POST', `/v1/products/${club.id}`, { name: ' Coffee club+ ', description: null, default_price: yearly.id });
    expect(res.statusCode, res.body).toBe(200);
    const edited = res.json();
    expect(edited).toMatchObject({ id: club.id, name: 'Coffee club+', description: null, active: true, default_price: yearly });
    expect(edited.updated).toBeGreaterThan(club.updated);
    expect(edited.created).toBe(club.created);
    expect((await call('GET', `/v1/products/${club.id}`)).json()).toEqual(edited);

    const archived = (await call('POST', `/v1/products/${club.id}`, { active: false })).json();
    expect(archived).toMatchObject({ active: false, default_price: { id: yearly.id, active: true } });
    const audit = await rows(ctx.db, `SELECT action FROM audit_log WHERE target = $1 ORDER BY at`, [club.id]);
    expect(audit.map((row) => row.action)).toEqual(['product.create', 'product.update', 'product.update']);

    // An archived product takes no new prices, and comes back with `active: true`.
    expectError(await call('POST', '/v1/prices', { product: club.id, currency: 'usd', unit_amount: 1 }), 400, 'parameter_invalid', { param: 'product' });
    expect((await call('POST', `/v1/products/${club.id}`, { active: true })).json()).toMatchObject({ active: true });
    await price({ product: club.id, unit_amount: 1 });
  });

  it('refuses bad product edits by name, and writes nothing', async () => {
    const club = await product({ default_price_data: { currency: 'usd', unit_amount: 1000 } });
    const beans = await product({ name: 'Beans', default_price_data: { currency: 'usd', unit_amount: 500 } });
    const archivedPrice = await price({ product: club.id, active: false });
    const other = await ctx.h.newAccountKey('Other Shop');
    const theirs = (await merchantCall(ctx.h, other, 'POST', '/v1/products', { name: 'X', default_price_data: { currency: 'usd', unit_amount: 900 } })).json();
    const before = await state();
    const url = `/v1/products/${club.id}`;
    expectError(await call('POST', url, { name: '  ' }), 400, 'parameter_invalid', { param: 'name' });
    expectError(await call('POST', url, { name: 'n'.repeat(251) }), 400, 'parameter_invalid', { param: 'name' });
    expectError(await call('POST', url, { default_price: 'price_nosuchprice' }), 404, 'resource_missing', { param: 'default_price' });
    expectError(await call('POST', url, { default_price: theirs.default_price.id }), 404, 'resource_missing', { param: 'default_price' });
    expectError(await call('POST', url, { default_price: beans.default_price.id }), 400, 'parameter_invalid', { param: 'default_price' });
    expectError(await call('POST', url, { default_price: archivedPrice.id }), 400, 'parameter_invalid', { param: 'default_price' });
    // The whole edit is refused, not only its bad part.
    expectError(await call('POST', url, { name: 'Renamed', default_price: archivedPrice.id }), 400, 'parameter_invalid', { param: 'default_price' });
    expectError(await call('POST', url, { active: 'no' }), 400, 'parameter_invalid', { param: 'active' });
    expectError(await call('POST', url, { default_price_data: { currency: 'usd', unit_amount: 1 } }), 400, 'parameter_unknown', {
      param: 'default_price_data',
    });
    expectError(await call('POST', '/v1/products/prod_nosuchproduct', { name: 'X' }), 404, 'resource_missing', { param: 'id' });
    expectError(await merchantCall(ctx.h, other, 'POST', url, { name: 'Mine now' }), 404, 'resource_missing', { param: 'id' });
    const after = await state();
    expect(after.products).toEqual(before.products);
    expect(after.prices).toEqual(before.prices);
    expect(after.audit_log).toEqual(before.audit_log);
  });

  it('checkout line items may name a one-time price; recurring or archived prices are refused in payment mode', async () => {
    const club = await product({ name: 'Coffee club', default_price_data: { currency: 'usd', unit_amount: 2000, recurring: { interval: 'month' } } });
    const beans = await product({ name: 'Kenya AA, 250 g', default_price_data: { currency: 'usd', unit_amount: 1650 } });
    const archivedPrice = await price({ product: beans.id, unit_amount: 900, active: false });
    const euro = await price({ product: beans.id, currency: 'eur', unit_amount: 1500 });
    const retired = await product({ name: 'Retired', default_price_data: { currency: 'usd', unit_amount: 700 } });
    await call('POST', `/v1/products/${retired.id}`, { active: false });

    const res = await call('POST', '/v1/checkout/sessions', { line_items: [{ price: beans.default_price.id, quantity: 2 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      currency: 'usd',
      amount_total: 3300,
      line_items: [{ name: 'Kenya AA, 250 g', unit_amount: 1650, quantity: 2, amount: 3300 }],
    });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(1);

    const refused = expectError(
      await call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ price: club.default_price.id, quantity: 1 }] }),
      400,
      'parameter_invalid',
      { param: 'line_items[0][price]' },
    );
    expect(refused.message).toBe('You must be in subscription mode to use recurring prices');
    const session = (line: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      call('POST', '/v1/checkout/sessions', {
        line_items: [
          { name: 'Filters', unit_amount: 600, quantity: 1 },
          { quantity: 1, ...line },
        ],
        currency: 'usd',
        ...extra,
      });
    expectError(await session({ price: archivedPrice.id }), 400, 'parameter_invalid', { param: 'line_items[1][price]' });
    expectError(await session({ price: retired.default_price.id }), 400, 'parameter_invalid', { param: 'line_items[1][price]' });
    expectError(await session({ price: euro.id }), 400, 'parameter_invalid', { param: 'line_items[1][price]' });
    expectError(await session({ price: 'price_nosuchprice' }), 404, 'resource_missing', { param: 'line_items[1][price]' });
    expectError(await session({ price: beans.default_price.id, unit_amount: 1 }), 400, 'parameter_invalid', { param: 'line_items[1][price]' });
    expectError(await session({ price: beans.default_price.id }, { currency: undefined }), 400, 'parameter_missing', { param: 'currency' });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(1);

    // A payment link opens payment-mode sessions: a recurring price makes no link.
    expectError(await call('POST', '/v1/payment_links', { line_items: [{ price: club.default_price.id, quantity: 1 }] }), 400, 'parameter_invalid', {
      param: 'line_items[0][price]',
    });
    expect(await countRows(ctx.db, 'payment_links')).toBe(0);
  });
});
