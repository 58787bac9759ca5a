import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { createSession, expectError, merchantCall, rows, tokenize, useIntegration } from '../support/integration';
import { dumpBusinessData } from '../support/payments';
import { checkoutSessionSchema, paymentSchema } from '../../src/http/response-schemas';

describe.each(testDatabases)('adjustable quantities, custom fields and embedded sessions ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);
  const setQuantity = (sessionId: string, index: number, quantity: unknown) =>
    ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/line_items/${index}/quantity`, payload: { quantity } });
  const pay = (sessionId: string, nonce: string, customFields?: Record<string, string | null>) =>
    ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${sessionId}/payments`,
      payload: { payment_method_type: 'card', nonce, email: 'shopper@example.com', ...(customFields ? { custom_fields: customFields } : {}) },
    });

  it('the shopper changes an adjustable quantity; the server prices the session again and charges the new total', async () => {
    const session = await createSession(ctx, {
      currency: 'eur',
      line_items: [
        { name: 'Beans', unit_amount: 1450, quantity: 2, adjustable_quantity: { enabled: true, minimum: 1, maximum: 5 } },
        { name: 'Papers', unit_amount: 600, quantity: 1 },
      ],
    });
    expect(session.line_items[0].adjustable_quantity).toEqual({ enabled: true, minimum: 1, maximum: 5 });
    expect(session.line_items[1].adjustable_quantity).toBeUndefined();
    expect(checkoutSessionSchema.parse(session)).toEqual(session);

    const changed = await setQuantity(session.id, 0, 4);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      amount_subtotal: 6400,
      amount_total: 6400,
      line_items: [{ quantity: 4, amount: 5800, adjustable_quantity: { minimum: 1, maximum: 5 } }, { quantity: 1 }],
    });

    // Out of bounds, a line that is not adjustable, a line that does not exist, not a whole number: nothing changes.
    const before = await dumpBusinessData(ctx.db);
    expectError(await setQuantity(session.id, 0, 6), 400, 'parameter_invalid', { param: 'quantity' });
    expectError(await setQuantity(session.id, 0, 0), 400, 'parameter_invalid', { param: 'quantity' });
    expectError(await setQuantity(session.id, 1, 2), 400, 'parameter_invalid', { param: 'quantity' });
    expectError(await setQuantity(session.id, 7, 2), 400, 'parameter_invalid', { param: 'line_item' });
    expectError(await setQuantity(session.id, 0, 2.5), 400, 'parameter_invalid', { param: 'quantity' });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);

    const paid = await pay(session.id, await tokenize(ctx.h, session.id));
    expect(paid.statusCode, paid.body).toBe(200);
    const done = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    expect(done).toMatchObject({ status: 'complete', amount_total: 6400 });
    const [charged] = await rows(ctx.db, 'SELECT amount_authorized FROM test_processor_transactions WHERE payment_id = $1', [done.payment]);
    expect(Number(charged!.amount_authorized)).toBe(6400);
    // A paid session's quantity is final.
    expectError(await setQuantity(session.id, 0, 2), 409, 'checkout_session_completed');
  });

  it("follows Stripe's defaults: down to 0 but never the last item, up to 99; refuses bad bounds at creation", async () => {
    const single = await createSession(ctx, { line_items: [{ name: 'Tea', unit_amount: 900, quantity: 3, adjustable_quantity: { enabled: true } }] });
    expect(single.line_items[0].adjustable_quantity).toEqual({ enabled: true, minimum: 0, maximum: 99 });
    expectError(await setQuantity(single.id, 0, 0), 400, 'parameter_invalid', { param: 'quantity' });
    expect((await setQuantity(single.id, 0, 99)).json().amount_total).toBe(89100);

    const pair = await createSession(ctx, {
      line_items: [
        { name: 'Tea', unit_amount: 900, quantity: 1, adjustable_quantity: { enabled: true } },
        { name: 'Cup', unit_amount: 400, quantity: 1 },
      ],
    });
    expect((await setQuantity(pair.id, 0, 0)).json()).toMatchObject({ amount_total: 400, line_items: [{ quantity: 0, amount: 0 }, { quantity: 1 }] });

    const before = await dumpBusinessData(ctx.db);
    const open = (item: Record<string, unknown>) =>
      call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Tea', unit_amount: 900, quantity: 2, ...item }] });
    expectError(await open({ adjustable_quantity: { enabled: true, minimum: 3 } }), 400, 'parameter_invalid', { param: 'line_items[0][quantity]' });
    expectError(await open({ quantity: 120, adjustable_quantity: { enabled: true } }), 400, 'parameter_invalid', { param: 'line_items[0][quantity]' });
    expectError(await open({ adjustable_quantity: { enabled: true, minimum: 5, maximum: 4 } }), 400, 'parameter_invalid', {
      param: 'line_items[0][adjustable_quantity][minimum]',
    });
    expectError(await open({ adjustable_quantity: { enabled: true, maximum: 1000 } }), 400, 'parameter_invalid', {
      param: 'line_items[0][adjustable_quantity][maximum]',
    });
    expectError(await open({ adjustable_quantity: { enabled: true, minimum: -1 } }), 400, 'parameter_invalid', {
      param: 'line_items[0][adjustable_quantity][minimum]',
    });
    expectError(await open({ adjustable_quantity: { enabled: false, maximum: 4 } }), 400, 'parameter_invalid', {
      param: 'line_items[0][adjustable_quantity][enabled]',
    });
    expectError(await open({ adjustable_quantity: { maximum: 4 } }), 400, 'parameter_missing', { param: 'line_items[0][adjustable_quantity][enabled]' });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);
  });

  const questions = [
    { key: 'giftmessage', label: { type: 'custom', custom: 'Gift message' }, type: 'text', optional: true, text: { maximum_length: 20 } },
    { key: 'vat', label: { type: 'custom', custom: 'VAT number' }, type: 'numeric', numeric: { minimum_length: 4, maximum_length: 8 } },
    {
      key: 'size',
      label: { type: 'custom', custom: 'Size' },
      type: 'dropdown',
      dropdown: {
        options: [
          { label: 'Small', value: 'S' },
          { label: 'Large', value: 'L' },
        ],
      },
    },
  ];

  it('custom fields: answers checked on the server, nothing recorded until they are valid, shown on the session and payment', async () => {
    const session = await createSession(ctx, { custom_fields: questions });
    expect(session.custom_fields).toEqual([
      {
        key: 'giftmessage',
        label: { type: 'custom', custom: 'Gift message' },
        type: 'text',
        optional: true,
        text: { minimum_length: null, maximum_length: 20, value: null },
      },
      {
        key: 'vat',
        label: { type: 'custom', custom: 'VAT number' },
        type: 'numeric',
        optional: false,
        numeric: { minimum_length: 4, maximum_length: 8, value: null },
      },
      {
        key: 'size',
        label: { type: 'custom', custom: 'Size' },
        type: 'dropdown',
        optional: false,
        dropdown: {
          options: [
            { label: 'Small', value: 'S' },
            { label: 'Large', value: 'L' },
          ],
          value: null,
        },
      },
    ]);
    expect(checkoutSessionSchema.parse(session)).toEqual(session);
    const page = (await ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${session.id}` })).json();
    expect(page.custom_fields.map((f: { key: string }) => f.key)).toEqual(['giftmessage', 'vat', 'size']);

    const nonce = await tokenize(ctx.h, session.id);
    const before = await dumpBusinessData(ctx.db);
    expectError(await pay(session.id, nonce), 400, 'parameter_missing', { param: 'custom_fields[vat]' });
    expectError(await pay(session.id, nonce, { vat: '12AB', size: 'S' }), 400, 'parameter_invalid', { param: 'custom_fields[vat]' });
    expectError(await pay(session.id, nonce, { vat: '123', size: 'S' }), 400, 'parameter_invalid', { param: 'custom_fields[vat]' });
    expectError(await pay(session.id, nonce, { vat: '1234', size: 'M' }), 400, 'parameter_invalid', { param: 'custom_fields[size]' });
    expectError(await pay(session.id, nonce, { vat: '1234', size: 'S', giftmessage: 'x'.repeat(21) }), 400, 'parameter_invalid', {
      param: 'custom_fields[giftmessage]',
    });
    expectError(await pay(session.id, nonce, { vat: '1234', size: 'S', colour: 'red' }), 400, 'parameter_invalid', { param: 'custom_fields[colour]' });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);

    const paid = await pay(session.id, nonce, { vat: '98765', size: 'L', giftmessage: ' Happy birthday ' });
    expect(paid.statusCode, paid.body).toBe(200);
    const done = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    expect(done.custom_fields.map((f: Record<string, any>) => f.text?.value ?? f.numeric?.value ?? f.dropdown?.value)).toEqual([
      'Happy birthday',
      '98765',
      'L',
    ]);
    const payment = (await call('GET', `/v1/payments/${done.payment}`)).json();
    expect(payment.custom_fields).toEqual(done.custom_fields);
    expect(paymentSchema.parse(payment)).toEqual(payment);
  });

  it('refuses bad custom fields at creation, opening no session', async () => {
    const before = await dumpBusinessData(ctx.db);
    const open = (custom_fields: unknown) =>
      call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Tea', unit_amount: 900, quantity: 1 }], custom_fields });
    const text = (extra: Record<string, unknown>) => ({ key: 'note', label: { type: 'custom', custom: 'Note' }, type: 'text', ...extra });
    expectError(await open([...questions, text({})]), 400, 'parameter_invalid', { param: 'custom_fields' });
    expectError(await open([text({}), text({})]), 400, 'parameter_invalid', { param: 'custom_fields[1][key]' });
    expectError(await open([text({ key: 'gift-message' })]), 400, 'parameter_invalid', { param: 'custom_fields[0][key]' });
    expectError(await open([text({ label: { type: 'custom', custom: ' ' } })]), 400, 'parameter_invalid', { param: 'custom_fields[0][label][custom]' });
    expectError(await open([text({ text: { minimum_length: 10, maximum_length: 5 } })]), 400, 'parameter_invalid', {
      param: 'custom_fields[0][text][minimum_length]',
    });
    expectError(await open([text({ text: { maximum_length: 256 } })]), 400, 'parameter_invalid', { param: 'custom_fields[0][text][maximum_length]' });
    expectError(await open([text({ type: 'dropdown' })]), 400, 'parameter_invalid', { param: 'custom_fields[0][dropdown][options]' });
    expectError(await open([text({ numeric: { maximum_length: 3 } })]), 400, 'parameter_invalid', { param: 'custom_fields[0][numeric]' });
    expectError(await open([text({ type: 'date' })]), 400, 'parameter_invalid', { param: 'custom_fields[0][type]' });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);
  });

  it('ui_mode embedded answers a client_secret and needs return_url instead of success_url', async () => {
    const hosted = await createSession(ctx);
    expect(hosted).toMatchObject({ ui_mode: 'hosted', client_secret: null, return_url: null });
    const embedded = await createSession(ctx, { ui_mode: 'embedded', return_url: 'https://shop.example/return?session_id={CHECKOUT_SESSION_ID}' });
    expect(embedded).toMatchObject({ ui_mode: 'embedded', return_url: 'https://shop.example/return?session_id={CHECKOUT_SESSION_ID}', success_url: null });
    expect(embedded.client_secret).toMatch(new RegExp(`^${embedded.id}_secret_[A-Za-z0-9]{24}$`));
    expect(checkoutSessionSchema.parse(embedded)).toEqual(embedded);
    expect((await call('GET', `/v1/checkout/sessions/${embedded.id}`)).json().client_secret).toBe(embedded.client_secret);

    const before = await dumpBusinessData(ctx.db);
    const open = (body: Record<string, unknown>) =>
      call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Tea', unit_amount: 900, quantity: 1 }], ...body });
    expectError(await open({ ui_mode: 'embedded' }), 400, 'parameter_missing', { param: 'return_url' });
    expectError(await open({ ui_mode: 'embedded', return_url: 'https://shop.example/r', success_url: 'https://shop.example/s' }), 400, 'parameter_invalid', {
      param: 'success_url',
    });
    expectError(await open({ ui_mode: 'embedded', return_url: 'javascript:alert(1)' }), 400, 'parameter_invalid', { param: 'return_url' });
    expectError(await open({ return_url: 'https://shop.example/r' }), 400, 'parameter_invalid', { param: 'return_url' });
    expectError(await open({ ui_mode: 'iframe', return_url: 'https://shop.example/r' }), 400, 'parameter_invalid', { param: 'ui_mode' });
    expect(await dumpBusinessData(ctx.db)).toEqual(before);
  });

  it('guessing promotion codes meets rate_limited after 5 wrong codes on a session, until the window passes', async () => {
    const coupon = (await call('POST', '/v1/coupons', { percent_off: 10 })).json();
    expect((await call('POST', '/v1/promotion_codes', { code: 'REAL10', coupon: coupon.id })).statusCode).toBe(200);
    const session = await createSession(ctx, { allow_promotion_codes: true });
    const other = await createSession(ctx, { allow_promotion_codes: true });
    const apply = (id: string, code: string) => ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${id}/promotion_code`, payload: { code } });
    for (let i = 0; i < 5; i++) expectError(await apply(session.id, `GUESS${i}`), 400, 'parameter_invalid', { param: 'promotion_code' });
    // The sixth try is refused before it is looked at, even the right code: nothing changes.
    const limited = await apply(session.id, 'REAL10');
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call('GET', `/v1/checkout/sessions/${session.id}`)).json()).toMatchObject({ amount_total: 3500, discounts: [] });
    // Another session of the same shopper still takes its code.
    expect((await apply(other.id, 'REAL10')).json()).toMatchObject({ amount_total: 3150 });
    ctx.h.clock.advance(10 * 60 * 1000 + 1000);
    const applied = await apply(session.id, 'REAL10');
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ amount_total: 3150 });
  });
});
