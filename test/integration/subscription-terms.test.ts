import { describe, expect, it } from 'vitest';
import { runJobOnce } from '../../src/runtime/scheduler';
import { invoiceSchema, subscriptionSchema } from '../../src/http/response-schemas';
import { testDatabases } from '../support/databases';
import { billingCalls, DAY, DECLINES_AFTER_SAVE, START } from '../support/billing';
import { dumpDatabase, expectError, rows, useIntegration, withoutBookkeeping } from '../support/integration';

/** The first of `month` (0 = January) 2027, 09:00 UTC: a monthly subscription's period starts. */
const firstOf = (month: number) => Date.UTC(2027, month, 1, 9) / 1000;

type Json = Record<string, any>;

/** An invoice adds up: its subtotal less its discount plus its exclusive tax is its total, which is what is due. */
function expectAddsUp(invoice: Json) {
  const discount = (invoice.total_discount_amounts as Json[]).reduce((sum, off) => sum + off.amount, 0);
  const exclusive = (invoice.total_tax_amounts as Json[]).filter((tax) => !tax.inclusive).reduce((sum, tax) => sum + tax.amount, 0);
  expect(invoice.subtotal).toBe((invoice.lines.data as Json[]).reduce((sum, line) => sum + line.amount, 0));
  expect(invoice.tax).toBe((invoice.total_tax_amounts as Json[]).reduce((sum, tax) => sum + tax.amount, 0));
  expect(invoice.total).toBe(invoice.subtotal - discount + exclusive);
  expect(invoice.amount_due).toBe(Math.max(0, invoice.total));
  expect(invoiceSchema.parse(invoice)).toEqual(invoice);
}

