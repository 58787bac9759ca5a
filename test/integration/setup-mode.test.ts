import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { countRows, dumpDatabase, expectError, merchantCall, rows, tokenize, useIntegration, withoutBookkeeping } from '../support/integration';

describe.each(testDatabases)('setup mode: saving a card without charging ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);
  const openSetup = async (extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/v1/checkout/sessions', { mode: 'setup', ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const save = (sessionId: string, payload: Record<string, unknown>) =>
    ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${sessionId}/payments`,
      payload: { payment_method_type: 'card', email: 'ada@example.com', ...payload },
    });
  const eventTypes = async () => (await rows(ctx.db, 'SELECT type FROM events ORDER BY created_at, id')).map((r) => r.type);

  it('a setup session for a customer saves the card on the page, charges nothing, and answers the setup result', async () => {
    const ada = (await call('POST', '/v1/customers', { email: 'ada@example.com' })).json();
    const session = await openSetup({ customer: ada.id, success_url: 'https://shop.example/saved?cs={CHECKOUT_SESSION_ID}' });
    expect(session).toMatchObject({
      mode: 'setup',
      status: 'open',
      currency: 'usd',
      line_items: [],
      amount_total: 0,
      payment_method_types: ['card'],
      customer: ada.id,
      setup_intent: null,
    });

    const view = (await ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${session.id}` })).json();
    expect(view).toMatchObject({ mode: 'setup', amount_total: 0, saved_payment_methods: [] });

    const saved = await save(session.id, {
      nonce: await tokenize(ctx.h, session.id, { number: '5555 5555 5555 4444', exp_month: 7, exp_year: 2031, cvc: '321' }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ status: 'succeeded', redirect_url: `https://shop.example/saved?cs=${session.id}` });

    const [method] = (await call('GET', `/v1/customers/${ada.id}/payment_methods`)).json().data;
    expect(method).toMatchObject({ customer: ada.id, card: { brand: 'mastercard', last4: '4444', exp_month: 7, exp_year: 2031 }, processor: 'test' });
    const after = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    expect(after).toMatchObject({
      status: 'complete',
      payment: null,
      setup_intent: { object: 'setup_intent', status: 'succeeded', customer: ada.id, payment_method: method.id },
    });
    expect(await countRows(ctx.db, 'payments')).toBe(0);
    expect(await countRows(ctx.db, 'test_processor_transactions')).toBe(0);
    expect((await eventTypes()).sort()).toEqual(['checkout.session.completed', 'customer.created', 'payment_method.attached']);
    const [completed] = await rows(ctx.db, "SELECT data FROM events WHERE type = 'checkout.session.completed'");
    expect(completed!.data.setup_intent).toEqual(after.setup_intent);

    // The card is then charged from the server, and the session refuses a second save.
    const charged = await call('POST', '/v1/payments', { customer: ada.id, payment_method: method.id, amount: 900, currency: 'usd' });
    expect(charged.json()).toMatchObject({ status: 'succeeded', payment_method: { last4: '4444' } });
    expectError(await save(session.id, { nonce: 'fake-valid-nonce' }), 409, 'checkout_session_completed');
    expect(await countRows(ctx.db, 'payment_methods')).toBe(1);
  });

  it('without a customer, the shopper becomes one by their email; a declined card saves nothing and the session stays open', async () => {
    const session = await openSetup({ currency: 'eur', customer_email: 'ada@example.com' });
    expect(session).toMatchObject({ mode: 'setup', currency: 'eur', customer: null, customer_email: 'ada@example.com' });

    const declined = await save(session.id, {
      nonce: await tokenize(ctx.h, session.id, { number: '4000 1111 1111 1115', exp_month: 12, exp_year: 2034, cvc: '123' }),
    });
    expectError(declined, 402, 'card_declined', { decline_code: 'do_not_honor' });
    expect(await countRows(ctx.db, 'payment_methods')).toBe(0);
    expect(await countRows(ctx.db, 'test_saved_cards')).toBe(0);
    expect((await call('GET', `/v1/checkout/sessions/${session.id}`)).json()).toMatchObject({ status: 'open', setup_intent: null });

    expect((await save(session.id, { nonce: await tokenize(ctx.h, session.id) })).statusCode).toBe(200);
    const after = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    expect(after.customer).toMatch(/^cus_/);
    expect((await call('GET', `/v1/customers/${after.customer}`)).json()).toMatchObject({ email: 'ada@example.com' });
    expect(after.setup_intent).toMatchObject({ customer: after.customer, payment_method: expect.stringMatching(/^pm_/) });
  });

  it('refuses what a setup session cannot have, and a saved card or a wallet on its page, changing nothing', async () => {
    const before = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(
      await call('POST', '/v1/checkout/sessions', { mode: 'setup', line_items: [{ name: 'Beans', unit_amount: 100, quantity: 1 }] }),
      400,
      'parameter_invalid',
      { param: 'line_items' },
    );
    expectError(await call('POST', '/v1/checkout/sessions', { mode: 'setup', capture_method: 'manual' }), 400, 'parameter_invalid', {
      param: 'capture_method',
    });
    expectError(await call('POST', '/v1/checkout/sessions', { mode: 'setup', payment_method_types: ['card', 'google_pay'] }), 400, 'parameter_invalid', {
      param: 'payment_method_types',
    });
    expectError(await call('POST', '/v1/checkout/sessions', { mode: 'setup', payment_method_options: { card: { save: 'on' } } }), 400, 'parameter_invalid', {
      param: 'payment_method_options',
    });
    expectError(await call('POST', '/v1/checkout/sessions', { mode: 'setup', currency: 'xyz' }), 400, 'currency_not_supported', { param: 'currency' });
    expectError(await call('POST', '/v1/checkout/sessions', { mode: 'subscription' }), 400, 'parameter_missing', { param: 'line_items' });
    // Payment mode still needs its currency and items.
    expectError(await call('POST', '/v1/checkout/sessions', { line_items: [{ name: 'Beans', unit_amount: 100, quantity: 1 }] }), 400, 'parameter_missing', {
      param: 'currency',
    });
    expectError(await call('POST', '/v1/checkout/sessions', { currency: 'usd' }), 400, 'parameter_missing', { param: 'line_items' });
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before);

    const session = await openSetup({ customer_email: 'ada@example.com' });
    const unchanged = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(await save(session.id, { payment_method: 'pm_anything' }), 400, 'parameter_invalid', { param: 'payment_method' });
    expectError(await save(session.id, { payment_method_type: 'google_pay', nonce: 'fake-android-pay-visa-nonce' }), 400, 'parameter_invalid', {
      param: 'payment_method_type',
    });
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(unchanged);
  });
});
