import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { countRows, createSession, expectError, merchantCall, payCall, tokenize, useIntegration } from '../support/integration';
import { dumpBusinessData } from '../support/payments';
import { checkoutSessionSchema, taxRateSchema } from '../../src/http/response-schemas';

describe.each(testDatabases)('tax rates and shipping options ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);

  async function taxRate(body: Record<string, unknown>) {
    const res = await call('POST', '/v1/tax_rates', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const chooseShipping = (sessionId: string, shippingRate: string) =>
    ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/shipping_rate`, payload: { shipping_rate: shippingRate } });

  const standard = {
    shipping_rate_data: {
      type: 'fixed_amount',
      display_name: 'Standard',
      fixed_amount: { amount: 500, currency: 'usd' },
      delivery_estimate: { minimum: { unit: 'business_day', value: 3 }, maximum: { unit: 'business_day', value: 5 } },
    },
  };
  const express = { shipping_rate_data: { type: 'fixed_amount', display_name: 'Express', fixed_amount: { amount: 1500, currency: 'usd' } } };

  it("creates tax rates in Stripe's shape and refuses bad ones, changing nothing", async () => {
    const vat = await taxRate({ display_name: 'VAT', percentage: 20, inclusive: true, country: 'gb' });
    expect(vat).toMatchObject({ object: 'tax_rate', display_name: 'VAT', percentage: 20, inclusive: true, country: 'GB', state: null, active: true });
    expect(vat.id).toMatch(/^txr_/);
    expect(taxRateSchema.parse(vat)).toEqual(vat);
    expect((await call('GET', `/v1/tax_rates/${vat.id}`)).json()).toEqual(vat);
    expect((await call('GET', '/v1/tax_rates')).json().data).toEqual([vat]);
    const before = await dumpBusinessData(ctx.db);
    expectError(await call('POST', '/v1/tax_rates', { display_name: 'x', percentage: 101, inclusive: false }), 400, 'parameter_invalid', {
      param: 'percentage',
    });
    expectError(await call('POST', '/v1/tax_rates', { display_name: 'x', percentage: 8.12345, inclusive: false }), 400, 'parameter_invalid', {
      param: 'percentage',
    });
    expectError(await call('POST', '/v1/tax_rates', { display_name: 'x', percentage: 5, inclusive: false, country: '1x' }), 400, 'parameter_invalid', {
      param: 'country',
    });
    expectError(await call('POST', '/v1/tax_rates', { display_name: 'x', percentage: 5, inclusive: false, state: 'CA' }), 400, 'parameter_invalid', {
      param: 'state',
    });
    expectError(await call('POST', '/v1/tax_rates', { display_name: 'x', percentage: 5 }), 400, 'parameter_missing', { param: 'inclusive' });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);
  });

  it('line_items[].tax_rates: exclusive tax is added per line, inclusive tax is shown but not added', async () => {
    const salesTax = await taxRate({ display_name: 'Sales tax', percentage: 8.875, inclusive: false, country: 'US', state: 'NY' });
    const vat = await taxRate({ display_name: 'VAT', percentage: 20, inclusive: true });
    const session = await createSession(ctx, {
      line_items: [
        { name: 'Bagels', unit_amount: 1999, quantity: 1, tax_rates: [salesTax.id] },
        { name: 'Jam', unit_amount: 1200, quantity: 1, tax_rates: [vat.id] },
      ],
    });
    // 8.875 % of 19.99 = 1.774 → 1.77; 20 % inclusive in 12.00 = 2.00; total 19.99 + 1.77 + 12.00
    expect(session).toMatchObject({ amount_subtotal: 3199, amount_total: 3376, total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 377 } });
    expect(session.line_items[0].tax_rates).toEqual([salesTax.id]);
    expect(checkoutSessionSchema.parse(session)).toEqual(session);
    const before = await countRows(ctx.db, 'checkout_sessions');
    expectError(
      await call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'x', unit_amount: 100, quantity: 1, tax_rates: ['txr_nope'] }] }),
      404,
      'resource_missing',
      {
        param: 'line_items[0][tax_rates][0]',
      },
    );
    const inactive = await taxRate({ display_name: 'Old', percentage: 5, inclusive: false, active: false });
    expectError(
      await call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'x', unit_amount: 100, quantity: 1, tax_rates: [inactive.id] }] }),
      400,
      'parameter_invalid',
      {
        param: 'line_items[0][tax_rates][0]',
      },
    );
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(before);
  });

  it('shipping_options: the first is chosen, the shopper picks another, the server prices it and the payment carries it', async () => {
    const session = await createSession(ctx, { shipping_options: [standard, express] });
    expect(checkoutSessionSchema.parse(session)).toEqual(session);
    expect(session.shipping_options.map((o: any) => [o.shipping_amount, o.shipping_rate.display_name])).toEqual([
      [500, 'Standard'],
      [1500, 'Express'],
    ]);
    expect(session.shipping_options[0].shipping_rate.delivery_estimate).toEqual({
      minimum: { unit: 'business_day', value: 3 },
      maximum: { unit: 'business_day', value: 5 },
    });
    const [first, second] = session.shipping_options.map((o: any) => o.shipping_rate.id);
    expect(session).toMatchObject({ amount_subtotal: 3500, amount_total: 4000, shipping_cost: { amount_total: 500, shipping_rate: first } });

    expectError(await chooseShipping(session.id, 'shr_nope'), 400, 'parameter_invalid', { param: 'shipping_rate' });
    const chosen = await chooseShipping(session.id, second);
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ amount_total: 5000, shipping_rate: second, total_details: { amount_shipping: 1500 } });

    expect((await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id))).statusCode).toBe(200);
    const done = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    expect(done.shipping_cost).toEqual({ amount_total: 1500, shipping_rate: second });
    const payment = (await call('GET', `/v1/payments/${done.payment}`)).json();
    expect(payment).toMatchObject({ amount: 5000, total_details: { amount_discount: 0, amount_shipping: 1500, amount_tax: 0 } });
    // A paid session keeps its shipping.
    expectError(await chooseShipping(session.id, first), 409, 'checkout_session_completed');
  });

  it('refuses shipping options in another currency or without a name, opening no session', async () => {
    const before = await countRows(ctx.db, 'checkout_sessions');
    const euros = { shipping_rate_data: { ...express.shipping_rate_data, fixed_amount: { amount: 100, currency: 'eur' } } };
    expectError(await call('POST', '/v1/checkout/sessions', { ...sessionBody(), shipping_options: [euros] }), 400, 'parameter_invalid', {
      param: 'shipping_options[0][shipping_rate_data][fixed_amount][currency]',
    });
    const nameless = { shipping_rate_data: { ...express.shipping_rate_data, display_name: ' ' } };
    expectError(await call('POST', '/v1/checkout/sessions', { ...sessionBody(), shipping_options: [nameless] }), 400, 'parameter_invalid', {
      param: 'shipping_options[0][shipping_rate_data][display_name]',
    });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(before);
  });
});

const sessionBody = () => ({ currency: 'usd', line_items: [{ name: 'Tea', unit_amount: 1000, quantity: 1 }] });