describe.each(testDatabases)('discounts and taxes on subscription invoices ($name)', (database) => {
  const ctx = useIntegration(database);
  const { call, ok, recurringPrice, customerWithCard, invoicesOf, advance } = billingCalls(ctx);
  /** A customer on a new test clock at START, with `card` saved by a setup session (nothing charged). */
  const customerOnClock = (card?: Record<string, unknown>) => customerWithCard({ card });

  it('a 25%-off coupon repeating for 3 months takes exactly the first 3 monthly invoices off, then goes', async () => {
    const price = await recurringPrice(2000);
    const coupon = await ok('POST', '/v1/coupons', { name: 'First quarter', percent_off: 25, duration: 'repeating', duration_in_months: 3 });
    expect(coupon).toMatchObject({ duration: 'repeating', duration_in_months: 3 });
    const { clock, customer } = await customerOnClock();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], coupon: coupon.id });
    expect(sub.discount).toEqual({
      object: 'discount',
      coupon: {
        id: coupon.id,
        object: 'coupon',
        name: 'First quarter',
        percent_off: 25,
        amount_off: null,
        currency: null,
        duration: 'repeating',
        duration_in_months: 3,
      },
      promotion_code: null,
      start: START,
      end: firstOf(3),
    });
    expect(subscriptionSchema.parse(sub)).toEqual(sub);

    await advance(clock, firstOf(4) + DAY);
    const invoices = await invoicesOf(sub.id);
    expect(invoices.map((invoice) => invoice.period_start)).toEqual([0, 1, 2, 3, 4].map(firstOf));
    expect(invoices.map((invoice) => invoice.total)).toEqual([1500, 1500, 1500, 2000, 2000]);
    expect(invoices.map((invoice) => invoice.amount_paid)).toEqual([1500, 1500, 1500, 2000, 2000]);
    for (const invoice of invoices.slice(0, 3)) expect(invoice.total_discount_amounts).toEqual([{ amount: 500, coupon: coupon.id, promotion_code: null }]);
    for (const invoice of invoices.slice(3)) expect(invoice.total_discount_amounts).toEqual([]);
    for (const invoice of invoices) expectAddsUp(invoice);
    // What was charged is what the invoices say.
    const charged = await rows(ctx.db, `SELECT amount FROM payments WHERE invoice_id = ANY($1::text[]) AND status = 'succeeded' ORDER BY amount`, [
      invoices.map((invoice) => invoice.id),
    ]);
    expect(charged.map((payment) => Number(payment.amount))).toEqual([1500, 1500, 1500, 2000, 2000]);
    // Its end passed, the discount is gone from the subscription; it was redeemed once.
    expect((await ok('GET', `/v1/subscriptions/${sub.id}`)).discount).toBeNull();
    expect((await ok('GET', `/v1/coupons/${coupon.id}`)).times_redeemed).toBe(1);
  });

  it('a forever amount-off coupon in JPY takes the same yen off every invoice, set and removed by POST /v1/subscriptions/:id', async () => {
    const price = await recurringPrice(1200, { currency: 'jpy' });
    const coupon = await ok('POST', '/v1/coupons', { amount_off: 300, currency: 'jpy', duration: 'forever' });
    const { clock, customer } = await customerOnClock();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }] });
    expect(sub.discount).toBeNull();
    // Set mid-period: the next invoices take it.
    await advance(clock, START + 10 * DAY);
    const discounted = await ok('POST', `/v1/subscriptions/${sub.id}`, { coupon: coupon.id });
    expect(discounted.discount).toMatchObject({ coupon: { id: coupon.id, amount_off: 300, currency: 'jpy', duration: 'forever' }, end: null });
    await advance(clock, firstOf(3) + DAY);
    // Removed (`coupon: ""`): the invoices after it bill the whole price again.
    expect((await ok('POST', `/v1/subscriptions/${sub.id}`, { coupon: '' })).discount).toBeNull();
    await advance(clock, firstOf(4) + DAY);
    const invoices = await invoicesOf(sub.id);
    expect(invoices.map((invoice) => [invoice.currency, invoice.subtotal, invoice.total])).toEqual([
      ['jpy', 1200, 1200],
      ['jpy', 1200, 900],
      ['jpy', 1200, 900],
      ['jpy', 1200, 900],
      ['jpy', 1200, 1200],
    ]);
    for (const invoice of invoices) expectAddsUp(invoice);
  });

  it.each([
    // 19.99 USD × 8.25 % = 1.649175 → 1.65; 12.345 KWD × 8.25 % = 1.01846… → 1.018.
    ['usd', 1999, 165],
    ['kwd', 12345, 1018],
  ])('in %s, an exclusive tax rate of 8.25 percent is added to each invoice, rounded to the minor unit', async (currency, amount, tax) => {
    const price = await recurringPrice(amount, { currency: currency });
    const rate = await ok('POST', '/v1/tax_rates', { display_name: 'Sales tax', percentage: 8.25, inclusive: false, country: 'US', state: 'TX' });
    const { clock, customer } = await customerOnClock();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], default_tax_rates: [rate.id] });
    expect(sub.default_tax_rates).toEqual([rate.id]);
    await advance(clock, firstOf(1) + DAY);
    const invoices = await invoicesOf(sub.id);
    expect(invoices.map((invoice) => invoice.billing_reason)).toEqual(['subscription_create', 'subscription_cycle']);
    for (const invoice of invoices) {
      expect(invoice).toMatchObject({ status: 'paid', subtotal: amount, tax, total: amount + tax, amount_due: amount + tax, amount_paid: amount + tax });
      expect(invoice.total_tax_amounts).toEqual([{ amount: tax, inclusive: false, tax_rate: rate.id }]);
      expectAddsUp(invoice);
    }
    // The hosted invoice page shows the tax added.
    const page = await ctx.h.app.inject({ method: 'GET', url: new URL(invoices[1]!.hosted_invoice_url).pathname, headers: { 'accept-language': 'en' } });
    expect(page.body).toMatch(new RegExp(`<dt>Tax</dt><dd>[^<]*${(tax / (currency === 'kwd' ? 1000 : 100)).toFixed(currency === 'kwd' ? 3 : 2)}</dd>`));
    const [renewalPayment] = await rows(ctx.db, 'SELECT amount, currency FROM payments WHERE invoice_id = $1', [invoices[1]!.id]);
    expect({ amount: Number(renewalPayment!.amount), currency: String(renewalPayment!.currency).toLowerCase() }).toEqual({ amount: amount + tax, currency });
  });

  it('an inclusive rate is part of the price: the total stays, its tax is shown; with a discount it is taken on what is left', async () => {
    const price = await recurringPrice(1000, { currency: 'gbp' });
    const vat = await ok('POST', '/v1/tax_rates', { display_name: 'VAT', percentage: 20, inclusive: true, country: 'GB' });
    const coupon = await ok('POST', '/v1/coupons', { percent_off: 10, duration: 'forever' });
    const { clock, customer } = await customerOnClock();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], default_tax_rates: [vat.id] });
    await advance(clock, START + DAY);
    await ok('POST', `/v1/subscriptions/${sub.id}`, { coupon: coupon.id });
    await advance(clock, firstOf(1) + DAY);
    const [first, second] = await invoicesOf(sub.id);
    // £10.00 with 20 % VAT in it: 10.00 × 20 / 120 = 1.666… → 1.67.
    expect(first).toMatchObject({ subtotal: 1000, tax: 167, total: 1000, amount_paid: 1000 });
    // Its hosted page: the discount shown, the VAT already in the price not added again.
    const page = await ctx.h.app.inject({ method: 'GET', url: new URL(second!.hosted_invoice_url).pathname, headers: { 'accept-language': 'en-GB' } });
    expect(page.body).toMatch(/<dt>Discount<\/dt><dd>-£1\.00<\/dd>/);
    expect(page.body).not.toContain('<dt>Tax</dt>');
    expect(first!.total_tax_amounts).toEqual([{ amount: 167, inclusive: true, tax_rate: vat.id }]);
    // 10 % off: £9.00, of which 9.00 × 20 / 120 = 1.50 is VAT.
    expect(second).toMatchObject({ subtotal: 1000, tax: 150, total: 900, amount_paid: 900 });
    expect(second!.total_discount_amounts).toEqual([{ amount: 100, coupon: coupon.id, promotion_code: null }]);
    for (const invoice of [first!, second!]) expectAddsUp(invoice);
  });

  it('a declined first charge answers 200: the subscription incomplete, its invoice open and retried; the data say the same', async () => {
    const price = await recurringPrice(1500);
    const { clock, customer } = await customerOnClock(DECLINES_AFTER_SAVE);
    const declined = await call('POST', '/v1/subscriptions', { customer, items: [{ price }] });
    expect(declined.statusCode, declined.body).toBe(200);
    const sub = declined.json() as Json;
    expect(sub.status).toBe('incomplete');
    const invoice = await ok('GET', `/v1/invoices/${sub.latest_invoice}`);
    expect(invoice).toMatchObject({ status: 'open', attempt_count: 1, amount_paid: 0, amount_remaining: 1500, next_payment_attempt: START + DAY });
    const attempts = await rows(ctx.db, 'SELECT status, failure_code FROM payments WHERE invoice_id = $1', [invoice.id]);
    expect(attempts).toEqual([{ status: 'failed', failure_code: 'card_declined' }]);
    const [stored] = await rows(ctx.db, 'SELECT status, latest_invoice_id FROM subscriptions WHERE id = $1', [sub.id]);
    expect(stored).toEqual({ status: 'incomplete', latest_invoice_id: invoice.id });
    // The retry schedule takes it from there.
    await advance(clock, START + DAY + 60);
    expect(await ok('GET', `/v1/invoices/${invoice.id}`)).toMatchObject({ status: 'open', attempt_count: 2 });

    // A saved method the processor no longer knows fails as `parameter_invalid` on the payment: the
    // same answer, not a 400 after the subscription was made.
    const other = await customerOnClock();
    await ctx.db.query('DELETE FROM test_saved_cards');
    const refused = await call('POST', '/v1/subscriptions', { customer: other.customer, items: [{ price }] });
    expect(refused.statusCode, refused.body).toBe(200);
    const incomplete = refused.json() as Json;
    expect(incomplete.status).toBe('incomplete');
    expect(await ok('GET', `/v1/invoices/${incomplete.latest_invoice}`)).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: START + DAY });
    const [failed] = await rows(ctx.db, 'SELECT status, failure_code FROM payments WHERE invoice_id = $1', [incomplete.latest_invoice]);
    expect(failed).toEqual({ status: 'failed', failure_code: 'parameter_invalid' });
  });

  it('a promotion code applies as at checkout: its limits hold, and a coupon in another currency is refused', async () => {
    const price = await recurringPrice(2000);
    const coupon = await ok('POST', '/v1/coupons', { percent_off: 50, duration: 'forever', max_redemptions: 5 });
    const code = await ok('POST', '/v1/promotion_codes', { code: 'HALFOFF', coupon: coupon.id, max_redemptions: 1 });
    const { customer } = await customerOnClock();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], promotion_code: code.id });
    expect(sub.discount).toMatchObject({ coupon: { id: coupon.id, percent_off: 50 }, promotion_code: code.id, end: null });
    const [invoice] = await invoicesOf(sub.id);
    expect(invoice).toMatchObject({ total: 1000, amount_paid: 1000, total_discount_amounts: [{ amount: 1000, coupon: coupon.id, promotion_code: code.id }] });
    expect((await ok('GET', `/v1/promotion_codes/${code.id}`)).times_redeemed).toBe(1);

    const before = withoutBookkeeping(await dumpDatabase(ctx.db));
    // The code's one redemption is used.
    expectError(await call('POST', '/v1/subscriptions', { customer, items: [{ price }], promotion_code: code.id }), 400, 'parameter_invalid', {
      param: 'promotion_code',
    });
    // An amount off in euros does not apply to dollars.
    const euros = await ok('POST', '/v1/coupons', { amount_off: 500, currency: 'eur', duration: 'once' });
    const afterCoupon = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(await call('POST', '/v1/subscriptions', { customer, items: [{ price }], coupon: euros.id }), 400, 'parameter_invalid', { param: 'coupon' });
    expectError(await call('POST', `/v1/subscriptions/${sub.id}`, { coupon: euros.id }), 400, 'parameter_invalid', { param: 'coupon' });
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(afterCoupon);
    expect(before.subscriptions).toEqual(afterCoupon.subscriptions);
  });

  it('refuses bad coupon bodies and bad discounts or tax rates on a subscription with a 400 or 404, changing nothing', async () => {
    const price = await recurringPrice(1000);
    const { customer } = await customerOnClock();
    const coupon = await ok('POST', '/v1/coupons', { percent_off: 10, duration: 'once' });
    const rate = await ok('POST', '/v1/tax_rates', { display_name: 'Old tax', percentage: 5, inclusive: false, active: false });
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }] });
    const before = withoutBookkeeping(await dumpDatabase(ctx.db));
    const coupons: Array<[Json, string, string]> = [
      [{ percent_off: 10, duration: 'repeating' }, 'parameter_missing', 'duration_in_months'],
      [{ percent_off: 10, duration: 'repeating', duration_in_months: 0 }, 'parameter_invalid', 'duration_in_months'],
      [{ percent_off: 10, duration: 'repeating', duration_in_months: 37 }, 'parameter_invalid', 'duration_in_months'],
      [{ percent_off: 10, duration: 'repeating', duration_in_months: 1.5 }, 'parameter_invalid', 'duration_in_months'],
      [{ percent_off: 10, duration: 'forever', duration_in_months: 3 }, 'parameter_invalid', 'duration_in_months'],
      [{ percent_off: 10, duration_in_months: 3 }, 'parameter_invalid', 'duration_in_months'],
      [{ percent_off: 10, duration: 'monthly' }, 'parameter_invalid', 'duration'],
    ];
    for (const [body, code, param] of coupons) expectError(await call('POST', '/v1/coupons', body), 400, code, { param });
    const start = { customer, items: [{ price }] };
    expectError(await call('POST', '/v1/subscriptions', { ...start, coupon: 'coupon_nope' }), 404, 'resource_missing', { param: 'coupon' });
    expectError(await call('POST', '/v1/subscriptions', { ...start, promotion_code: 'promo_nope' }), 404, 'resource_missing', { param: 'promotion_code' });
    expectError(await call('POST', '/v1/subscriptions', { ...start, coupon: coupon.id, promotion_code: 'promo_x' }), 400, 'parameter_invalid', {
      param: 'promotion_code',
    });
    expectError(await call('POST', '/v1/subscriptions', { ...start, default_tax_rates: ['txr_nope'] }), 404, 'resource_missing', {
      param: 'default_tax_rates[0]',
    });
    expectError(await call('POST', '/v1/subscriptions', { ...start, default_tax_rates: [rate.id] }), 400, 'parameter_invalid', {
      param: 'default_tax_rates[0]',
    });
    expectError(await call('POST', `/v1/subscriptions/${sub.id}`, { coupon: 'coupon_nope' }), 404, 'resource_missing', { param: 'coupon' });
    expectError(await call('POST', `/v1/subscriptions/${sub.id}`, { default_tax_rates: [rate.id] }), 400, 'parameter_invalid', {
      param: 'default_tax_rates[0]',
    });
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before);
  });

  it('a first invoice a 100%-off once coupon takes to nothing is paid without a charge, the subscription active; the next is charged whole', async () => {
    const price = await recurringPrice(1500);
    const coupon = await ok('POST', '/v1/coupons', { percent_off: 100, duration: 'once' });
    const { clock, customer } = await customerOnClock();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], coupon: coupon.id });
    expect(sub).toMatchObject({ status: 'active', discount: null });
    expect(await ok('GET', `/v1/invoices/${sub.latest_invoice}`)).toMatchObject({ status: 'paid', subtotal: 1500, total: 0, amount_due: 0, payment: null });
    await advance(clock, firstOf(1) + DAY);
    const [, renewal] = await invoicesOf(sub.id);
    expect(renewal).toMatchObject({ status: 'paid', total: 1500, amount_paid: 1500, total_discount_amounts: [] });
  });

  it('lists subscriptions each with its own price', async () => {
    const [cheap, dear] = [await recurringPrice(500), await recurringPrice(5000)];
    const { customer } = await customerOnClock();
    const subs = [
      await ok('POST', '/v1/subscriptions', { customer, items: [{ price: cheap }] }),
      await ok('POST', '/v1/subscriptions', { customer, items: [{ price: dear }] }),
      await ok('POST', '/v1/subscriptions', { customer, items: [{ price: cheap }] }),
    ];
    const listed = (await ok('GET', `/v1/subscriptions?customer=${customer}`)).data as Json[];
    const byId = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect(listed.map((sub) => [sub.id, sub.items.data[0].price.id, sub.items.data[0].price.unit_amount]).sort(byId)).toEqual(
      [
        [subs[0]!.id, cheap, 500],
        [subs[1]!.id, dear, 5000],
        [subs[2]!.id, cheap, 500],
      ].sort(byId),
    );
  });
});

