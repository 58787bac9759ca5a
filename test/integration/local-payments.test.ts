import { describe, expect, it } from 'vitest';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { createSession, dumpDatabase, expectError, merchantCall, rows, useIntegration, withoutBookkeeping } from '../support/integration';

/**
 * Local payment methods in test mode: iDEAL started on the checkout page's endpoint, approved in the
 * test window, `processing` until the test processor's bank confirms it (what Braintree notifies as
 * LOCAL_PAYMENT_COMPLETED), then `succeeded`; canceled or failed in the window; expired after 3 hours.
 */
describe.each(testDatabases)('local payment methods in test mode ($name)', (database) => {
  const ctx = useIntegration(database);
  const euro = { currency: 'eur', line_items: [{ name: 'Stroopwafels', unit_amount: 1250, quantity: 2 }], payment_method_types: ['card', 'ideal'] };

  const start = (sessionId: string, body: Record<string, unknown> = {}) =>
    ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${sessionId}/local-payments`,
      payload: { payment_method_type: 'ideal', email: 'shopper@example.com', ...body },
    });
  const answer = (sessionId: string, paymentId: string, value: string) =>
    ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/local-payments/${paymentId}/answer`, payload: { answer: value } });
  const payment = async (id: string) => (await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/${id}`)).json();
  const eventTypes = async (id: string) =>
    (await rows(ctx.db, 'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id', [id])).map((e) => e.type);
  const session = async (id: string) => (await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${id}`)).json();
  /** The test processor's bank confirms approved payments whose time has come (its job, run now). */
  const bankConfirms = () => runJobOnce(ctx.h.tillpoint.deps, 'test-processor-local-payments');

  it('iDEAL in EUR: processing once approved, until the bank confirms it; then succeeded with the bank, events in order', async () => {
    const s = await createSession(ctx, euro);
    const started = await start(s.id);
    expect(started.statusCode, started.body).toBe(200);
    const { payment: paymentId, status, local_payment_id, country } = started.json();
    expect({ status, country }).toEqual({ status: 'processing', country: 'NL' });
    expect(local_payment_id).toMatch(/^PAY-[0-9A-F]{24}$/);
    expect(await payment(paymentId)).toMatchObject({
      status: 'processing',
      payment_method: { type: 'ideal', brand: null, last4: null, ideal: { bank: null, bic: null, iban_last4: null } },
    });
    expect(await eventTypes(paymentId)).toEqual(['payment.processing']);

    // The shopper approves in the test window: still processing, the bank has not confirmed yet.
    ctx.h.clock.advance(1000);
    const approved = await answer(s.id, paymentId, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toEqual({ payment: paymentId, status: 'processing' });
    await bankConfirms();
    expect((await payment(paymentId)).status).toBe('processing');
    expect((await session(s.id)).status).toBe('open');
    // A card payment meanwhile is refused: one payment is under way.
    expectError(
      await ctx.h.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${s.id}/payments`,
        payload: { payment_method_type: 'card', nonce: 'fake-valid-nonce', email: 'shopper@example.com' },
      }),
      409,
      'idempotency_key_in_use',
    );

    // The bank confirms after the test delay (3 s by default).
    ctx.h.clock.advance(3_000);
    await bankConfirms();
    const paid = await payment(paymentId);
    expect(paid).toMatchObject({
      status: 'succeeded',
      amount: 2500,
      amount_captured: 2500,
      currency: 'eur',
      payment_method: { type: 'ideal', ideal: { bank: 'ing', bic: 'INGBNL2A', iban_last4: '5264' } },
      processor_response: { code: '1000', text: 'Approved' },
    });
    expect(paid.processor_transaction_id).toEqual(expect.any(String));
    expect(await session(s.id)).toMatchObject({ status: 'complete', payment: paymentId });
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.succeeded']);
    const [succeeded] = await rows(ctx.db, `SELECT data FROM events WHERE object_id = $1 AND type = 'payment.succeeded'`, [paymentId]);
    expect(succeeded!.data.payment_method.ideal).toEqual({ bank: 'ing', bic: 'INGBNL2A', iban_last4: '5264' });
    // Taken once: running the job again records nothing more.
    await bankConfirms();
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.succeeded']);
    // The shopper's page shows the payment by its method.
    const page = (await ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${s.id}` })).json();
    expect(page.payment).toMatchObject({ status: 'succeeded', type: 'ideal' });
  });

  it('canceled or failed in the window: failed at once, the session takes another attempt; the bank never confirms it', async () => {
    const s = await createSession(ctx, euro);
    const first = (await start(s.id)).json();
    ctx.h.clock.advance(1000);
    const canceled = await answer(s.id, first.payment, 'cancel');
    expect(canceled.json()).toEqual({ payment: first.payment, status: 'failed' });
    expect(await payment(first.payment)).toMatchObject({ status: 'failed', failure_code: 'local_payment_canceled' });
    expect(await eventTypes(first.payment)).toEqual(['payment.processing', 'payment.failed']);
    // An approval after the cancel changes nothing; the bank never confirms it.
    expect((await answer(s.id, first.payment, 'approve')).json().status).toBe('failed');
    ctx.h.clock.advance(10_000);
    await bankConfirms();
    expect((await payment(first.payment)).status).toBe('failed');

    const second = (await start(s.id)).json();
    ctx.h.clock.advance(1000);
    expect((await answer(s.id, second.payment, 'fail')).json().status).toBe('failed');
    expect(await payment(second.payment)).toMatchObject({ status: 'failed', failure_code: 'local_payment_failed' });
    expect((await session(s.id)).status).toBe('open');
  });

  it('expires when the bank has not confirmed it within 3 hours: failed, and a later confirmation charges nothing', async () => {
    const s = await createSession(ctx, euro);
    const started = (await start(s.id)).json();
    ctx.h.clock.advance(3 * 60 * 60 * 1000 - 1000);
    await runJobOnce(ctx.h.tillpoint.deps, 'local-payment-expiry');
    expect((await payment(started.payment)).status).toBe('processing');
    // The generic reconciliation leaves a payment waiting for its bank alone.
    await runJobOnce(ctx.h.tillpoint.deps, 'reconciliation');
    expect((await payment(started.payment)).status).toBe('processing');

    ctx.h.clock.advance(2000);
    await runJobOnce(ctx.h.tillpoint.deps, 'local-payment-expiry');
    expect(await payment(started.payment)).toMatchObject({ status: 'failed', failure_code: 'local_payment_expired', processor_transaction_id: null });
    expect(await eventTypes(started.payment)).toEqual(['payment.processing', 'payment.failed']);
    expect((await session(s.id)).status).toBe('open');

    // Approved too late: the bank's confirmation finds the attempt over, and nothing is sold.
    await answer(s.id, started.payment, 'approve');
    ctx.h.clock.advance(10_000);
    await bankConfirms();
    expect(await payment(started.payment)).toMatchObject({ status: 'failed', processor_transaction_id: null });
    expect(await rows(ctx.db, 'SELECT id FROM test_processor_transactions')).toEqual([]);
  });

  it("outlives its session's expiry while it waits for the bank: the session completes when the bank confirms", async () => {
    const s = await createSession(ctx, { ...euro, expires_at: Math.floor(ctx.h.clock.now().getTime() / 1000) + 31 * 60 });
    // Other sessions overdue at the same time are swept; the one the waiting local payment holds is not.
    const others = await Promise.all(
      Array.from({ length: 3 }, () => createSession(ctx, { ...euro, expires_at: Math.floor(ctx.h.clock.now().getTime() / 1000) + 31 * 60 })),
    );
    const started = (await start(s.id)).json();
    await answer(s.id, started.payment, 'approve');
    ctx.h.clock.advance(32 * 60 * 1000);
    await runJobOnce(ctx.h.tillpoint.deps, 'session-expiry');
    expect((await session(s.id)).status).toBe('open');
    for (const other of others) expect((await session(other.id)).status).toBe('expired');
    await bankConfirms();
    expect(await session(s.id)).toMatchObject({ status: 'complete', payment: started.payment });
  });

  it('is offered only in its currencies, never captured later, and paid only through its own endpoint; refusals change nothing', async () => {
    const refusal = (body: Record<string, unknown>) => merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', { ...euro, ...body });
    expectError(await refusal({ currency: 'usd' }), 400, 'parameter_invalid', { param: 'payment_method_types' });
    expectError(await refusal({ payment_method_types: ['blik'] }), 400, 'parameter_invalid', { param: 'payment_method_types' });
    expectError(await refusal({ capture_method: 'manual' }), 400, 'parameter_invalid', { param: 'capture_method' });
    const pln = await createSession(ctx, { ...euro, currency: 'pln', payment_method_types: ['blik', 'p24'] });
    expect(pln.payment_method_types).toEqual(['blik', 'p24']);

    const s = await createSession(ctx, euro);
    const cardOnly = await createSession(ctx, { ...euro, payment_method_types: ['card'] });
    const before = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(await start(cardOnly.id), 400, 'parameter_invalid', { param: 'payment_method_type' });
    expectError(await start(s.id, { payment_method_type: 'bancontact' }), 400, 'parameter_invalid', { param: 'payment_method_type' });
    expectError(await start(s.id, { payment_method_type: 'card' }), 400, 'parameter_invalid', { param: 'payment_method_type' });
    expectError(await start(s.id, { email: 'not an email' }), 400, 'parameter_invalid', { param: 'email' });
    expectError(await start(s.id, { local_payment_id: 'PAY-FROM-THE-PAGE' }), 400, 'parameter_unknown', { param: 'local_payment_id' });
    expectError(await start('cs_nosuchsession'), 404, 'resource_missing', { param: 'id' });
    // iDEAL is paid at the bank, never with a nonce on the pay endpoint.
    expectError(
      await ctx.h.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${s.id}/payments`,
        payload: { payment_method_type: 'ideal', nonce: 'fake-local-payment-method-nonce', email: 'shopper@example.com' },
      }),
      400,
      'parameter_invalid',
      { param: 'payment_method_type' },
    );
    expectError(await answer(s.id, 'pay_nosuchpayment', 'approve'), 404, 'resource_missing', { param: 'payment' });
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before);

    // A shopper whose billing country iDEAL does not serve is refused.
    const abroad = await createSession(ctx, { ...euro, billing_address_collection: 'required' });
    const address = await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${abroad.id}/addresses`,
      payload: { billing_address: { line1: 'Rua Augusta 1', city: 'Lisboa', postal_code: '1100-048', country: 'PT' } },
    });
    expect(address.statusCode, address.body).toBe(200);
    expectError(await start(abroad.id), 400, 'parameter_invalid', { param: 'payment_method_type' });
  });
});
