import { describe, expect, it } from 'vitest';
import { PUBLIC_URL } from '../support/harness';
import { testDatabases } from '../support/databases';
import { countRows, expectError, merchantCall, useIntegration } from '../support/integration';

describe.each(testDatabases)('products and payment links over the API ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);

  async function product(name: string, unitAmount: number, currency = 'eur') {
    const res = await call('POST', '/v1/products', { name, default_price_data: { currency, unit_amount: unitAmount } });
    expect(res.statusCode, res.body).toBe(200);
    ctx.h.clock.advance(1000);
    return res.json();
  }

  it('creates a product with its default price and reads it back', async () => {
    const res = await call('POST', '/v1/products', {
      name: 'Espresso beans, 1 kg',
      description: 'Dark roast',
      default_price_data: { currency: 'eur', unit_amount: 2490 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({
      object: 'product',
      name: 'Espresso beans, 1 kg',
      description: 'Dark roast',
      active: true,
      default_price: { object: 'price', currency: 'eur', unit_amount: 2490, product: created.id, active: true },
    });
    expect(created.id).toMatch(/^prod_/);
    expect(created.default_price.id).toMatch(/^price_/);
    expect((await call('GET', `/v1/products/${created.id}`)).json()).toEqual(created);

    const bare = await call('POST', '/v1/products', { name: 'Gift wrap' });
    expect(bare.json()).toMatchObject({ default_price: null, description: null });
  });

  it('refuses bad products, changing nothing', async () => {
    expectError(await call('POST', '/v1/products', {}), 400, 'parameter_missing', { param: 'name' });
    expectError(await call('POST', '/v1/products', { name: ' ' }), 400, 'parameter_invalid', { param: 'name' });
    expectError(await call('POST', '/v1/products', { name: 'x', default_price_data: { currency: 'xyz', unit_amount: 100 } }), 400, 'currency_not_supported', {
      param: 'default_price_data[currency]',
    });
    expectError(await call('POST', '/v1/products', { name: 'x', default_price_data: { currency: 'usd', unit_amount: -1 } }), 400, 'parameter_invalid', {
      param: 'default_price_data[unit_amount]',
    });
    expectError(await call('POST', '/v1/products', { name: 'x', colour: 'red' }), 400, 'parameter_unknown', { param: 'colour' });
    expect(await countRows(ctx.db, 'products')).toBe(0);
    expect(await countRows(ctx.db, 'prices')).toBe(0);
  });

  it('a payment link of prices opens sessions with the products, and stops when deactivated', async () => {
    const beans = await product('Beans', 1450);
    const filters = await product('Filters', 600);
    const res = await call('POST', '/v1/payment_links', {
      line_items: [
        { price: beans.default_price.id, quantity: 2 },
        { price: filters.default_price.id, quantity: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json();
    expect(link).toMatchObject({
      object: 'payment_link',
      active: true,
      currency: 'eur',
      amount_total: 3500,
      line_items: [
        { price: beans.default_price.id, name: 'Beans', unit_amount: 1450, quantity: 2, amount: 2900 },
        { price: filters.default_price.id, name: 'Filters', unit_amount: 600, quantity: 1, amount: 600 },
      ],
    });
    expect(link.url).toMatch(new RegExp(`^${PUBLIC_URL}/l/[0-9a-z]+$`));
    expect((await call('GET', `/v1/payment_links/${link.id}`)).json()).toEqual(link);

    const opened = await ctx.h.app.inject({ method: 'GET', url: new URL(link.url).pathname });
    expect(opened.statusCode).toBe(303);
    const sessionId = String(opened.headers.location).slice('/c/'.length);
    const session = (await call('GET', `/v1/checkout/sessions/${sessionId}`)).json();
    expect(session).toMatchObject({ status: 'open', currency: 'eur', amount_total: 3500, payment_link: link.id });

    const off = await call('POST', `/v1/payment_links/${link.id}`, { active: false });
    expect(off.json()).toMatchObject({ id: link.id, active: false });
    expectError(await ctx.h.app.inject({ method: 'GET', url: new URL(link.url).pathname }), 404, 'resource_missing', {
      param: 'id',
    });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(1);
  });

  it('a payment link of named items needs a currency; bad items are refused by name', async () => {
    const made = await call('POST', '/v1/payment_links', {
      currency: 'gbp',
      line_items: [{ name: 'Workshop seat', unit_amount: 4000, quantity: 1 }],
    });
    expect(made.json()).toMatchObject({ currency: 'gbp', amount_total: 4000, line_items: [{ price: null, name: 'Workshop seat' }] });

    expectError(await call('POST', '/v1/payment_links', { line_items: [{ name: 'Seat', unit_amount: 4000, quantity: 1 }] }), 400, 'parameter_missing', {
      param: 'currency',
    });
    expectError(await call('POST', '/v1/payment_links', { line_items: [{ price: 'price_nosuchprice', quantity: 1 }] }), 404, 'resource_missing', {
      param: 'line_items[0][price]',
    });
    expectError(
      await call('POST', '/v1/payment_links', { currency: 'usd', line_items: [{ name: 'Seat', unit_amount: 4000, quantity: 1000 }] }),
      400,
      'parameter_invalid',
      { param: 'line_items[0][quantity]' },
    );
    const other = await ctx.h.newAccountKey('Other Shop');
    const theirs = (await merchantCall(ctx.h, other, 'POST', '/v1/products', { name: 'X', default_price_data: { currency: 'usd', unit_amount: 900 } })).json();
    expectError(await call('POST', '/v1/payment_links', { line_items: [{ price: theirs.default_price.id, quantity: 1 }] }), 404, 'resource_missing', {
      param: 'line_items[0][price]',
    });
    expectError(await call('POST', `/v1/payment_links/${made.json().id}`, { active: 'no' }), 400, 'parameter_invalid', {
      param: 'active',
    });
    expectError(await merchantCall(ctx.h, other, 'POST', `/v1/payment_links/${made.json().id}`, { active: false }), 404, 'resource_missing', {
      param: 'id',
    });
    expect((await call('GET', `/v1/payment_links/${made.json().id}`)).json()).toMatchObject({ active: true });
    expect(await countRows(ctx.db, 'payment_links')).toBe(1);
  });
});