describe.each(testDatabases)('discounts and taxes of a subscription-mode checkout ($name)', (database) => {
  const ctx = useIntegration(database);
  const { ok, payPage } = billingCalls(ctx);

  it('a once promotion code and a tax rate at checkout: the first invoice shows each, renewals keep the tax and bill the whole price', async () => {
    const product = await ok('POST', '/v1/products', { name: 'Coffee club' });
    const price = (await ok('POST', '/v1/prices', { product: product.id, currency: 'usd', unit_amount: 2000, recurring: { interval: 'month' } })).id;
    const coupon = await ok('POST', '/v1/coupons', { name: 'Welcome', percent_off: 50, duration: 'once' });
    const code = await ok('POST', '/v1/promotion_codes', { code: 'WELCOME', coupon: coupon.id });
    const rate = await ok('POST', '/v1/tax_rates', { display_name: 'Sales tax', percentage: 8.25, inclusive: false });
    const session = await ok('POST', '/v1/checkout/sessions', {
      mode: 'subscription',
      line_items: [{ price, quantity: 1, tax_rates: [rate.id] }],
      discounts: [{ promotion_code: code.id }],
      shipping_options: [{ shipping_rate_data: { type: 'fixed_amount', display_name: 'Starter kit post', fixed_amount: { amount: 400, currency: 'usd' } } }],
    });
    // 20.00 − 10.00 = 10.00; tax 0.825 → 0.83; shipping 4.00.
    expect(session).toMatchObject({
      amount_subtotal: 2000,
      amount_total: 1483,
      total_details: { amount_discount: 1000, amount_tax: 83, amount_shipping: 400 },
    });
    await payPage(session.id);
    const done = await ok('GET', `/v1/checkout/sessions/${session.id}`);
    const sub = await ok('GET', `/v1/subscriptions/${done.subscription}`);
    // The once discount came off the first invoice and is gone; the tax rate stays.
    expect(sub).toMatchObject({ status: 'active', default_tax_rates: [rate.id], discount: null });

    const [first] = (await ok('GET', `/v1/invoices?subscription=${sub.id}`)).data as Json[];
    expect(first).toMatchObject({
      subtotal: 2400,
      tax: 83,
      total: 1483,
      amount_paid: 1483,
      payment: done.payment,
      total_discount_amounts: [{ amount: 1000, coupon: coupon.id, promotion_code: code.id }],
      total_tax_amounts: [{ amount: 83, inclusive: false, tax_rate: rate.id }],
    });
    expect((first!.lines.data as Json[]).map((line) => [line.description, line.amount, line.price])).toEqual([
      ['1 × Coffee club', 2000, price],
      ['Shipping: Starter kit post', 400, null],
    ]);
    expectAddsUp(first!);

    // A month on: the whole price, its tax, no shipping.
    ctx.h.clock.advance(32 * DAY * 1000);
    await runJobOnce(ctx.h.tillpoint.deps, 'billing');
    const renewal = ((await ok('GET', `/v1/invoices?subscription=${sub.id}`)).data as Json[]).find(
      (invoice) => invoice.billing_reason === 'subscription_cycle',
    )!;
    expect(renewal).toMatchObject({ status: 'paid', subtotal: 2000, tax: 165, total: 2165, amount_paid: 2165, total_discount_amounts: [] });
    expect(renewal.lines.data).toHaveLength(1);
    expectAddsUp(renewal);
    expect((await ok('GET', `/v1/promotion_codes/${code.id}`)).times_redeemed).toBe(1);
  });

  it("the dynamic rate the shopper's address chose is kept with the subscription", async () => {
    const product = await ok('POST', '/v1/products', { name: 'Tea club' });
    const price = (await ok('POST', '/v1/prices', { product: product.id, currency: 'usd', unit_amount: 10000, recurring: { interval: 'month' } })).id;
    const california = await ok('POST', '/v1/tax_rates', { display_name: 'CA', percentage: 7.25, inclusive: false, country: 'US', state: 'CA' });
    const germany = await ok('POST', '/v1/tax_rates', { display_name: 'MwSt', percentage: 19, inclusive: true, country: 'DE' });
    const session = await ok('POST', '/v1/checkout/sessions', {
      mode: 'subscription',
      line_items: [{ price, quantity: 1, dynamic_tax_rates: [california.id, germany.id] }],
      billing_address_collection: 'required',
    });
    const address = await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${session.id}/addresses`,
      payload: { billing_address: { line1: '1 Main St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' } },
    });
    expect(address.statusCode, address.body).toBe(200);
    await payPage(session.id);
    const done = await ok('GET', `/v1/checkout/sessions/${session.id}`);
    expect(done.amount_total).toBe(10725);
    const sub = await ok('GET', `/v1/subscriptions/${done.subscription}`);
    expect(sub.default_tax_rates).toEqual([california.id]);
    const [first] = (await ok('GET', `/v1/invoices?subscription=${sub.id}`)).data as Json[];
    expect(first).toMatchObject({ subtotal: 10000, tax: 725, total: 10725, amount_paid: 10725 });
    expectAddsUp(first!);
  });
});
