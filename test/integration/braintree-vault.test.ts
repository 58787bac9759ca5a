import { beforeEach, describe, expect, it } from 'vitest';
import { setProcessorConfig } from '../../src/domain/processors/use-cases/set-processor-config';
import { emulatedMerchantSettings, useBraintreeIntegration } from '../support/braintree-fixtures';
import { testDatabases } from '../support/databases';
import { bearer, countRows, expectError, rows } from '../support/integration';

/**
 * Braintree's vault through the adapter, against the gateway emulator: saving a card on pay
 * (`customer.create`, `paymentMethod.create` with `verifyCard`, a sale by token), charging it
 * from the server (`transactionSource: "unscheduled"`), deleting it.
 */
describe.each(testDatabases)('saved cards with Braintree ($name)', (database) => {
  const bt = useBraintreeIntegration(database, { logLevel: false });
  beforeEach(() => {
    bt.emulator.transactions.clear();
    bt.emulator.customers.clear();
    bt.emulator.vaulted.clear();
    bt.emulator.requests.length = 0;
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
    bt.app.inject({ method, url, headers: { ...bearer(bt.key), ...headers }, ...(payload ? { payload } : {}) });
  const pay = (sessionId: string, nonce: string) =>
    bt.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${sessionId}/payments`,
      payload: { payment_method_type: 'card', nonce, email: 'ada@example.com' },
    });
  const vaultCalls = () =>
    bt.emulator.requests.filter((r) => /payment_methods|customers/.test(r.path)).map((r) => `${r.method} ${r.path.replace(/^.*\/merchants\/[^/]+\//, '')}`);

  async function customerWithSavedCard() {
    const customer = (await call('POST', '/v1/customers', { email: 'ada@example.com' })).json();
    const session = (
      await call('POST', '/v1/checkout/sessions', {
        currency: 'usd',
        line_items: [{ name: 'Beans', unit_amount: 3500, quantity: 1 }],
        customer: customer.id,
        payment_method_options: { card: { save: 'on' } },
      })
    ).json();
    const paid = await pay(session.id, 'fake-valid-mastercard-nonce');
    expect(paid.statusCode, paid.body).toBe(200);
    const [method] = (await call('GET', `/v1/customers/${customer.id}/payment_methods`)).json().data;
    return { customer: customer.id as string, method };
  }

  it('saving on pay makes the Braintree customer, vaults the card with verification and charges its token', async () => {
    const { customer, method } = await customerWithSavedCard();
    expect(method).toMatchObject({ processor: 'braintree', card: { brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2030 } });
    expect(bt.emulator.customers.get(customer)).toEqual({ id: customer, email: 'ada@example.com' });
    const [vaulted] = [...bt.emulator.vaulted.values()];
    expect(vaulted).toMatchObject({ customerId: customer });
    const create = bt.emulator.requests.find((r) => r.method === 'POST' && r.path.endsWith('/payment_methods'))!;
    expect(create.body.payment_method).toMatchObject({
      customer_id: customer,
      payment_method_nonce: 'fake-valid-mastercard-nonce',
      options: { verify_card: true, verification_merchant_account_id: 'shop_usd' },
    });
    const [sale] = [...bt.emulator.transactions.values()];
    expect(sale!.request).toMatchObject({ payment_method_token: vaulted!.token });
    expect(sale!.request.payment_method_nonce).toBeUndefined();
    // A session's payment is the shopper's own: not merchant-initiated.
    expect(sale!.request.transaction_source).toBeUndefined();
  });

  it('POST /v1/payments charges the vaulted token as an unscheduled merchant-initiated sale, once per Idempotency-Key', async () => {
    const { customer, method } = await customerWithSavedCard();
    const body = { customer, payment_method: method.id, amount: 1250, currency: 'eur' };
    const res = await call('POST', '/v1/payments', body, { 'idempotency-key': 'renewal-1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'succeeded',
      amount: 1250,
      currency: 'eur',
      checkout_session: null,
      processor: 'braintree',
      payment_method: { last4: '4444' },
    });
    expect((await call('POST', '/v1/payments', body, { 'idempotency-key': 'renewal-1' })).json().id).toBe(res.json().id);
    const sales = [...bt.emulator.transactions.values()].filter((t) => t.orderId === res.json().id);
    expect(sales).toHaveLength(1);
    expect(sales[0]!.request).toMatchObject({
      amount: '12.50',
      payment_method_token: [...bt.emulator.vaulted.keys()][0],
      transaction_source: 'unscheduled',
      merchant_account_id: 'shop_eur',
      options: { submit_for_settlement: true },
    });
    expect(sales[0]!.request.options.three_d_secure).toBeUndefined();

    // A refund of it goes to Braintree like any other (unsettled: a full refund is a void).
    const refund = await call('POST', '/v1/refunds', { payment: res.json().id });
    expect(refund.json()).toMatchObject({ status: 'succeeded', amount: 1250 });
    expect(sales[0]!.status).toBe('voided');
  });

  it('a card that fails verification is not saved and not charged; the shopper is told it was declined', async () => {
    const customer = (await call('POST', '/v1/customers', { email: 'ada@example.com' })).json();
    const session = (
      await call('POST', '/v1/checkout/sessions', {
        currency: 'usd',
        line_items: [{ name: 'Beans', unit_amount: 3500, quantity: 1 }],
        customer: customer.id,
        payment_method_options: { card: { save: 'on' } },
      })
    ).json();
    expectError(await pay(session.id, 'fake-processor-declined-visa-nonce'), 402, 'card_declined', { decline_code: 'do_not_honor' });
    expect(bt.emulator.transactions.size).toBe(0);
    expect(bt.emulator.vaulted.size).toBe(0);
    expect(await countRows(bt.db, 'payment_methods')).toBe(0);
    expect(await rows(bt.db, 'SELECT status FROM payments')).toEqual([{ status: 'failed' }]);
  });

  it("a returning customer's page gets a customer-scoped client token; with the account's CVV rule the saved card pays with token + CVV-only nonce", async () => {
    const { customer, method } = await customerWithSavedCard();
    const newSession = async () =>
      (
        await call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 3500, quantity: 1 }], customer: customer })
      ).json();
    bt.emulator.requests.length = 0;
    const later = await newSession();
    const page = (await bt.app.inject({ method: 'GET', url: `/api/checkout/sessions/${later.id}` })).json();
    expect(page.processor.clientToken).toEqual(expect.any(String));
    expect(page.saved_card_cvc_required).toBe(false);
    const tokenRequest = bt.emulator.requests.find((r) => r.path.endsWith('/client_token'))!;
    expect(tokenRequest.body.client_token).toMatchObject({ customer_id: customer, merchant_account_id: 'shop_usd' });

    // The account's Braintree CVV rules refuse vaulted sales without a CVV: every page asks for it.
    const account = (await rows(bt.db, 'SELECT account_id FROM processor_configs LIMIT 1'))[0]!.account_id as string;
    bt.clock.advance(1000);
    await setProcessorConfig(bt.tillpoint.processorSettings, {
      accountId: account,
      mode: 'test',
      actor: null,
      processor: 'braintree',
      braintree: emulatedMerchantSettings({ requireCvvForSavedCards: true }),
    });
    const asked = await newSession();
    expect((await bt.app.inject({ method: 'GET', url: `/api/checkout/sessions/${asked.id}` })).json().saved_card_cvc_required).toBe(true);
    const payments = await countRows(bt.db, 'payments');
    const oneTap = (nonce?: string) =>
      bt.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${asked.id}/payments`,
        payload: { payment_method_type: 'card', payment_method: method.id, email: 'ada@example.com', ...(nonce ? { nonce } : {}) },
      });
    expectError(await oneTap(), 400, 'parameter_missing', { param: 'cvc' });
    expect(await countRows(bt.db, 'payments')).toBe(payments);

    // Hosted Fields' CVV-only nonce goes with the token; the gateway checks it (200 does not match).
    bt.emulator.transactions.clear();
    expectError(await oneTap(bt.emulator.tokenizeCvv('200')), 402, 'card_declined', { decline_code: 'incorrect_cvc' });
    const paid = await oneTap(bt.emulator.tokenizeCvv('123'));
    expect(paid.statusCode, paid.body).toBe(200);
    const sales = [...bt.emulator.transactions.values()];
    expect(sales.map((t) => t.status)).toEqual(['gateway_rejected', 'submitted_for_settlement']);
    const vaulted = [...bt.emulator.vaulted.values()][0]!;
    expect(sales[1]!.request).toMatchObject({ payment_method_token: vaulted.token, payment_method_nonce: expect.stringMatching(/^tokencc_cvv_/) });
  });

  it('4000 0000 0000 0341 is verified and vaulted, then its renewal is declined: the subscription goes past_due, retried on schedule', async () => {
    const start = Date.UTC(2027, 0, 1, 9) / 1000;
    const day = 24 * 60 * 60;
    const clock = (await call('POST', '/v1/test_helpers/test_clocks', { frozen_time: start })).json();
    const customer = (await call('POST', '/v1/customers', { email: 'ada@example.com', test_clock: clock.id })).json();
    const session = (await call('POST', '/v1/checkout/sessions', { mode: 'setup', currency: 'usd', customer: customer.id })).json();
    const saved = await pay(session.id, bt.emulator.tokenizeCard({ number: '4000 0000 0000 0341', cvv: '123' }));
    expect(saved.statusCode, saved.body).toBe(200);
    const [vaulted] = [...bt.emulator.vaulted.values()];
    expect(vaulted).toMatchObject({ customerId: customer.id, card: { last4: '0341' } });

    const product = (await call('POST', '/v1/products', { name: 'Coffee club' })).json();
    const price = (await call('POST', '/v1/prices', { product: product.id, currency: 'usd', unit_amount: 1500, recurring: { interval: 'month' } })).json();
    const sub = (await call('POST', '/v1/subscriptions', { customer: customer.id, items: [{ price: price.id }], trial_period_days: 3 })).json();
    expect(sub.status).toBe('trialing');
    expect(bt.emulator.transactions.size).toBe(0);

    const advanced = await call('POST', `/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: start + 3 * day + 60 });
    expect(advanced.statusCode, advanced.body).toBe(200);
    expect((await call('GET', `/v1/subscriptions/${sub.id}`)).json().status).toBe('past_due');
    const renewal = (await call('GET', `/v1/invoices?subscription=${sub.id}&status=open`)).json().data[0];
    expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', attempt_count: 1, next_payment_attempt: start + 4 * day });
    expect((await call('GET', `/v1/payments/${renewal.payment}`)).json()).toMatchObject({
      status: 'failed',
      processor: 'braintree',
      decline_code: 'do_not_honor',
    });
    // The gateway was asked to charge the vaulted token, and declined it.
    const [sale] = [...bt.emulator.transactions.values()];
    expect(sale).toMatchObject({ status: 'processor_declined', processorResponseCode: '2000', amount: '15.00' });
    // A renewal is a charge on the subscription's schedule: Braintree's `recurring` source.
    expect(sale!.request).toMatchObject({ payment_method_token: vaulted!.token, transaction_source: 'recurring' });

    // The next try, a day later, is declined the same way.
    await call('POST', `/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: start + 4 * day + 60 });
    expect((await call('GET', `/v1/invoices/${renewal.id}`)).json()).toMatchObject({ status: 'open', attempt_count: 2 });
    expect([...bt.emulator.transactions.values()].map((t) => t.status)).toEqual(['processor_declined', 'processor_declined']);
  });

  it('DELETE /v1/payment_methods/:id deletes the card in the Braintree vault', async () => {
    const { method } = await customerWithSavedCard();
    expect(bt.emulator.vaulted.size).toBe(1);
    expect((await call('DELETE', `/v1/payment_methods/${method.id}`)).statusCode).toBe(200);
    expect(bt.emulator.vaulted.size).toBe(0);
    expect(vaultCalls().at(-1)).toMatch(/^DELETE payment_methods\/any\//);
  });

  it('a setup session vaults and verifies the card through Braintree and charges nothing; a card failing verification is refused', async () => {
    const session = (await call('POST', '/v1/checkout/sessions', { mode: 'setup', currency: 'eur', customer_email: 'ada@example.com' })).json();
    expectError(await pay(session.id, 'fake-processor-declined-visa-nonce'), 402, 'card_declined', { decline_code: 'do_not_honor' });
    expect(bt.emulator.vaulted.size).toBe(0);

    const saved = await pay(session.id, 'fake-valid-visa-nonce');
    expect(saved.statusCode, saved.body).toBe(200);
    const done = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    expect(done).toMatchObject({ status: 'complete', payment: null, setup_intent: { status: 'succeeded', customer: expect.stringMatching(/^cus_/) } });
    const creates = bt.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/payment_methods'));
    // Verified with the session currency's merchant account.
    expect(creates.map((r) => r.body.payment_method.options)).toEqual([
      { verify_card: true, verification_merchant_account_id: 'shop_eur' },
      { verify_card: true, verification_merchant_account_id: 'shop_eur' },
    ]);
    expect(bt.emulator.customers.get(done.customer)).toEqual({ id: done.customer, email: 'ada@example.com' });
    expect([...bt.emulator.vaulted.values()].map((v) => v.customerId)).toEqual([done.customer]);
    expect(bt.emulator.transactions.size).toBe(0);
    expect((await call('GET', `/v1/customers/${done.customer}/payment_methods`)).json().data).toMatchObject([
      { id: done.setup_intent.payment_method, processor: 'braintree', card: { brand: 'visa', last4: '1881' } },
    ]);
  });
});
