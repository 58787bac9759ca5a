import { describe, expect, it } from 'vitest';
import { PUBLIC_URL } from '../support/harness';
import { testDatabases } from '../support/databases';
import {
  countRows,
  createSession,
  createSessionOf,
  expectError,
  merchantCall,
  payCall,
  rows,
  tokenize,
  tokenizeCall,
  useIntegration,
} from '../support/integration';

describe.each(testDatabases)('shopper pays through the checkout API ($name)', (database) => {
  const ctx = useIntegration(database);

  const getSession = async (id: string) => {
    const res = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const getPayment = async (id: string) => {
    const res = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const paymentsOf = (sessionId: string) => rows(ctx.db, 'SELECT * FROM payments WHERE checkout_session_id = $1 ORDER BY created_at, id', [sessionId]);

  it('tokenizes 4111 1111 1111 1111 and pays: succeeded, redirect to success_url, events written', async () => {
    const session = await createSession(ctx, {
      success_url: 'https://shop.example/thanks?session={CHECKOUT_SESSION_ID}&x=1',
    });

    const token = await tokenizeCall(ctx.h, session.id);
    expect(token.statusCode, token.body).toBe(200);
    expect(token.json()).toMatchObject({ brand: 'visa', last4: '1111' });
    const { nonce } = token.json();

    const paid = await payCall(ctx.h, session.id, nonce, 'ada@example.com');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toEqual({
      status: 'succeeded',
      redirect_url: `https://shop.example/thanks?session=${session.id}&x=1`,
    });

    const after = await getSession(session.id);
    expect(after).toMatchObject({ status: 'complete', url: null, customer_email: 'ada@example.com' });
    expect(after.payment).toMatch(/^pay_/);
    expect(after.completed_at).toBe(Math.floor(ctx.h.clock.now().getTime() / 1000));

    const payment = await getPayment(after.payment);
    expect(payment).toMatchObject({
      id: after.payment,
      object: 'payment',
      status: 'succeeded',
      amount: session.amount_total,
      amount_captured: session.amount_total,
      amount_refunded: 0,
      currency: 'usd',
      checkout_session: session.id,
      customer_email: 'ada@example.com',
      capture_method: 'automatic',
      processor: 'test',
      failure_code: null,
      decline_code: null,
    });
    expect(payment.payment_method).toMatchObject({ type: 'card', brand: 'visa', last4: '1111', exp_month: 12, exp_year: 2034 });

    const events = await rows(ctx.db, 'SELECT * FROM events ORDER BY type');
    expect(events.map((e) => [e.type, e.object_id])).toEqual([
      ['checkout.session.completed', session.id],
      ['payment.succeeded', payment.id],
    ]);
    // Written by one transaction: same instant, same account and mode, and each snapshot shows the final state.
    expect(new Date(events[0]!.created_at).getTime()).toBe(new Date(events[1]!.created_at).getTime());
    for (const event of events) expect(event).toMatchObject({ account_id: ctx.accountId, mode: 'test' });
    expect(events[0]!.data).toMatchObject({ status: 'complete', payment: payment.id });
    expect(events[1]!.data).toMatchObject({ status: 'succeeded', amount_captured: session.amount_total });

    // The shopper's view shows the receipt.
    const view = await ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${session.id}` });
    expect(view.json()).toMatchObject({
      status: 'complete',
      redirect_url: `https://shop.example/thanks?session=${session.id}&x=1`,
      payment: { status: 'succeeded', brand: 'visa', last4: '1111' },
    });
  });

  it('redirects to the receipt page when the session has no success_url', async () => {
    const session = await createSession(ctx);
    const paid = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toEqual({ status: 'succeeded', redirect_url: `${PUBLIC_URL}/c/${session.id}/done` });
  });

  it('manual capture: requires_capture, nothing captured, session complete', async () => {
    const session = await createSession(ctx, { capture_method: 'manual' });
    const paid = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().status).toBe('requires_capture');

    const after = await getSession(session.id);
    expect(after.status).toBe('complete');
    const payment = await getPayment(after.payment);
    expect(payment).toMatchObject({
      status: 'requires_capture',
      amount: session.amount_total,
      amount_captured: 0,
      capture_method: 'manual',
    });
    const types = (await rows(ctx.db, 'SELECT type FROM events ORDER BY type')).map((e) => e.type);
    expect(types).toEqual(['checkout.session.completed', 'payment.requires_capture']);
  });

  it('declines USD 2001.00 with insufficient_funds; the session stays open and the shopper can retry', async () => {
    const session = await createSessionOf(ctx, 200100);

    const first = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
    const error = expectError(first, 402, 'card_declined', { decline_code: 'insufficient_funds' });
    expect(error.message).not.toContain('4111');
    expect((await getSession(session.id)).status).toBe('open');

    let payments = await paymentsOf(session.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ status: 'failed', failure_code: 'card_declined', decline_code: 'insufficient_funds' });
    expect((await getPayment(payments[0]!.id)).decline_code).toBe('insufficient_funds');

    // Retry in the same session with a new token: the amount still decides.
    const second = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
    expectError(second, 402, 'card_declined', { decline_code: 'insufficient_funds' });
    payments = await paymentsOf(session.id);
    expect(payments).toHaveLength(2);
    expect(payments.map((p) => p.status)).toEqual(['failed', 'failed']);
    expect(new Set(payments.map((p) => p.id)).size).toBe(2);

    const session2 = await getSession(session.id);
    expect(session2).toMatchObject({ status: 'open', payment: null });
    const types = (await rows(ctx.db, 'SELECT type FROM events')).map((e) => e.type);
    expect(types).toEqual(['payment.failed', 'payment.failed']);
  });

  it('a decline then an approval in the same session completes it', async () => {
    const session = await createSessionOf(ctx, 1500);
    const declined = await payCall(
      ctx.h,
      session.id,
      await tokenize(ctx.h, session.id, {
        number: '4000111111111115',
        exp_month: 1,
        exp_year: 2035,
        cvc: '999',
      }),
    );
    expectError(declined, 402, 'card_declined', { decline_code: 'do_not_honor' });
    const approved = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
    expect(approved.statusCode, approved.body).toBe(200);
    const after = await getSession(session.id);
    expect(after.status).toBe('complete');
    expect((await getPayment(after.payment)).status).toBe('succeeded');
  });

  it('USD 3000.00 answers 502 processor_unavailable', async () => {
    const session = await createSessionOf(ctx, 300000);
    const res = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
    expectError(res, 502, 'processor_unavailable');
    expect((await getSession(session.id)).status).toBe('open');
    const payments = await paymentsOf(session.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ status: 'failed', failure_code: 'processor_unavailable' });
  });

  it('refuses a real (non-test) card at tokenize with 402 test_mode_live_card', async () => {
    const session = await createSession(ctx);
    const res = await tokenizeCall(ctx.h, session.id, {
      number: '4242 4242 4242 4242',
      exp_month: 12,
      exp_year: 2034,
      cvc: '123',
    });
    const error = expectError(res, 402, 'card_declined', { param: 'number', decline_code: 'test_mode_live_card' });
    expect(error.message).not.toContain('4242');
    expect(await countRows(ctx.db, 'test_card_nonces')).toBe(0);
  });

  it('refuses to pay a completed session with 409 checkout_session_completed', async () => {
    const session = await createSession(ctx);
    expect((await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id))).statusCode).toBe(200);
    expectError(await payCall(ctx.h, session.id, 'fake-valid-nonce'), 409, 'checkout_session_completed');
    expectError(await tokenizeCall(ctx.h, session.id), 409, 'checkout_session_completed');
    const payments = await paymentsOf(session.id);
    expect(payments.map((p) => p.status)).toEqual(['succeeded']);
  });

  it('refuses a used nonce with 400', async () => {
    const session = await createSessionOf(ctx, 200100);
    const nonce = await tokenize(ctx.h, session.id);
    expectError(await payCall(ctx.h, session.id, nonce), 402, 'card_declined', { decline_code: 'insufficient_funds' });
    const reused = await payCall(ctx.h, session.id, nonce);
    expect(reused.statusCode).toBe(400);
    expectError(reused, 400, 'parameter_invalid', { param: 'payment_method' });
    expect((await getSession(session.id)).status).toBe('open');

    // A nonce that paid one session cannot pay another either.
    const other = await createSession(ctx);
    const winner = await tokenize(ctx.h, other.id);
    expect((await payCall(ctx.h, other.id, winner)).statusCode).toBe(200);
    const third = await createSession(ctx);
    expectError(await payCall(ctx.h, third.id, winner), 400, 'parameter_invalid', { param: 'payment_method' });
    expect((await getSession(third.id)).status).toBe('open');
  });

  it('refuses an unknown session with 404 and a bad email with 400, creating no payment', async () => {
    expectError(await payCall(ctx.h, `cs_${'N'.repeat(24)}`, 'fake-valid-nonce'), 404, 'resource_missing', { param: 'id' });
    const session = await createSession(ctx);
    expectError(await payCall(ctx.h, session.id, 'fake-valid-nonce', 'not-an-email'), 400, 'parameter_invalid', {
      param: 'email',
    });
    expect(await countRows(ctx.db, 'payments')).toBe(0);
  });
});
