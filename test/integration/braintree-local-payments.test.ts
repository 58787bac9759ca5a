import braintree from 'braintree';
import { beforeEach, describe, expect, it } from 'vitest';
import { runJobOnce } from '../../src/runtime/scheduler';
import { emulatedMerchant, useBraintreeIntegration, braintreeCalls } from '../support/braintree-fixtures';
import { testDatabases } from '../support/databases';
import { dumpDatabase, expectError, withoutBookkeeping } from '../support/integration';

/**
 * Local payment methods through Braintree: the page's braintree-web `local-payment` names the
 * payment it opens (`onPaymentStart`'s `paymentId`), the payment waits `processing`, and Braintree's
 * `LOCAL_PAYMENT_COMPLETED` notification (signed with the merchant's keys, read and verified by the
 * real SDK's `webhookNotification.parse`) completes it: the server sells the notification's nonce
 * on the gateway emulator and records the sale. Expired and reversed notifications fail it.
 */
const stranger = new braintree.BraintreeGateway({
  environment: braintree.Environment.Sandbox,
  merchantId: emulatedMerchant.merchantId,
  publicKey: emulatedMerchant.publicKey,
  privateKey: 'not_the_private_key',
});

describe.each(testDatabases)('Braintree local payments ($name)', (database) => {
  const bt = useBraintreeIntegration(database, { logLevel: 'info' });
  beforeEach(() => {
    bt.emulator.requests.length = 0;
  });

  const { api, notify, eventTypes } = braintreeCalls(bt);

  /** An EUR session offering iDEAL, and its local payment started as the page starts it on Braintree. */
  async function started(paymentId = `PAY-${Math.random().toString(36).slice(2).toUpperCase()}`) {
    const session = await api('POST', '/v1/checkout/sessions', {
      currency: 'eur',
      line_items: [{ name: 'Stroopwafels', unit_amount: 4200, quantity: 1 }],
      payment_method_types: ['ideal'],
    });
    expect(session.statusCode, session.body).toBe(200);
    const start = await bt.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${session.json().id}/local-payments`,
      payload: { payment_method_type: 'ideal', email: 'shopper@example.com', local_payment_id: paymentId },
    });
    expect(start.statusCode, start.body).toBe(200);
    bt.clock.advance(1000);
    return { sessionId: session.json().id as string, paymentId: start.json().payment as string, localPaymentId: paymentId };
  }

  it('LOCAL_PAYMENT_COMPLETED sells its nonce with our payment id as order id, on the EUR merchant account: succeeded, with the bank', async () => {
    const { sessionId, paymentId, localPaymentId } = await started();
    expect((await api('GET', `/v1/payments/${paymentId}`)).json()).toMatchObject({ status: 'processing', payment_method: { type: 'ideal' } });

    const { nonce, notification } = bt.emulator.localPaymentCompleted({
      paymentId: localPaymentId,
      fundingSource: 'ideal',
      bic: 'RABONL2U',
      ibanLastChars: '7890',
    });
    const answered = await notify(notification);
    expect(answered.statusCode, answered.body).toBe(200);

    const sale = bt.emulator.requests.find((r) => r.method === 'POST' && r.path.endsWith('/transactions'));
    expect(sale?.body.transaction).toMatchObject({
      payment_method_nonce: nonce,
      order_id: paymentId,
      merchant_account_id: 'shop_eur',
      amount: '42.00',
      options: { submit_for_settlement: true },
    });
    const paid = (await api('GET', `/v1/payments/${paymentId}`)).json();
    expect(paid).toMatchObject({
      status: 'succeeded',
      amount_captured: 4200,
      processor: 'braintree',
      payment_method: { type: 'ideal', ideal: { bank: 'rabobank', bic: 'RABONL2U', iban_last4: '7890' } },
    });
    expect(bt.emulator.transactions.get(paid.processor_transaction_id)?.orderId).toBe(paymentId);
    expect((await api('GET', `/v1/checkout/sessions/${sessionId}`)).json()).toMatchObject({ status: 'complete', payment: paymentId });
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.succeeded']);

    // Braintree sends it again (a retry): acknowledged, nothing sold twice.
    const sales = bt.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/transactions')).length;
    expect((await notify(notification)).statusCode).toBe(200);
    expect(bt.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/transactions'))).toHaveLength(sales);
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.succeeded']);
  });

  it('a completion carrying a transaction made already is looked up by our payment id, never sold again', async () => {
    const { paymentId, localPaymentId } = await started();
    // The transaction Braintree holds for it (made with our payment id as its order id).
    const first = bt.emulator.localPaymentCompleted({ paymentId: localPaymentId, fundingSource: 'ideal', bic: 'INGBNL2A', ibanLastChars: '1234' });
    const made = await bt.tillpoint.deps.processors.forScope({ accountId: bt.accountId, mode: 'test' });
    const sold = await made.authorize({
      paymentId,
      amount: 4200,
      currency: 'EUR',
      capture: true,
      nonce: first.nonce,
      deviceData: null,
      email: null,
      paymentMethodType: 'ideal',
    });
    expect(sold.outcome).toBe('approved');
    const transactionId = (sold as { transactionId: string }).transactionId;
    const before = bt.emulator.requests.filter((r) => r.path.endsWith('/transactions')).length;

    const { notification } = bt.emulator.localPaymentCompleted({ paymentId: localPaymentId, fundingSource: 'ideal', bic: 'INGBNL2A', transactionId });
    expect((await notify(notification)).statusCode).toBe(200);
    expect(bt.emulator.requests.filter((r) => r.path.endsWith('/transactions'))).toHaveLength(before);
    expect((await api('GET', `/v1/payments/${paymentId}`)).json()).toMatchObject({
      status: 'succeeded',
      processor_transaction_id: transactionId,
      payment_method: { type: 'ideal', ideal: { bank: 'ing', bic: 'INGBNL2A' } },
    });
  });

  it('LOCAL_PAYMENT_EXPIRED and LOCAL_PAYMENT_REVERSED fail the payment; a completion after that sells nothing', async () => {
    const expired = await started();
    expect((await notify(bt.emulator.localPaymentEnded('local_payment_expired', expired.localPaymentId))).statusCode).toBe(200);
    expect((await api('GET', `/v1/payments/${expired.paymentId}`)).json()).toMatchObject({ status: 'failed', failure_code: 'local_payment_expired' });
    expect(await eventTypes(expired.paymentId)).toEqual(['payment.processing', 'payment.failed']);

    const late = bt.emulator.localPaymentCompleted({ paymentId: expired.localPaymentId, fundingSource: 'ideal' });
    expect((await notify(late.notification)).statusCode).toBe(200);
    expect(bt.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/transactions'))).toHaveLength(0);
    expect((await api('GET', `/v1/payments/${expired.paymentId}`)).json().status).toBe('failed');

    const reversed = await started();
    expect((await notify(bt.emulator.localPaymentEnded('local_payment_reversed', reversed.localPaymentId))).statusCode).toBe(200);
    expect((await api('GET', `/v1/payments/${reversed.paymentId}`)).json()).toMatchObject({ status: 'failed', failure_code: 'local_payment_expired' });
  });

  it('refuses a notification that does not verify and changes nothing; one about a local payment not ours is acknowledged and ignored', async () => {
    const { paymentId, localPaymentId } = await started();
    const before = withoutBookkeeping(await dumpDatabase(bt.db));
    const genuine = bt.emulator.localPaymentCompleted({ paymentId: localPaymentId, fundingSource: 'ideal' }).notification;
    const forged = { bt_signature: `${emulatedMerchant.publicKey}|${'0'.repeat(40)}`, bt_payload: genuine.bt_payload };
    expectError(await notify(forged), 400, 'parameter_invalid', { param: 'bt_signature' });
    const signedByStranger = stranger.webhookTesting.sampleNotification('local_payment_completed' as never, 'x') as never;
    expectError(await notify(signedByStranger), 400, 'parameter_invalid', { param: 'bt_signature' });
    expect(withoutBookkeeping(await dumpDatabase(bt.db))).toEqual(before);

    const notOurs = bt.emulator.localPaymentCompleted({ paymentId: 'PAY-ANOTHER-INTEGRATION', fundingSource: 'ideal' }).notification;
    expect((await notify(notOurs)).statusCode).toBe(200);
    expect(withoutBookkeeping(await dumpDatabase(bt.db))).toEqual(before);
    expect((await api('GET', `/v1/payments/${paymentId}`)).json().status).toBe('processing');
    expect(bt.logLines.filter((line) => line.includes('Braintree notification refused'))).toHaveLength(2);
  });

  it('needs the page to name its local payment, once; the 3-hour check records a sale whose answer was lost', async () => {
    const session = await api('POST', '/v1/checkout/sessions', {
      currency: 'eur',
      line_items: [{ name: 'Kaas', unit_amount: 900, quantity: 1 }],
      payment_method_types: ['ideal'],
    });
    const start = (body: object) =>
      bt.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${session.json().id}/local-payments`,
        payload: { payment_method_type: 'ideal', email: 'a@example.com', ...body },
      });
    expectError(await start({}), 400, 'parameter_missing', { param: 'local_payment_id' });

    const { paymentId, localPaymentId } = await started('PAY-ONCE');
    expectError(await start({ local_payment_id: 'PAY-ONCE' }), 400, 'parameter_invalid', { param: 'local_payment_id' });

    // The completion's sale goes through at Braintree, but its answer never comes back.
    const { notification } = bt.emulator.localPaymentCompleted({ paymentId: localPaymentId, fundingSource: 'ideal', bic: 'INGBNL2A' });
    bt.emulator.stallNext(2_000);
    expect((await notify(notification)).statusCode).toBe(200);
    expect((await api('GET', `/v1/payments/${paymentId}`)).json().status).toBe('processing');
    // Reconciliation of card payments leaves it alone; the 3-hour check finds the sale by our payment id.
    bt.clock.advance(5 * 60_000);
    await runJobOnce(bt.tillpoint.deps, 'reconciliation');
    expect((await api('GET', `/v1/payments/${paymentId}`)).json().status).toBe('processing');
    bt.clock.advance(3 * 60 * 60_000);
    await runJobOnce(bt.tillpoint.deps, 'local-payment-expiry');
    expect((await api('GET', `/v1/payments/${paymentId}`)).json()).toMatchObject({ status: 'succeeded', payment_method: { type: 'ideal' } });
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.succeeded']);
  });
});
