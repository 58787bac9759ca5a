import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { createSession, expectError, merchantCall, payCall, tokenize, useIntegration } from '../support/integration';
import { dumpBusinessData } from '../support/payments';
import { checkoutSessionSchema, paymentSchema } from '../../src/http/response-schemas';

describe.each(testDatabases)('addresses and dynamic tax rates ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);
  const setAddresses = (sessionId: string, payload: unknown) =>
    ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/addresses`, payload: payload as object });

  async function taxRate(body: Record<string, unknown>) {
    const res = await call('POST', '/v1/tax_rates', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const us = { line1: '1 Infinite Loop', city: 'Cupertino', state: 'CA', postal_code: '95014', country: 'US' };

  it("shipping_address_collection and billing_address_collection in Stripe's shapes; bad ones refused, no session opened", async () => {
    const session = await createSession(ctx, {
      shipping_address_collection: { allowed_countries: ['us', 'GB', 'JP', 'gb'] },
      billing_address_collection: 'required',
    });
    expect(session).toMatchObject({
      billing_address_collection: 'required',
      shipping_address_collection: { allowed_countries: ['US', 'GB', 'JP'] },
      shipping_details: null,
      customer_details: { email: null, address: null },
    });
    expect(checkoutSessionSchema.parse(session)).toEqual(session);
    expect((await createSession(ctx)).billing_address_collection).toBe('auto');
    const before = await dumpBusinessData(ctx.db);
    const body = { currency: 'usd', line_items: [{ name: 'Tea', unit_amount: 1000, quantity: 1 }] };
    expectError(
      await call('POST', '/v1/checkout/sessions', { ...body, shipping_address_collection: { allowed_countries: ['XQ'] } }),
      400,
      'parameter_invalid',
      {
        param: 'shipping_address_collection[allowed_countries][0]',
      },
    );
    expectError(await call('POST', '/v1/checkout/sessions', { ...body, shipping_address_collection: { allowed_countries: [] } }), 400, 'parameter_invalid', {
      param: 'shipping_address_collection[allowed_countries]',
    });
    expectError(await call('POST', '/v1/checkout/sessions', { ...body, billing_address_collection: 'always' }), 400, 'parameter_invalid', {
      param: 'billing_address_collection',
    });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);
  });

  it("the shopper's address is checked against its country's format (required fields, postal code, subdivision) and allowed countries", async () => {
    const session = await createSession(ctx, { shipping_address_collection: { allowed_countries: ['US', 'GB', 'JP'] } });
    const ship = (address: Record<string, unknown>, name = 'Ada Lovelace') => setAddresses(session.id, { shipping_details: { name, address } });
    const nonce = await tokenize(ctx.h, session.id);
    const before = await dumpBusinessData(ctx.db);
    // Paying before the address is given is refused.
    expectError(await payCall(ctx.h, session.id, nonce), 400, 'parameter_missing', { param: 'shipping_details' });
    expectError(await ship({ ...us, country: 'DE', postal_code: '10115' }), 400, 'parameter_invalid', { param: 'shipping_details[address][country]' });
    expectError(await ship({ ...us, postal_code: '9501' }), 400, 'parameter_invalid', { param: 'shipping_details[address][postal_code]' });
    expectError(await ship({ ...us, state: null }), 400, 'parameter_missing', { param: 'shipping_details[address][state]' });
    expectError(await ship({ ...us, state: 'ZZ' }), 400, 'parameter_invalid', { param: 'shipping_details[address][state]' });
    expectError(await ship(us, ' '), 400, 'parameter_missing', { param: 'shipping_details[name]' });
    // A GB address has no state, a post town and a postcode of its own rule; JP needs a prefecture, not a city.
    expectError(await ship({ line1: '10 Downing St', city: 'London', postal_code: '12345', country: 'GB' }), 400, 'parameter_invalid', {
      param: 'shipping_details[address][postal_code]',
    });
    expectError(await ship({ line1: '1-1 Chiyoda', postal_code: '100-0001', country: 'JP' }), 400, 'parameter_missing', {
      param: 'shipping_details[address][state]',
    });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);

    const gb = await ship({ line1: '10 Downing St', city: 'London', postal_code: 'sw1a 2aa', country: 'gb' });
    expect(gb.statusCode, gb.body).toBe(200);
    expect(gb.json().shipping_details).toEqual({
      name: 'Ada Lovelace',
      address: { line1: '10 Downing St', line2: null, city: 'London', state: null, postal_code: 'SW1A 2AA', country: 'GB' },
    });
    const jp = await ship({ line1: '1-1 Chiyoda', city: '', state: '東京都', postal_code: '100-0001', country: 'JP' });
    expect(jp.statusCode, jp.body).toBe(200);
    expect(jp.json().shipping_details.address).toMatchObject({ state: '13', postal_code: '100-0001', country: 'JP' });
    const fromUs = await ship({ ...us, state: 'ca' });
    expect(fromUs.json().shipping_details.address).toEqual({ ...us, line2: null });

    // A billing address is refused where the session does not ask for one.
    expectError(await setAddresses(session.id, { billing_address: us }), 400, 'parameter_invalid', { param: 'billing_address' });
    expect((await payCall(ctx.h, session.id, nonce)).statusCode).toBe(200);
    const done = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    expect(done.shipping_details).toEqual({ name: 'Ada Lovelace', address: { ...us, line2: null } });
    const payment = (await call('GET', `/v1/payments/${done.payment}`)).json();
    expect(payment.shipping_details).toEqual(done.shipping_details);
    expect(paymentSchema.parse(payment)).toEqual(payment);
    // A paid session keeps its address.
    expectError(await ship({ line1: '10 Downing St', city: 'London', postal_code: 'SW1A 2AA', country: 'GB' }), 409, 'checkout_session_completed');
  });

  it("dynamic_tax_rates: the rate of the shipping address's state, else its country, priced again when the address changes", async () => {
    const california = await taxRate({ display_name: 'Sales tax', percentage: 7.25, inclusive: false, country: 'US', state: 'CA' });
    const usFederal = await taxRate({ display_name: 'US tax', percentage: 5, inclusive: false, country: 'US' });
    const vat = await taxRate({ display_name: 'VAT', percentage: 20, inclusive: true, country: 'GB' });
    const session = await createSession(ctx, {
      line_items: [{ name: 'Kettle', unit_amount: 10000, quantity: 1, dynamic_tax_rates: [california.id, usFederal.id, vat.id] }],
      shipping_address_collection: { allowed_countries: ['US', 'GB', 'DE'] },
    });
    expect(session.line_items[0].dynamic_tax_rates).toEqual([california.id, usFederal.id, vat.id]);
    // No address yet: no dynamic tax.
    expect(session).toMatchObject({ amount_total: 10000, total_details: { amount_tax: 0 } });
    const ship = async (address: Record<string, unknown>) => {
      const res = await setAddresses(session.id, { shipping_details: { name: 'Ada', address } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    // California: 7.25 % of 100.00 = 7.25, added.
    expect(await ship(us)).toMatchObject({ amount_total: 10725, total_details: { amount_tax: 725 } });
    // New York: no state rate, the country's 5 %.
    expect(await ship({ line1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' })).toMatchObject({
      amount_total: 10500,
      total_details: { amount_tax: 500 },
    });
    // GB: 20 % inclusive, 100.00 / 1.2 × 0.2 = 16.67 shown, not added.
    expect(await ship({ line1: '10 Downing St', city: 'London', postal_code: 'SW1A 2AA', country: 'GB' })).toMatchObject({
      amount_total: 10000,
      total_details: { amount_tax: 1667 },
    });
    // Germany: no rate matches.
    expect(await ship({ line1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE' })).toMatchObject({
      amount_total: 10000,
      total_details: { amount_tax: 0 },
    });
    await ship(us);
    expect((await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id))).statusCode).toBe(200);
    const done = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    expect(done).toMatchObject({ amount_total: 10725, total_details: { amount_tax: 725 } });
    expect((await call('GET', `/v1/payments/${done.payment}`)).json()).toMatchObject({ amount: 10725, total_details: { amount_tax: 725 } });
  });

  it("the page's view names each tax by rate, inclusive ones apart (total_details.breakdown.taxes), the dynamic one once the address matches", async () => {
    const vat = await taxRate({ display_name: 'VAT', percentage: 20, inclusive: true });
    const levy = await taxRate({ display_name: 'Levy', percentage: 5, inclusive: false });
    const california = await taxRate({ display_name: 'Sales tax', percentage: 7.25, inclusive: false, country: 'US', state: 'CA' });
    const session = await createSession(ctx, {
      line_items: [
        { name: 'Kettle', unit_amount: 12000, quantity: 1, tax_rates: [vat.id] },
        { name: 'Mug', unit_amount: 1000, quantity: 2, tax_rates: [levy.id], dynamic_tax_rates: [california.id] },
      ],
      shipping_address_collection: { allowed_countries: ['US'] },
    });
    const view = async () => (await ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${session.id}` })).json();
    // 120.00 with 20 % in it: 20.00 included; 5 % on 20.00 = 1.00 added.
    expect((await view()).total_details).toEqual({
      amount_discount: 0,
      amount_shipping: 0,
      amount_tax: 2100,
      breakdown: {
        taxes: [
          { amount: 2000, rate: { display_name: 'VAT', percentage: 20, inclusive: true } },
          { amount: 100, rate: { display_name: 'Levy', percentage: 5, inclusive: false } },
        ],
      },
    });
    expect((await view()).amount_total).toBe(14100);
    expect((await setAddresses(session.id, { shipping_details: { name: 'Ada', address: us } })).statusCode).toBe(200);
    // California's 7.25 % of 20.00 = 1.45, added beside the levy.
    expect((await view()).total_details.breakdown.taxes).toEqual([
      { amount: 2000, rate: { display_name: 'VAT', percentage: 20, inclusive: true } },
      { amount: 100, rate: { display_name: 'Levy', percentage: 5, inclusive: false } },
      { amount: 145, rate: { display_name: 'Sales tax', percentage: 7.25, inclusive: false } },
    ]);
  });

  it('dynamic_tax_rates follow the billing address when no shipping address is asked; rates without a country or an address to match are refused', async () => {
    const vat = await taxRate({ display_name: 'VAT', percentage: 19, inclusive: false, country: 'DE' });
    const session = await createSession(ctx, {
      line_items: [{ name: 'Kettle', unit_amount: 10000, quantity: 1, dynamic_tax_rates: [vat.id] }],
      billing_address_collection: 'required',
    });
    const res = await setAddresses(session.id, { billing_address: { line1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ amount_total: 11900, total_details: { amount_tax: 1900 }, billing_address: { country: 'DE', postal_code: '10117' } });
    expectError(
      await setAddresses(session.id, { billing_address: { line1: 'x', city: 'Berlin', postal_code: '1011', country: 'DE' } }),
      400,
      'parameter_invalid',
      { param: 'billing_address[postal_code]' },
    );
    expect((await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id))).statusCode).toBe(200);
    const done = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    expect(done.customer_details.address).toMatchObject({ country: 'DE', city: 'Berlin' });
    expect((await call('GET', `/v1/payments/${done.payment}`)).json().customer_details.address).toEqual(done.customer_details.address);

    const before = await dumpBusinessData(ctx.db);
    const nowhere = await taxRate({ display_name: 'Flat', percentage: 5, inclusive: false });
    const after = await dumpBusinessData(ctx.db);
    const item = (rates: string[]) => ({ currency: 'usd', line_items: [{ name: 'x', unit_amount: 1000, quantity: 1, dynamic_tax_rates: rates }] });
    expectError(await call('POST', '/v1/checkout/sessions', { ...item([nowhere.id]), billing_address_collection: 'required' }), 400, 'parameter_invalid', {
      param: 'line_items[0][dynamic_tax_rates][0]',
    });
    expectError(await call('POST', '/v1/checkout/sessions', item([vat.id])), 400, 'parameter_invalid', { param: 'line_items' });
    expect(await dumpBusinessData(ctx.db)).toEqual(after);
    expect(before).not.toEqual(after);
  });

  it("serves each country's address format from the address data", async () => {
    const res = await ctx.h.app.inject({ method: 'GET', url: '/api/checkout/address-formats/jp' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ country: 'JP', rows: [['postal_code'], ['state'], ['line1'], ['line2'], ['name']], labels: { state: 'prefecture' } });
    expect((await ctx.h.app.inject({ method: 'GET', url: '/api/checkout/address-formats/gb' })).json()).toMatchObject({
      rows: [['name'], ['line1'], ['line2'], ['city'], ['postal_code']],
      labels: { city: 'post_town' },
    });
    expect((await ctx.h.app.inject({ method: 'GET', url: '/api/checkout/address-formats/xq' })).statusCode).toBe(404);
    expect((await ctx.h.app.inject({ method: 'GET', url: '/api/checkout/address-formats' })).json().countries).toContain('DE');
  });
});
