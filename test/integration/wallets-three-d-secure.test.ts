import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { createSession, expectError, merchantCall, rows, testCard, tokenize, useIntegration, type IntegrationContext } from '../support/integration';

/**
 * Apple Pay, PayPal and Venmo through the session API, the shopper's pay endpoint and the test
 * processor's Braintree test nonces; 3-D Secure rehearsed in test mode with the test processor's
 * 3-D Secure test cards, as the checkout page runs it.
 */
describe.each(testDatabases)('wallets and 3-D Secure in test mode ($name)', (database) => {
  const ctx = useIntegration(database);

  const allMethods = ['card', 'google_pay', 'apple_pay', 'paypal', 'venmo'];
  const pay = (sessionId: string, body: Record<string, unknown>) =>
    ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/payments`, payload: { email: 'shopper@example.com', ...body } });
  const setFlag = async (c: IntegrationContext, key: string, value: unknown) => {
    const res = await merchantCall(c.h, c.key, 'POST', `/v1/flags/${key}`, { value });
    expect(res.statusCode, res.body).toBe(200);
  };
  const verify = (sessionId: string, nonce: string) =>
    ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/three-d-secure`, payload: { nonce } });
  const answer = (sessionId: string, nonce: string, passed: boolean) =>
    ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/three-d-secure/challenge`, payload: { nonce, passed } });
  const paymentOf = async (sessionId: string) => {
    const list = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments?checkout_session=${sessionId}`);
    return list.json().data[0];
  };

  it('a session takes every payment method type and refuses an unknown one, changing nothing', async () => {
    const session = await createSession(ctx, { payment_method_types: allMethods });
    expect(session.payment_method_types).toEqual(allMethods);
    const before = await rows(ctx.db, 'SELECT id FROM checkout_sessions');
    expectError(
      await merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', { ...sessionBody(), payment_method_types: ['card', 'klarna'] }),
      400,
      'parameter_invalid',
      { param: 'payment_method_types[1]' },
    );
    expect(await rows(ctx.db, 'SELECT id FROM checkout_sessions')).toEqual(before);
  });

  it.each([
    ['apple_pay', 'fake-apple-pay-visa-nonce', { type: 'apple_pay', brand: 'visa', last4: '1881', payer_email: null, username: null }],
    ['apple_pay', 'fake-apple-pay-mastercard-nonce', { type: 'apple_pay', brand: 'mastercard', last4: '4444' }],
    ['paypal', 'fake-paypal-one-time-nonce', { type: 'paypal', brand: null, last4: null, payer_email: 'payer@example.com', username: null }],
    ['venmo', 'fake-venmo-account-nonce', { type: 'venmo', brand: null, last4: null, payer_email: null, username: 'venmojoe' }],
  ])('%s pays with %s: the payment and its webhook event say what the wallet revealed', async (type, nonce, method) => {
    const session = await createSession(ctx, { payment_method_types: allMethods });
    const paid = await pay(session.id, { payment_method_type: type, nonce });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().status).toBe('succeeded');
    const payment = await paymentOf(session.id);
    expect(payment).toMatchObject({ status: 'succeeded', payment_method: method });
    const [event] = await rows(ctx.db, `SELECT data FROM events WHERE object_id = $1 AND type = 'payment.succeeded'`, [payment.id]);
    expect(event!.data.payment_method).toMatchObject(method);
  });

  it('refuses a wallet the session does not offer, or one whose kill switch is off, and a nonce of another method; nothing is charged', async () => {
    const cardOnly = await createSession(ctx, { payment_method_types: ['card'] });
    expectError(await pay(cardOnly.id, { payment_method_type: 'paypal', nonce: 'fake-paypal-one-time-nonce' }), 400, 'parameter_invalid', {
      param: 'payment_method_type',
    });

    const session = await createSession(ctx, { payment_method_types: allMethods });
    for (const [flag, type, nonce] of [
      ['apple_pay_enabled', 'apple_pay', 'fake-apple-pay-visa-nonce'],
      ['paypal_enabled', 'paypal', 'fake-paypal-one-time-nonce'],
      ['venmo_enabled', 'venmo', 'fake-venmo-account-nonce'],
    ] as const) {
      await setFlag(ctx, flag, false);
      expectError(await pay(session.id, { payment_method_type: type, nonce }), 400, 'parameter_invalid', { param: 'payment_method_type' });
      await setFlag(ctx, flag, true);
    }
    // A PayPal nonce sent as Venmo: the processor refuses it as a payment method.
    expectError(await pay(session.id, { payment_method_type: 'venmo', nonce: 'fake-paypal-one-time-nonce' }), 400, 'parameter_invalid', {
      param: 'payment_method',
    });
    expect(
      await rows(ctx.db, `SELECT status FROM payments WHERE checkout_session_id = $1 AND status IN ('succeeded', 'requires_capture')`, [session.id]),
    ).toEqual([]);
    expect(await rows(ctx.db, 'SELECT id FROM test_processor_transactions')).toEqual([]);

    // Switched back on, the same wallet pays.
    const paid = await pay(session.id, { payment_method_type: 'venmo', nonce: 'fake-venmo-account-nonce' });
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('the checkout page data and the flags list carry the wallets and their kill switches', async () => {
    const flags = (await merchantCall(ctx.h, ctx.key, 'GET', '/v1/flags')).json().data.map((f: { key: string }) => f.key);
    expect(flags).toEqual(expect.arrayContaining(['apple_pay_enabled', 'paypal_enabled', 'venmo_enabled']));
    const session = await createSession(ctx, { payment_method_types: ['paypal', 'venmo'] });
    const shopper = await ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${session.id}` });
    expect(shopper.json().payment_method_types).toEqual(['paypal', 'venmo']);
  });

  describe('3-D Secure with the test processor', () => {
    const card = (number: string) => ({ ...testCard, number });

    it('frictionless (4000000000002701): verified without a challenge, paid with liability shifted', async () => {
      await setFlag(ctx, 'three_d_secure', 'always');
      const session = await createSession(ctx);
      const verified = await verify(session.id, await tokenize(ctx.h, session.id, card('4000000000002701')));
      expect(verified.statusCode, verified.body).toBe(200);
      expect(verified.json()).toMatchObject({ status: 'authenticate_successful', liability_shifted: true, challenge: false });
      expect((await pay(session.id, { payment_method_type: 'card', nonce: verified.json().nonce })).statusCode).toBe(200);
      expect(await paymentOf(session.id)).toMatchObject({
        status: 'succeeded',
        three_d_secure: { status: 'authenticate_successful', liability_shifted: true },
      });
    });

    it('challenge (4000000000002503): passed pays; failed is declined authentication_failed and charges nothing', async () => {
      await setFlag(ctx, 'three_d_secure', 'always');
      const passedSession = await createSession(ctx);
      const lookup = (await verify(passedSession.id, await tokenize(ctx.h, passedSession.id, card('4000000000002503')))).json();
      expect(lookup).toMatchObject({ status: 'challenge_required', challenge: true });
      const passed = await answer(passedSession.id, lookup.nonce, true);
      expect(passed.json()).toMatchObject({ status: 'authenticate_successful', liability_shifted: true, challenge: false });
      expect((await pay(passedSession.id, { payment_method_type: 'card', nonce: passed.json().nonce })).statusCode).toBe(200);

      const failedSession = await createSession(ctx);
      const second = (await verify(failedSession.id, await tokenize(ctx.h, failedSession.id, card('4000000000002503')))).json();
      const failed = (await answer(failedSession.id, second.nonce, false)).json();
      expect(failed).toMatchObject({ status: 'authenticate_failed', liability_shifted: false, liability_shift_possible: true });
      // The challenge was answered once: again, refused.
      expectError(await answer(failedSession.id, second.nonce, true), 400, 'parameter_invalid', { param: 'nonce' });
      expectError(await pay(failedSession.id, { payment_method_type: 'card', nonce: failed.nonce }), 402, 'card_declined', {
        decline_code: 'authentication_failed',
      });
      expect(await paymentOf(failedSession.id)).toMatchObject({
        status: 'failed',
        amount_captured: 0,
        three_d_secure: { status: 'authenticate_failed', liability_shifted: false },
      });
    });

    it('failed authentication (4000000000002925) and unavailable (4000000000002313) are declined when 3-D Secure is required', async () => {
      await setFlag(ctx, 'three_d_secure', 'always');
      for (const [number, status] of [
        ['4000000000002925', 'authenticate_frictionless_failed'],
        ['4000000000002313', 'authenticate_unable_to_authenticate'],
      ]) {
        const session = await createSession(ctx);
        const verified = (await verify(session.id, await tokenize(ctx.h, session.id, card(number!)))).json();
        expect(verified).toMatchObject({ status, liability_shifted: false, challenge: false });
        expectError(await pay(session.id, { payment_method_type: 'card', nonce: verified.nonce }), 402, 'card_declined', {
          decline_code: 'authentication_failed',
        });
      }
    });

    it('with three_d_secure off, the same cards pay unverified; Braintree sessions verify on the page instead', async () => {
      await setFlag(ctx, 'three_d_secure', 'off');
      const session = await createSession(ctx);
      const paid = await pay(session.id, { payment_method_type: 'card', nonce: await tokenize(ctx.h, session.id, card('4000000000002503')) });
      expect(paid.statusCode, paid.body).toBe(200);
      expect((await paymentOf(session.id)).three_d_secure).toBeNull();
    });

    it('refuses unknown nonces and bodies that do not fit, writing nothing', async () => {
      const session = await createSession(ctx);
      expectError(await verify(session.id, 'tokencc_unknown'), 400, 'parameter_invalid', { param: 'nonce' });
      expectError(
        await ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${session.id}/three-d-secure`, payload: { nonce: 'x', extra: 1 } }),
        400,
        'parameter_unknown',
        { param: 'extra' },
      );
      expectError(await answer('cs_test_missing', 'x', true), 404, 'resource_missing', { param: 'id' });
      expect(await rows(ctx.db, 'SELECT id FROM payments')).toEqual([]);
    });
  });
});

function sessionBody() {
  return { currency: 'usd', line_items: [{ name: 'Thing', unit_amount: 1000, quantity: 1 }] };
}
