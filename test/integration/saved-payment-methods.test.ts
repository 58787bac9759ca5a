import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { countRows, createSession, expectError, merchantCall, rows, tokenize, useIntegration } from '../support/integration';
import { Tillpoint } from '../../sdk/node/src/index';

describe.each(testDatabases)('saved payment methods with the test processor ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);
  const pay = (sessionId: string, payload: Record<string, unknown>) =>
    ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${sessionId}/payments`,
      payload: { payment_method_type: 'card', email: 'ada@example.com', ...payload },
    });
  const methodsOf = async (customerId: string) => {
    const res = await call('GET', `/v1/customers/${customerId}/payment_methods`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Array<Record<string, any>>;
  };
  const eventTypes = async (type: string) =>
    (await rows(ctx.db, 'SELECT object_id FROM events WHERE type = $1 ORDER BY created_at, id', [type])).map((r) => r.object_id);

  async function customer() {
    const res = await call('POST', '/v1/customers', { email: 'ada@example.com' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  it('save "on" vaults the card on pay: the method lists with brand, last4, expiry, and fires payment_method.attached', async () => {
    const ada = await customer();
    const session = await createSession(ctx, { customer: ada.id, payment_method_options: { card: { save: 'on' } } });
    expect(session.payment_method_options).toEqual({ card: { save: 'on', require_cvc_recollection: false } });
    const paid = await pay(session.id, {
      nonce: await tokenize(ctx.h, session.id, { number: '5555 5555 5555 4444', exp_month: 7, exp_year: 2031, cvc: '321' }),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [method, ...others] = await methodsOf(ada.id);
    expect(others).toEqual([]);
    expect(method).toMatchObject({
      object: 'payment_method',
      customer: ada.id,
      type: 'card',
      card: { brand: 'mastercard', last4: '4444', exp_month: 7, exp_year: 2031 },
      processor: 'test',
    });
    expect(method!.id).toMatch(/^pm_/);
    expect(await eventTypes('payment_method.attached')).toEqual([method!.id]);
    // Neither the number nor the CVC is anywhere in the database.
    const dump = JSON.stringify(
      await rows(ctx.db, `SELECT row_to_json(p)::text AS j FROM payment_methods p UNION ALL SELECT row_to_json(t)::text FROM test_saved_cards t`),
    );
    expect(dump).not.toContain('5555555555554444');
    expect(dump).not.toContain('"321"');
  });

  it('shopper_choice saves only with the consent; a session without a customer makes one to save to', async () => {
    const refused = await createSession(ctx, { customer_email: 'ada@example.com', payment_method_options: { card: { save: 'shopper_choice' } } });
    expect((await pay(refused.id, { nonce: await tokenize(ctx.h, refused.id), save_payment_method: false })).statusCode).toBe(200);
    expect((await call('GET', `/v1/checkout/sessions/${refused.id}`)).json().customer).toBeNull();
    expect(await countRows(ctx.db, 'payment_methods')).toBe(0);

    const consented = await createSession(ctx, { customer_email: 'ada@example.com', payment_method_options: { card: { save: 'shopper_choice' } } });
    expect((await pay(consented.id, { nonce: await tokenize(ctx.h, consented.id), save_payment_method: true })).statusCode).toBe(200);
    const after = (await call('GET', `/v1/checkout/sessions/${consented.id}`)).json();
    expect(after.customer).toMatch(/^cus_/);
    expect((await call('GET', `/v1/payments/${after.payment}`)).json().customer).toBe(after.customer);
    expect((await methodsOf(after.customer)).map((m) => m.card.last4)).toEqual(['1111']);

    // Without save options, consent sent anyway saves nothing.
    const plain = await createSession(ctx, {});
    expect((await pay(plain.id, { nonce: await tokenize(ctx.h, plain.id), save_payment_method: true })).statusCode).toBe(200);
    expect(await countRows(ctx.db, 'payment_methods')).toBe(1);
  });

  it('a declined payment saves no card, and removes the one it vaulted at the processor', async () => {
    const ada = await customer();
    const session = await createSession(ctx, {
      customer: ada.id,
      payment_method_options: { card: { save: 'on' } },
      line_items: [{ name: 'Big', unit_amount: 200_100, quantity: 1 }],
    });
    const declined = await pay(session.id, { nonce: await tokenize(ctx.h, session.id) });
    expectError(declined, 402, 'card_declined', { decline_code: 'insufficient_funds' });
    expect(await methodsOf(ada.id)).toEqual([]);
    expect(await countRows(ctx.db, 'test_saved_cards')).toBe(0);

    const always = await createSession(ctx, { customer: ada.id, payment_method_options: { card: { save: 'on' } } });
    expectError(
      await pay(always.id, { nonce: await tokenize(ctx.h, always.id, { number: '4000 1111 1111 1115', exp_month: 12, exp_year: 2034, cvc: '123' }) }),
      402,
      'card_declined',
      { decline_code: 'do_not_honor' },
    );
    expect(await countRows(ctx.db, 'payment_methods')).toBe(0);
  });

  it('a later session for the customer pays with the saved card in one tap; another customer cannot use it', async () => {
    const ada = await customer();
    const first = await createSession(ctx, { customer: ada.id, payment_method_options: { card: { save: 'on' } } });
    expect((await pay(first.id, { nonce: await tokenize(ctx.h, first.id) })).statusCode).toBe(200);
    const [method] = await methodsOf(ada.id);

    const later = await createSession(ctx, { customer: ada.id });
    const view = (await ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${later.id}` })).json();
    expect(view.saved_payment_methods).toEqual([{ id: method!.id, brand: 'visa', last4: '1111', exp_month: 12, exp_year: 2034 }]);
    const oneTap = await pay(later.id, { payment_method: method!.id });
    expect(oneTap.statusCode, oneTap.body).toBe(200);
    const paid = (await call('GET', `/v1/checkout/sessions/${later.id}`)).json();
    const payment = (await call('GET', `/v1/payments/${paid.payment}`)).json();
    expect(payment).toMatchObject({ status: 'succeeded', amount: 3500, customer: ada.id, payment_method: { brand: 'visa', last4: '1111' } });
    // Saving again is not asked for: still one method.
    expect(await methodsOf(ada.id)).toHaveLength(1);

    const grace = (await call('POST', '/v1/customers', { email: 'grace@example.com' })).json();
    const hers = await createSession(ctx, { customer: grace.id });
    expect((await ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${hers.id}` })).json().saved_payment_methods).toEqual([]);
    expectError(await pay(hers.id, { payment_method: method!.id }), 404, 'resource_missing', { param: 'payment_method' });
    const anonymous = await createSession(ctx, {});
    expectError(await pay(anonymous.id, { payment_method: method!.id }), 404, 'resource_missing', { param: 'payment_method' });
    expectError(await pay(anonymous.id, {}), 400, 'parameter_missing', { param: 'nonce' });
    expect(await countRows(ctx.db, 'payments')).toBe(2);
  });

  it("require_cvc_recollection asks the saved card's CVC again: refused without it, declined when it does not match (200), paid when it does", async () => {
    const ada = await customer();
    const first = await createSession(ctx, { customer: ada.id, payment_method_options: { card: { save: 'on' } } });
    expect((await pay(first.id, { nonce: await tokenize(ctx.h, first.id) })).statusCode).toBe(200);
    const [method] = await methodsOf(ada.id);
    const cvcToken = (sessionId: string, cvc: string) =>
      ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/cvc-tokens`, payload: { payment_method: method!.id, cvc } });
    const nonceFor = async (sessionId: string, cvc: string) => {
      const res = await cvcToken(sessionId, cvc);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().nonce as string;
    };

    // A session without the option keeps the one tap; its view says no CVC is asked.
    const plain = await createSession(ctx, { customer: ada.id });
    expect((await ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${plain.id}` })).json().saved_card_cvc_required).toBe(false);

    const later = await createSession(ctx, { customer: ada.id, payment_method_options: { card: { require_cvc_recollection: true } } });
    expect(later.payment_method_options).toEqual({ card: { save: null, require_cvc_recollection: true } });
    expect((await ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${later.id}` })).json().saved_card_cvc_required).toBe(true);
    const before = await countRows(ctx.db, 'payments');
    expectError(await pay(later.id, { payment_method: method!.id }), 400, 'parameter_missing', { param: 'cvc' });
    expect(await countRows(ctx.db, 'payments')).toBe(before);

    // The CVC's length follows the card (a Visa has 3 digits); another customer's session cannot use the card.
    expectError(await cvcToken(later.id, '1234'), 400, 'parameter_invalid', { param: 'cvc' });
    const grace = (await call('POST', '/v1/customers', { email: 'grace@example.com' })).json();
    const hers = await createSession(ctx, { customer: grace.id, payment_method_options: { card: { require_cvc_recollection: true } } });
    expectError(await cvcToken(hers.id, '123'), 404, 'resource_missing', { param: 'payment_method' });

    // 200 does not match: declined as Braintree's CVV rules decline it; the session stays payable.
    expectError(await pay(later.id, { payment_method: method!.id, nonce: await nonceFor(later.id, '200') }), 402, 'card_declined', {
      decline_code: 'incorrect_cvc',
    });
    const right = await nonceFor(later.id, '123');
    const paid = await pay(later.id, { payment_method: method!.id, nonce: right });
    expect(paid.statusCode, paid.body).toBe(200);
    const payment = (await call('GET', `/v1/payments/${(await call('GET', `/v1/checkout/sessions/${later.id}`)).json().payment}`)).json();
    expect(payment).toMatchObject({ status: 'succeeded', customer: ada.id, payment_method: { brand: 'visa', last4: '1111' } });
    // A CVC-only nonce pays nothing on its own.
    const other = await createSession(ctx, { customer: ada.id });
    expectError(await pay(other.id, { nonce: await nonceFor(other.id, '123') }), 400, 'parameter_invalid', { param: 'payment_method' });
    // The CVC is kept nowhere.
    const dump = JSON.stringify(await rows(ctx.db, `SELECT row_to_json(n)::text AS j FROM test_card_nonces n`));
    expect(dump).not.toMatch(/"(?:123|200)"/);
  });

  it('DELETE /v1/payment_methods/:id removes it here and at the processor; a deleted customer takes its methods along', async () => {
    const ada = await customer();
    for (const number of ['4111 1111 1111 1111', '5555 5555 5555 4444']) {
      const session = await createSession(ctx, { customer: ada.id, payment_method_options: { card: { save: 'on' } } });
      expect((await pay(session.id, { nonce: await tokenize(ctx.h, session.id, { number, exp_month: 12, exp_year: 2034, cvc: '123' }) })).statusCode).toBe(200);
      ctx.h.clock.advance(1000);
    }
    const [mastercard, visa] = await methodsOf(ada.id);
    expect([mastercard!.card.brand, visa!.card.brand]).toEqual(['mastercard', 'visa']);
    expect(await countRows(ctx.db, 'test_saved_cards')).toBe(2);

    const deleted = await call('DELETE', `/v1/payment_methods/${visa!.id}`);
    expect(deleted.json()).toEqual({ id: visa!.id, object: 'payment_method', deleted: true });
    expect((await methodsOf(ada.id)).map((m) => m.id)).toEqual([mastercard!.id]);
    expect(await countRows(ctx.db, 'test_saved_cards')).toBe(1);
    expectError(await call('DELETE', `/v1/payment_methods/${visa!.id}`), 404, 'resource_missing', { param: 'id' });

    ctx.h.clock.advance(1000);
    expect((await call('DELETE', `/v1/customers/${ada.id}`)).statusCode).toBe(200);
    expect(await countRows(ctx.db, 'payment_methods')).toBe(0);
    expect(await countRows(ctx.db, 'test_saved_cards')).toBe(0);
    expect(await eventTypes('payment_method.detached')).toEqual([visa!.id, mastercard!.id]);
    expectError(await call('GET', `/v1/customers/${ada.id}/payment_methods`), 404, 'resource_missing', { param: 'id' });
    // The payments stay, detached.
    const payments = await rows(ctx.db, 'SELECT customer_id, status FROM payments');
    expect(payments).toEqual([
      { customer_id: null, status: 'succeeded' },
      { customer_id: null, status: 'succeeded' },
    ]);
  });

  describe('through the SDK', () => {
    let baseUrl: string;
    beforeAll(async () => {
      await ctx.h.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(ctx.h.app.server.address() as AddressInfo).port}`;
    });

    it('tp.paymentMethods lists and deletes', async () => {
      const tp = new Tillpoint(ctx.key, { baseUrl, initialRetryDelayMs: 10 });
      const ada = await tp.customers.create({ email: 'ada@example.com' });
      const session = await tp.checkout.sessions.create({
        currency: 'usd',
        line_items: [{ name: 'Beans', unit_amount: 1650, quantity: 1 }],
        customer: ada.id,
        payment_method_options: { card: { save: 'on' } },
      });
      expect((await pay(session.id, { nonce: await tokenize(ctx.h, session.id) })).statusCode).toBe(200);
      const listed = await tp.paymentMethods.list(ada.id);
      expect(listed.data.map((m) => m.card?.last4)).toEqual(['1111']);
      expect(await tp.paymentMethods.del(listed.data[0]!.id)).toMatchObject({ deleted: true });
      expect((await tp.paymentMethods.list(ada.id)).data).toEqual([]);
    });
  });
});
