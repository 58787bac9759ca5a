import { describe, expect, it } from 'vitest';
import { buildHttpServer } from '../../src/http/server';
import { openTillpoint } from '../../src/runtime/open-tillpoint';
import { testDatabases } from '../support/databases';
import { PUBLIC_URL } from '../support/harness';
import { countRows, createSession, expectError, merchantCall, payCall, rows, tokenize, useIntegration } from '../support/integration';
import { dumpBusinessData } from '../support/payments';
import { checkoutSessionSchema, couponSchema, paymentSchema, promotionCodeSchema } from '../../src/http/response-schemas';

describe.each(testDatabases)('coupons, promotion codes and discounted sessions ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);

  async function coupon(body: Record<string, unknown>) {
    const res = await call('POST', '/v1/coupons', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  async function promotionCode(body: Record<string, unknown>) {
    const res = await call('POST', '/v1/promotion_codes', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const applyCode = (sessionId: string, code: string | null) =>
    ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/promotion_code`, payload: { code } });

  it("creates coupons and promotion codes in Stripe's shapes and reads them back", async () => {
    const percent = await coupon({ name: 'Spring', percent_off: 12.5, duration: 'once', max_redemptions: 10 });
    expect(percent).toMatchObject({
      object: 'coupon',
      livemode: false,
      name: 'Spring',
      percent_off: 12.5,
      amount_off: null,
      currency: null,
      duration: 'once',
      max_redemptions: 10,
      redeem_by: null,
      times_redeemed: 0,
      valid: true,
      metadata: {},
    });
    expect(percent.id).toMatch(/^coupon_/);
    ctx.h.clock.advance(1000);
    const amount = await coupon({ amount_off: 500, currency: 'EUR' });
    expect(amount).toMatchObject({ percent_off: null, amount_off: 500, currency: 'eur' });
    expect((await call('GET', `/v1/coupons/${percent.id}`)).json()).toEqual(percent);
    expect((await call('GET', '/v1/coupons')).json().data.map((c: { id: string }) => c.id)).toEqual([amount.id, percent.id]);

    const code = await promotionCode({ code: 'Spring15', coupon: percent.id, restrictions: { minimum_amount: 2000, minimum_amount_currency: 'usd' } });
    expect(code).toMatchObject({
      object: 'promotion_code',
      code: 'Spring15',
      active: true,
      max_redemptions: null,
      expires_at: null,
      times_redeemed: 0,
      restrictions: { first_time_transaction: false, minimum_amount: 2000, minimum_amount_currency: 'usd' },
    });
    expect(code.coupon).toEqual(percent);
    expect((await call('GET', `/v1/promotion_codes/${code.id}`)).json()).toEqual(code);
    expect((await call('GET', '/v1/promotion_codes?code=SPRING15')).json().data).toEqual([code]);
    // The answers are exactly the documented schemas (strict: a field too many fails).
    for (const answer of [percent, amount]) expect(couponSchema.parse(answer)).toEqual(answer);
    expect(promotionCodeSchema.parse(code)).toEqual(code);
    const generated = await promotionCode({ coupon: amount.id });
    expect(generated.code).toMatch(/^[A-Z2-9]{8}$/);
  });

  it('refuses bad coupons and codes, changing nothing', async () => {
    const base = await coupon({ percent_off: 10 });
    await promotionCode({ code: 'TAKEN', coupon: base.id });
    const before = await dumpBusinessData(ctx.db);
    expectError(await call('POST', '/v1/coupons', {}), 400, 'parameter_missing', { param: 'percent_off' });
    expectError(await call('POST', '/v1/coupons', { percent_off: 10, amount_off: 100, currency: 'usd' }), 400, 'parameter_missing', { param: 'amount_off' });
    expectError(await call('POST', '/v1/coupons', { percent_off: 120 }), 400, 'parameter_invalid', { param: 'percent_off' });
    expectError(await call('POST', '/v1/coupons', { percent_off: 10.123 }), 400, 'parameter_invalid', { param: 'percent_off' });
    expectError(await call('POST', '/v1/coupons', { amount_off: 100 }), 400, 'parameter_missing', { param: 'currency' });
    expectError(await call('POST', '/v1/coupons', { amount_off: 100, currency: 'xyz' }), 400, 'currency_not_supported', { param: 'currency' });
    expectError(await call('POST', '/v1/coupons', { percent_off: 10, duration: 'always' }), 400, 'parameter_invalid', { param: 'duration' });
    expectError(await call('POST', '/v1/coupons', { percent_off: 10, colour: 'red' }), 400, 'parameter_unknown', { param: 'colour' });
    expectError(await call('POST', '/v1/promotion_codes', { code: 'taken', coupon: base.id }), 400, 'parameter_invalid', { param: 'code' });
    expectError(await call('POST', '/v1/promotion_codes', { code: 'NEW', coupon: 'coupon_nope' }), 404, 'resource_missing', { param: 'coupon' });
    expectError(await call('POST', '/v1/promotion_codes', { code: 'a b', coupon: base.id }), 400, 'parameter_invalid', { param: 'code' });
    expectError(await call('POST', '/v1/promotion_codes', { code: 'MIN', coupon: base.id, restrictions: { minimum_amount: 100 } }), 400, 'parameter_missing', {
      param: 'restrictions[minimum_amount_currency]',
    });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);
  });

  it("takes Stripe's price_data beside name and unit_amount", async () => {
    const session = await createSession(ctx, {
      currency: 'jpy',
      line_items: [
        { price_data: { currency: 'jpy', unit_amount: 1980, product_data: { name: 'Matcha, 40 g' } }, quantity: 2 },
        { name: 'Whisk', unit_amount: 500, quantity: 1 },
      ],
    });
    expect(session.line_items).toEqual([
      { name: 'Matcha, 40 g', unit_amount: 1980, quantity: 2, amount: 3960 },
      { name: 'Whisk', unit_amount: 500, quantity: 1, amount: 500 },
    ]);
    expect(session).toMatchObject({ amount_subtotal: 4460, amount_total: 4460, total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 } });
    const before = await countRows(ctx.db, 'checkout_sessions');
    const priceData = { currency: 'usd', unit_amount: 100, product_data: { name: 'x' } };
    expectError(
      await call('POST', '/v1/checkout/sessions', { currency: 'jpy', line_items: [{ price_data: priceData, quantity: 1 }] }),
      400,
      'parameter_invalid',
      {
        param: 'line_items[0][price_data][currency]',
      },
    );
    expectError(
      await call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ price_data: priceData, name: 'x', quantity: 1 }] }),
      400,
      'parameter_invalid',
      {
        param: 'line_items[0][price_data]',
      },
    );
    expectError(await call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ unit_amount: 100, quantity: 1 }] }), 400, 'parameter_missing', {
      param: 'line_items[0][name]',
    });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(before);
  });

  it('applies discounts[] from the API: the server computes the breakdown, payment and events carry it', async () => {
    const off = await coupon({ percent_off: 15 });
    const code = await promotionCode({ code: 'TEA15', coupon: off.id });
    const session = await createSession(ctx, {
      currency: 'jpy',
      line_items: [
        { name: 'Sencha', unit_amount: 1980, quantity: 2 },
        { name: 'Whisk', unit_amount: 500, quantity: 1 },
      ],
      discounts: [{ promotion_code: code.id }],
    });
    // 15 % of 4460 yen = 669
    expect(session).toMatchObject({
      amount_subtotal: 4460,
      amount_total: 3791,
      total_details: { amount_discount: 669, amount_shipping: 0, amount_tax: 0 },
      discounts: [{ coupon: off.id, promotion_code: code.id }],
      allow_promotion_codes: false,
    });
    const paid = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
    expect(paid.statusCode, paid.body).toBe(200);
    const done = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    const payment = (await call('GET', `/v1/payments/${done.payment}`)).json();
    expect(payment).toMatchObject({ amount: 3791, currency: 'jpy', total_details: { amount_discount: 669, amount_shipping: 0, amount_tax: 0 } });
    expect(paymentSchema.parse(payment)).toEqual(payment);
    expect(checkoutSessionSchema.parse(done)).toEqual(done);
    const [charged] = await rows(ctx.db, 'SELECT amount_authorized FROM test_processor_transactions WHERE payment_id = $1', [payment.id]);
    expect(Number(charged!.amount_authorized)).toBe(3791);
    const events = (await call('GET', '/v1/events')).json().data;
    const completed = events.find((e: { type: string }) => e.type === 'checkout.session.completed');
    expect(completed.data.object.total_details).toEqual({ amount_discount: 669, amount_shipping: 0, amount_tax: 0 });
    const succeeded = events.find((e: { type: string }) => e.type === 'payment.succeeded');
    expect(succeeded.data.object.total_details).toEqual({ amount_discount: 669, amount_shipping: 0, amount_tax: 0 });
    expect((await call('GET', `/v1/promotion_codes/${code.id}`)).json()).toMatchObject({ times_redeemed: 1, coupon: { times_redeemed: 1 } });
  });

  it('refuses a discount that cannot apply, opening no session', async () => {
    const euros = await coupon({ amount_off: 500, currency: 'eur' });
    const percent = await coupon({ percent_off: 10 });
    const minimum = await promotionCode({ code: 'BIG', coupon: percent.id, restrictions: { minimum_amount: 100000, minimum_amount_currency: 'usd' } });
    const inactive = await promotionCode({ code: 'OFF', coupon: percent.id, active: false });
    const whole = await coupon({ percent_off: 100 });
    const before = await countRows(ctx.db, 'checkout_sessions');
    const open = (body: Record<string, unknown>) =>
      call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Tea', unit_amount: 3500, quantity: 1 }], ...body });
    expectError(await open({ discounts: [{ coupon: euros.id }] }), 400, 'parameter_invalid', { param: 'discounts' });
    expectError(await open({ discounts: [{ promotion_code: minimum.id }] }), 400, 'parameter_invalid', { param: 'discounts' });
    expectError(await open({ discounts: [{ promotion_code: inactive.id }] }), 400, 'parameter_invalid', { param: 'discounts' });
    expectError(await open({ discounts: [{ coupon: whole.id }] }), 400, 'amount_too_small', { param: 'discounts' });
    expectError(await open({ discounts: [{ coupon: 'coupon_nope' }] }), 404, 'resource_missing', { param: 'discounts[0][coupon]' });
    expectError(await open({ discounts: [{ coupon: percent.id, promotion_code: minimum.id }] }), 400, 'parameter_invalid', { param: 'discounts[0]' });
    expectError(await open({ allow_promotion_codes: true, discounts: [{ coupon: percent.id }] }), 400, 'parameter_invalid', { param: 'discounts' });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(before);
  });

  it('the shopper applies a code on the page, the server prices the session again; a wrong code changes nothing', async () => {
    const off = await coupon({ amount_off: 250, currency: 'kwd' });
    await promotionCode({ code: 'FILS250', coupon: off.id });
    const session = await createSession(ctx, { currency: 'kwd', line_items: [{ name: 'Dates', unit_amount: 1234, quantity: 3 }], allow_promotion_codes: true });
    expect(session.allow_promotion_codes).toBe(true);

    expectError(await applyCode(session.id, 'NOPE'), 400, 'parameter_invalid', { param: 'promotion_code' });
    const unchanged = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    expect(unchanged.amount_total).toBe(3702);

    const applied = await applyCode(session.id, 'fils250');
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({
      amount_subtotal: 3702,
      amount_total: 3452,
      total_details: { amount_discount: 250, amount_shipping: 0, amount_tax: 0 },
      discount: { code: 'FILS250', amount_off: 250, percent_off: null },
    });
    expect((await call('GET', `/v1/checkout/sessions/${session.id}`)).json()).toMatchObject({ amount_total: 3452, discounts: [{ coupon: off.id }] });

    const removed = await applyCode(session.id, null);
    expect(removed.json()).toMatchObject({ amount_total: 3702, discount: null });

    const closed = await createSession(ctx, { currency: 'kwd', line_items: [{ name: 'Dates', unit_amount: 1234, quantity: 1 }] });
    expectError(await applyCode(closed.id, 'FILS250'), 400, 'parameter_invalid', { param: 'promotion_code' });
    expect((await call('GET', `/v1/checkout/sessions/${closed.id}`)).json().amount_total).toBe(1234);
  });

  it('max_redemptions 1, eight shoppers paying at once on two instances: exactly one gets the discount', async () => {
    const off = await coupon({ percent_off: 20 });
    const code = await promotionCode({ code: 'ONLYONE', coupon: off.id, max_redemptions: 1 });
    const sessions = [];
    for (let i = 0; i < 8; i++) sessions.push(await createSession(ctx, { allow_promotion_codes: true }));
    for (const session of sessions) expect((await applyCode(session.id, 'ONLYONE')).statusCode).toBe(200);
    const nonces = await Promise.all(sessions.map((session) => tokenize(ctx.h, session.id)));
    const other = await openTillpoint({ db: ctx.db, publicUrl: PUBLIC_URL });
    const second = await buildHttpServer({ deps: other.deps, webRoot: '/nonexistent' });
    try {
      const answers = await Promise.all(
        sessions.map((session, i) =>
          (i % 2 ? second : ctx.h.app).inject({
            method: 'POST',
            url: `/api/checkout/sessions/${session.id}/payments`,
            payload: { payment_method_type: 'card', nonce: nonces[i], email: `shopper${i}@example.com` },
          }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      for (const refused of answers.filter((a) => a.statusCode !== 200)) {
        expectError(refused, 400, 'parameter_invalid', { param: 'promotion_code' });
      }
    } finally {
      await second.close();
    }
    expect(await rows(ctx.db, `SELECT count(*)::int AS n FROM payments`)).toEqual([{ n: 1 }]);
    expect(await rows(ctx.db, 'SELECT count(*)::int AS n FROM test_processor_transactions')).toEqual([{ n: 1 }]);
    expect((await call('GET', `/v1/promotion_codes/${code.id}`)).json()).toMatchObject({ times_redeemed: 1 });
    const late = await createSession(ctx, { allow_promotion_codes: true });
    expectError(await applyCode(late.id, 'ONLYONE'), 400, 'parameter_invalid', { param: 'promotion_code' });
  });

  it('a declined payment releases the redemption; a retry on the same session counts once', async () => {
    const off = await coupon({ amount_off: 100, currency: 'usd' });
    const code = await promotionCode({ code: 'ONCE', coupon: off.id, max_redemptions: 1 });
    // The test processor declines 2000.00–2999.99: 2100.00 less 1.00 is 2099.00.
    const declining = await createSession(ctx, { line_items: [{ name: 'Bike', unit_amount: 210000, quantity: 1 }], discounts: [{ promotion_code: code.id }] });
    expect(declining.amount_total).toBe(209900);
    const declined = await payCall(ctx.h, declining.id, await tokenize(ctx.h, declining.id));
    expect(declined.statusCode, declined.body).toBe(402);

    const other = await createSession(ctx, { line_items: [{ name: 'Bell', unit_amount: 1500, quantity: 1 }], discounts: [{ promotion_code: code.id }] });
    const paid = await payCall(ctx.h, other.id, await tokenize(ctx.h, other.id));
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await call('GET', `/v1/promotion_codes/${code.id}`)).json().times_redeemed).toBe(1);

    // The declined session may not take the code now that it is used up.
    const retried = await payCall(ctx.h, declining.id, await tokenize(ctx.h, declining.id));
    expectError(retried, 400, 'parameter_invalid', { param: 'promotion_code' });
    expect(await countRows(ctx.db, 'discount_redemptions')).toBe(2);
    expect((await call('GET', `/v1/coupons/${off.id}`)).json().times_redeemed).toBe(1);
  });

  it('a first-time-transaction code refuses an email that has paid before', async () => {
    const off = await coupon({ percent_off: 10 });
    const code = await promotionCode({ code: 'WELCOME', coupon: off.id, restrictions: { first_time_transaction: true } });
    const first = await createSession(ctx, {});
    expect((await payCall(ctx.h, first.id, await tokenize(ctx.h, first.id), 'returning@example.com')).statusCode).toBe(200);
    const session = await createSession(ctx, { discounts: [{ promotion_code: code.id }] });
    expectError(await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id), 'Returning@example.com'), 400, 'parameter_invalid', {
      param: 'promotion_code',
    });
    expect((await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id), 'new@example.com')).statusCode).toBe(200);
  });
});
