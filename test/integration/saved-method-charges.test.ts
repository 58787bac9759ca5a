import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { Tillpoint } from '../../sdk/node/src/index';
import type { Deps } from '../../src/domain/deps';
import type { AuthorizeRequest, PaymentProcessor } from '../../src/domain/processors/ports';
import { chargeSavedPaymentMethod } from '../../src/domain/payments/use-cases/charge-saved-payment-method';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import {
  bearer,
  countRows,
  createSession,
  dumpDatabase,
  expectError,
  merchantCall,
  rows,
  tokenize,
  useIntegration,
  withoutBookkeeping,
} from '../support/integration';

describe.each(testDatabases)('charging a saved payment method from the server ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);
  const charge = (body: Record<string, unknown>, idempotencyKey?: string) =>
    ctx.h.app.inject({
      method: 'POST',
      url: '/v1/payments',
      headers: { ...bearer(ctx.key), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      payload: body,
    });

  /** A customer with one card saved by paying a session with `save: "on"`. */
  async function customerWithCard(email = 'ada@example.com', card?: Record<string, unknown>) {
    const customer = (await call('POST', '/v1/customers', { email })).json();
    const session = await createSession(ctx, { customer: customer.id, payment_method_options: { card: { save: 'on' } } });
    const paid = await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${session.id}/payments`,
      payload: { payment_method_type: 'card', email, nonce: await tokenize(ctx.h, session.id, card) },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [method] = (await call('GET', `/v1/customers/${customer.id}/payment_methods`)).json().data;
    ctx.h.clock.advance(1000);
    return { customer: customer.id as string, method: method.id as string };
  }

  it('charges the saved card: a succeeded payment of no session, with its event and webhook delivery, listed like any payment', async () => {
    const endpoint = (await call('POST', '/v1/webhook_endpoints', { url: 'https://hooks.example/tillpoint', enabled_events: ['payment.succeeded'] })).json();
    const { customer, method } = await customerWithCard();
    const res = await charge({ customer, payment_method: method, amount: 1999, currency: 'usd' });
    expect(res.statusCode, res.body).toBe(200);
    const payment = res.json();
    expect(payment).toMatchObject({
      object: 'payment',
      status: 'succeeded',
      amount: 1999,
      amount_captured: 1999,
      currency: 'usd',
      checkout_session: null,
      customer,
      customer_email: 'ada@example.com',
      payment_method: { type: 'card', brand: 'visa', last4: '1111', exp_month: 12, exp_year: 2034 },
      processor: 'test',
    });
    expect((await call('GET', `/v1/payments/${payment.id}`)).json()).toEqual(payment);
    expect((await call('GET', '/v1/payments?limit=1')).json().data).toEqual([payment]);

    const [event] = await rows(ctx.db, "SELECT id, data FROM events WHERE type = 'payment.succeeded' AND object_id = $1", [payment.id]);
    expect(event!.data).toMatchObject({ id: payment.id, checkout_session: null });
    const deliveries = await rows(ctx.db, 'SELECT endpoint_id FROM webhook_deliveries WHERE event_id = $1', [event!.id]);
    expect(deliveries).toEqual([{ endpoint_id: endpoint.id }]);
    // The key's charge is in the audit log.
    expect(await rows(ctx.db, "SELECT target FROM audit_log WHERE action = 'payment.create'")).toEqual([{ target: payment.id }]);
  });

  it('an Idempotency-Key replays the same payment; another key charges again', async () => {
    const { customer, method } = await customerWithCard();
    const body = { customer, payment_method: method, amount: 1200, currency: 'eur' };
    const first = await charge(body, 'order-17');
    expect(first.statusCode, first.body).toBe(200);
    const replay = await charge(body, 'order-17');
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expectError(await charge({ ...body, amount: 1300 }, 'order-17'), 409, 'idempotency_key_reused');

    const second = await charge(body, 'order-18');
    expect(second.statusCode).toBe(200);
    expect(second.json().id).not.toBe(first.json().id);
    expect(await rows(ctx.db, 'SELECT amount::int AS amount FROM payments WHERE checkout_session_id IS NULL ORDER BY created_at, id')).toEqual([
      { amount: 1200 },
      { amount: 1200 },
    ]);
  });

  it("refuses bad input, another customer's card and unknown ids with catalogue codes, and changes nothing", async () => {
    const ada = await customerWithCard('ada@example.com');
    const grace = await customerWithCard('grace@example.com', { number: '5555 5555 5555 4444', exp_month: 7, exp_year: 2031, cvc: '321' });
    const good = { customer: ada.customer, payment_method: ada.method, amount: 1000, currency: 'usd' };
    const before = withoutBookkeeping(await dumpDatabase(ctx.db));

    expectError(await charge({ ...good, payment_method: grace.method }), 404, 'resource_missing', { param: 'payment_method' });
    expectError(await charge({ ...good, customer: grace.customer }), 404, 'resource_missing', { param: 'payment_method' });
    expectError(await charge({ ...good, payment_method: 'pm_nope' }), 404, 'resource_missing', { param: 'payment_method' });
    expectError(await charge({ ...good, customer: 'cus_nope' }), 404, 'resource_missing', { param: 'customer' });
    expectError(await charge({ ...good, amount: 10 }), 400, 'amount_too_small', { param: 'amount' });
    expectError(await charge({ ...good, amount: 100_000_000 }), 400, 'amount_too_large', { param: 'amount' });
    expectError(await charge({ ...good, amount: 10.5 }), 400, 'parameter_invalid', { param: 'amount' });
    expectError(await charge({ ...good, currency: 'xyz' }), 400, 'currency_not_supported', { param: 'currency' });
    expectError(await charge({ ...good, nonce: 'fake-valid-nonce' }), 400, 'parameter_unknown', { param: 'nonce' });
    const { payment_method: _omitted, ...withoutMethod } = good;
    expectError(await charge(withoutMethod), 400, 'parameter_missing', { param: 'payment_method' });

    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before);

    // Another account's key does not see this account's customer or card.
    const other = await createAccount(ctx.h.tillpoint.deps, { name: 'Other Shop' });
    const before2 = withoutBookkeeping(await dumpDatabase(ctx.db));
    const foreign = await merchantCall(ctx.h, other.testSecretKey, 'POST', '/v1/payments', good);
    expectError(foreign, 404, 'resource_missing', { param: 'customer' });
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before2);
  });

  it('a declined charge is a failed payment answered 402; a charged one refunds and shows the refund', async () => {
    const { customer, method } = await customerWithCard();
    // USD 2001.00: the test processor declines with insufficient funds, as Braintree's sandbox does.
    expectError(await charge({ customer, payment_method: method, amount: 200_100, currency: 'usd' }), 402, 'card_declined', {
      decline_code: 'insufficient_funds',
    });
    expect(await rows(ctx.db, 'SELECT status, decline_code, checkout_session_id FROM payments WHERE amount = 200100')).toEqual([
      { status: 'failed', decline_code: 'insufficient_funds', checkout_session_id: null },
    ]);

    const paid = (await charge({ customer, payment_method: method, amount: 4200, currency: 'usd' })).json();
    const refund = await call('POST', '/v1/refunds', { payment: paid.id, amount: 1200 });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json()).toMatchObject({ status: 'succeeded', amount: 1200, payment: paid.id });
    expect((await call('GET', `/v1/payments/${paid.id}`)).json()).toMatchObject({ amount_refunded: 1200, status: 'succeeded' });
    expect(await countRows(ctx.db, 'refunds')).toBe(1);
  });

  it('capture_method manual authorizes; the payment is captured later like any other', async () => {
    const { customer, method } = await customerWithCard();
    const held = (await charge({ customer, payment_method: method, amount: 5000, currency: 'usd', capture_method: 'manual' })).json();
    expect(held).toMatchObject({ status: 'requires_capture', amount_captured: 0, checkout_session: null });
    const captured = await call('POST', `/v1/payments/${held.id}/capture`, { amount: 3000 });
    expect(captured.json()).toMatchObject({ status: 'succeeded', amount_captured: 3000 });
  });

  it('a charge whose answer was lost stays processing and is reconciled like any payment, with no session to complete', async () => {
    const { customer, method } = await customerWithCard();
    const deps = ctx.h.tillpoint.deps;
    const real = await deps.processors.forScope({ accountId: ctx.accountId, mode: 'test' });
    // The gateway charges, but its answer never comes back.
    const losing: PaymentProcessor = Object.assign(Object.create(real) as PaymentProcessor, {
      async authorize(request: AuthorizeRequest) {
        await real.authorize(request);
        return { outcome: 'unknown' as const, reason: 'timed out waiting for the gateway' };
      },
    });
    const faulty: Deps = { ...deps, processors: { ...deps.processors, forScope: async () => losing } };
    await expect(
      chargeSavedPaymentMethod(faulty, {
        scope: { accountId: ctx.accountId, mode: 'test' },
        actor: null,
        customerId: customer,
        paymentMethodId: method,
        amount: 3100,
        currency: 'usd',
      }),
    ).rejects.toMatchObject({ code: 'processor_timeout' });
    const [pending] = await rows(ctx.db, 'SELECT id, status FROM payments WHERE checkout_session_id IS NULL');
    expect(pending!.status).toBe('processing');

    ctx.h.clock.advance(61_000);
    expect(await runJobOnce(deps, 'reconciliation')).toEqual({ resolved: 1, pending: 0 });
    expect((await call('GET', `/v1/payments/${pending!.id}`)).json()).toMatchObject({
      status: 'succeeded',
      amount_captured: 3100,
      checkout_session: null,
      payment_method: { last4: '1111' },
    });
    expect(await rows(ctx.db, "SELECT object_id FROM events WHERE type = 'payment.succeeded' AND object_id = $1", [pending!.id])).toHaveLength(1);
  });

  describe('through the SDK', () => {
    let baseUrl: string;
    beforeAll(async () => {
      await ctx.h.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(ctx.h.app.server.address() as AddressInfo).port}`;
    });

    it('tp.payments.create charges the saved card once per idempotency key', async () => {
      const { customer, method } = await customerWithCard();
      const tp = new Tillpoint(ctx.key, { baseUrl, initialRetryDelayMs: 10 });
      const params = { customer, payment_method: method, amount: 2500, currency: 'usd' };
      const first = await tp.payments.create(params, { idempotencyKey: 'renewal-2026-11' });
      const again = await tp.payments.create(params, { idempotencyKey: 'renewal-2026-11' });
      expect(first).toMatchObject({ status: 'succeeded', amount: 2500, customer, checkout_session: null });
      expect(again.id).toBe(first.id);
      await expect(tp.payments.create({ ...params, payment_method: 'pm_missing' })).rejects.toMatchObject({
        code: 'resource_missing',
        param: 'payment_method',
      });
    });
  });
});
