import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { TillpointError } from '../../src/domain/shared/errors';
import { reconcilePayment } from '../../src/domain/payments/use-cases/reconcile-processing-payments';
import { setProcessorConfig } from '../../src/domain/processors/use-cases/set-processor-config';
import { showProcessorConfig } from '../../src/domain/processors/use-cases/show-processor-config';
import { openTillpoint } from '../../src/runtime/open-tillpoint';
import { runJobOnce } from '../../src/runtime/scheduler';
import { emulatedMerchant, emulatedMerchantSettings, useBraintreeIntegration } from '../support/braintree-fixtures';
import { testDatabases } from '../support/databases';
import { bearer, dumpDatabase, expectError, rows } from '../support/integration';

const credentials = emulatedMerchant;
const braintreeSettings = emulatedMerchantSettings;

describe.each(testDatabases)('paying through Braintree ($name)', (database) => {
  const bt = useBraintreeIntegration(database, { logLevel: 'trace' });

  const openSession = async (amount = 3500, extra: Record<string, unknown> = {}) => {
    const res = await bt.app.inject({
      method: 'POST',
      url: '/v1/checkout/sessions',
      headers: bearer(bt.key),
      payload: { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: amount, quantity: 1 }], ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: string };
  };
  const pay = (sessionId: string, nonce: string, type: 'card' | 'google_pay' = 'card') =>
    bt.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${sessionId}/payments`,
      payload: { payment_method_type: type, nonce, email: 'shopper@example.com', device_data: '{"correlation_id":"dc1"}' },
    });
  const paymentsOf = (sessionId: string) => rows(bt.db, 'SELECT * FROM payments WHERE checkout_session_id = $1 ORDER BY created_at, id', [sessionId]);

  it('stores the private bt.key encrypted and never shows it', async () => {
    const dump = JSON.stringify(await dumpDatabase(bt.db));
    expect(dump).not.toContain(credentials.privateKey);
    const [row] = await rows(bt.db, 'SELECT private_key_sealed FROM processor_configs WHERE account_id = $1', [bt.accountId]);
    expect(row!.private_key_sealed).toMatch(/^v1:/);
    const view = await showProcessorConfig(bt.tillpoint.processorSettings, { accountId: bt.accountId, mode: 'test' });
    expect(view.braintree).toMatchObject({ merchant_id: credentials.merchantId, private_key: 'set' });
    expect(JSON.stringify(view)).not.toContain(credentials.privateKey);
  });

  it("the checkout page gets a client token for the session currency's merchant account", async () => {
    const session = await openSession(3500, { currency: 'eur' });
    const res = await bt.app.inject({ method: 'GET', url: `/api/checkout/sessions/${session.id}` });
    expect(res.statusCode, res.body).toBe(200);
    const processor = res.json().processor;
    expect(processor).toMatchObject({ name: 'braintree', tokenize: 'client', googlePay: { environment: 'TEST' } });
    const token = JSON.parse(Buffer.from(processor.clientToken, 'base64').toString('utf8'));
    expect(token.merchantAccountId).toBe('shop_eur');
  });

  it('pays with a nonce: sale with orderId = payment id, device data, capture; the payment records the card', async () => {
    const session = await openSession();
    const res = await pay(session.id, 'fake-valid-nonce');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('succeeded');
    const [payment] = await paymentsOf(session.id);
    expect(payment).toMatchObject({ status: 'succeeded', processor: 'braintree', payment_method: { type: 'card', brand: 'visa', last4: '1881' } });
    const sale = bt.emulator.transactions.get(payment!.processor_transaction_id)!;
    expect(sale.request).toMatchObject({
      amount: '35.00',
      order_id: payment!.id,
      merchant_account_id: 'shop_usd',
      device_data: '{"correlation_id":"dc1"}',
      options: { submit_for_settlement: true },
    });
    expect(bt.logLines.join('')).not.toContain(credentials.privateKey);
  });

  it('manual capture only authorizes', async () => {
    const session = await openSession(3500, { capture_method: 'manual' });
    const res = await pay(session.id, 'fake-valid-nonce');
    expect(res.json().status).toBe('requires_capture');
    const [payment] = await paymentsOf(session.id);
    expect(bt.emulator.transactions.get(payment!.processor_transaction_id)!.status).toBe('authorized');
  });

  it('Google Pay through Braintree records a google_pay payment', async () => {
    const session = await openSession();
    const res = await pay(session.id, 'fake-android-pay-visa-nonce', 'google_pay');
    expect(res.statusCode, res.body).toBe(200);
    const [payment] = await paymentsOf(session.id);
    expect(payment!.payment_method).toMatchObject({ type: 'google_pay', brand: 'visa', last4: '1111' });
  });

  it('maps declines, rejections, validation errors and outages onto the catalogue', async () => {
    expectError(await pay((await openSession(200100)).id, 'fake-valid-nonce'), 402, 'card_declined', { decline_code: 'insufficient_funds' });
    expectError(await pay((await openSession()).id, 'fake-gateway-rejected-fraud-valid-nonce'), 402, 'card_declined', { decline_code: 'fraudulent' });
    expectError(await pay((await openSession()).id, 'tokencc_unknown'), 400, 'parameter_invalid', { param: 'payment_method' });
    expectError(await pay((await openSession(300000)).id, 'fake-valid-nonce'), 502, 'processor_unavailable');
    const failed = await rows(bt.db, 'SELECT status, failure_code, decline_code FROM payments ORDER BY amount, decline_code');
    expect(failed.map((p) => [p.status, p.failure_code, p.decline_code])).toEqual([
      ['failed', 'card_declined', 'fraudulent'],
      ['failed', 'parameter_invalid', null],
      ['failed', 'card_declined', 'insufficient_funds'],
      ['failed', 'processor_unavailable', null],
    ]);
  });

  it('records 3-D Secure when the account requires it; without authentication the sale is refused', async () => {
    await setProcessorConfig(bt.tillpoint.processorSettings, {
      accountId: bt.accountId,
      mode: 'test',
      actor: null,
      processor: 'braintree',
      braintree: braintreeSettings({ requireThreeDSecure: true }),
    });
    const page = await bt.app.inject({ method: 'GET', url: `/api/checkout/sessions/${(await openSession()).id}` });
    expect(page.json().processor.threeDSecure).toEqual({ required: true });

    expectError(await pay((await openSession()).id, 'fake-valid-nonce'), 402, 'card_declined', { decline_code: 'authentication_failed' });
    const session = await openSession();
    expect((await pay(session.id, 'fake-three-d-secure-visa-full-authentication-nonce')).statusCode).toBe(200);
    const [payment] = await paymentsOf(session.id);
    expect(payment!.three_d_secure).toEqual({ status: 'authenticate_successful', liabilityShifted: true });
    const api = await bt.app.inject({ method: 'GET', url: `/v1/payments/${payment!.id}`, headers: bearer(bt.key) });
    expect(api.json().three_d_secure).toEqual({ status: 'authenticate_successful', liability_shifted: true });
  });

  it('when the issuer asks (2099), the retry with a 3-D Secure nonce succeeds and records the liability shift', async () => {
    const session = await openSession(209_900);
    expectError(await pay(session.id, 'fake-valid-nonce'), 402, 'card_declined', { decline_code: 'authentication_failed' });
    const [declined] = await paymentsOf(session.id);
    expect(declined).toMatchObject({ status: 'failed', decline_code: 'authentication_failed' });
    expect(declined!.three_d_secure).toBeNull();
    expect(declined!.processor_response).toEqual({ code: '2099', text: 'Cardholder Authentication Required' });

    // The page verified the card and retries once in the same session.
    expect((await pay(session.id, 'fake-three-d-secure-visa-full-authentication-nonce')).statusCode).toBe(200);
    const retried = (await paymentsOf(session.id)).find((p) => p.id !== declined!.id);
    expect(retried).toMatchObject({ status: 'succeeded', three_d_secure: { status: 'authenticate_successful', liabilityShifted: true } });
  });

  it('the three_d_secure flag: always requires it in every card sale; off never does, even where the account requires it', async () => {
    const setFlag = (value: string) =>
      bt.app.inject({
        method: 'POST',
        url: '/v1/flags/three_d_secure',
        headers: { ...bearer(bt.key), 'idempotency-key': randomBytes(8).toString('hex') },
        payload: { value },
      });
    const lastSale = () => [...bt.emulator.transactions.values()].filter((t) => t.type === 'sale').at(-1)!;

    expect((await setFlag('always')).statusCode).toBe(200);
    expectError(await pay((await openSession()).id, 'fake-valid-nonce'), 402, 'card_declined', { decline_code: 'authentication_failed' });
    expect(lastSale()).toMatchObject({ gatewayRejectionReason: 'three_d_secure', request: { options: { three_d_secure: { required: true } } } });
    expect((await pay((await openSession()).id, 'fake-three-d-secure-visa-full-authentication-nonce')).statusCode).toBe(200);
    // Wallets are not verified on the page, so `always` does not require it of them.
    expect((await pay((await openSession()).id, 'fake-android-pay-visa-nonce', 'google_pay')).statusCode).toBe(200);

    // Processors are cached by the config's save time: a later save must be later.
    bt.clock.advance(1000);
    await setProcessorConfig(bt.tillpoint.processorSettings, {
      accountId: bt.accountId,
      mode: 'test',
      actor: null,
      processor: 'braintree',
      braintree: braintreeSettings({ requireThreeDSecure: true }),
    });
    expect((await setFlag('off')).statusCode).toBe(200);
    expect((await pay((await openSession()).id, 'fake-valid-nonce')).statusCode).toBe(200);
    expect(lastSale().request.options?.three_d_secure).toBeUndefined();

    expect((await setFlag('when_required')).statusCode).toBe(200);
    expectError(await pay((await openSession()).id, 'fake-valid-nonce'), 402, 'card_declined', { decline_code: 'authentication_failed' });
  });

  it('a timeout leaves the payment processing; reconciliation finds the charge by orderId and completes the session', async () => {
    const session = await openSession();
    bt.emulator.stallNext(2000);
    expectError(await pay(session.id, 'fake-valid-nonce'), 504, 'processor_timeout');
    const [pending] = await paymentsOf(session.id);
    expect(pending!.status).toBe('processing');
    // A second attempt must wait: the first may have charged.
    expectError(await pay(session.id, 'fake-valid-nonce'), 409, 'idempotency_key_in_use');

    const reconciled = await reconcilePayment(bt.tillpoint.deps, { paymentId: pending!.id });
    expect(reconciled).toMatchObject({ settled: true, payment: { status: 'succeeded', paymentMethod: { last4: '1881' } } });
    const after = await bt.app.inject({ method: 'GET', url: `/v1/checkout/sessions/${session.id}`, headers: bearer(bt.key) });
    expect(after.json()).toMatchObject({ status: 'complete', payment: pending!.id });
  });

  it('a sale that never reached the gateway stays processing, then fails once it cannot arrive any more', async () => {
    const session = await openSession();
    bt.emulator.dropNext();
    expectError(await pay(session.id, 'fake-valid-nonce'), 504, 'processor_timeout');
    const [pending] = await paymentsOf(session.id);
    expect((await reconcilePayment(bt.tillpoint.deps, { paymentId: pending!.id })).settled).toBe(false);
    bt.clock.advance(11 * 60 * 1000);
    expect(await reconcilePayment(bt.tillpoint.deps, { paymentId: pending!.id })).toMatchObject({
      settled: true,
      payment: { status: 'failed', failureCode: 'processor_timeout' },
    });
    expect((await pay(session.id, 'fake-valid-nonce')).statusCode).toBe(200);
  });

  it('a capture and a refund whose answers are lost are found with transaction.search/find and recorded as made', async () => {
    const merchant = (method: 'POST' | 'GET', url: string, payload?: object) =>
      bt.app.inject({ method, url, headers: { ...bearer(bt.key), 'idempotency-key': randomBytes(8).toString('hex') }, payload });
    const session = await openSession(5000, { capture_method: 'manual' });
    expect((await pay(session.id, 'fake-valid-nonce')).statusCode).toBe(200);
    const [payment] = await paymentsOf(session.id);
    bt.emulator.stallNext(2000);
    expectError(await merchant('POST', `/v1/payments/${payment!.id}/capture`, { amount: 4000 }), 504, 'processor_timeout');
    bt.clock.advance(61_000);
    expect(await runJobOnce(bt.tillpoint.deps, 'operation-reconciliation')).toEqual({ resolved: 1, pending: 0 });
    expect((await merchant('GET', `/v1/payments/${payment!.id}`)).json()).toMatchObject({ status: 'succeeded', amount_captured: 4000 });

    bt.emulator.settle(payment!.processor_transaction_id);
    bt.emulator.stallNext(2000);
    expectError(await merchant('POST', '/v1/refunds', { payment: payment!.id, amount: 1500 }), 504, 'processor_timeout');
    bt.clock.advance(61_000);
    expect(await runJobOnce(bt.tillpoint.deps, 'operation-reconciliation')).toEqual({ resolved: 1, pending: 0 });
    const refunds = (await merchant('GET', `/v1/refunds?payment=${payment!.id}`)).json().data;
    const made = [...bt.emulator.transactions.values()].find((t) => t.type === 'credit')!;
    expect(refunds).toMatchObject([{ status: 'succeeded', amount: 1500 }]);
    expect(made).toMatchObject({ orderId: refunds[0].id, amount: '15.00' });
    expect((await merchant('GET', `/v1/payments/${payment!.id}`)).json()).toMatchObject({ amount_refunded: 1500 });

    // A refund that never reached the gateway: the search finds the sale without it, and it fails
    // once the lease has run out, its amount free to refund again.
    bt.emulator.dropNext();
    expectError(await merchant('POST', '/v1/refunds', { payment: payment!.id, amount: 2500 }), 504, 'processor_timeout');
    expectError(await merchant('POST', '/v1/refunds', { payment: payment!.id, amount: 1 }), 409, 'refund_exceeds_available', { param: 'amount' });
    bt.clock.advance(61_000);
    expect(await runJobOnce(bt.tillpoint.deps, 'operation-reconciliation')).toEqual({ resolved: 1, pending: 0 });
    expect((await merchant('GET', `/v1/refunds?payment=${payment!.id}`)).json().data).toMatchObject([
      { status: 'failed', amount: 2500, failure_reason: 'processor_timeout' },
      { status: 'succeeded', amount: 1500 },
    ]);
    expect((await merchant('POST', '/v1/refunds', { payment: payment!.id, amount: 2500 })).json()).toMatchObject({ status: 'succeeded', amount: 2500 });
    expect((await merchant('GET', `/v1/payments/${payment!.id}`)).json()).toMatchObject({ amount_refunded: 4000 });
  });

  it('the test processor never serves live mode; Braintree live mode needs a production account', async () => {
    await expect(setProcessorConfig(bt.tillpoint.processorSettings, { accountId: bt.accountId, mode: 'live', actor: null, processor: 'test' })).rejects.toThrow(
      /never serves live mode/,
    );
    await expect(
      setProcessorConfig(bt.tillpoint.processorSettings, {
        accountId: bt.accountId,
        mode: 'live',
        actor: null,
        processor: 'braintree',
        braintree: braintreeSettings(),
      }),
    ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'environment' });
  });

  it('without TILLPOINT_SECRET_KEY, Braintree credentials cannot be stored, and the message says what to do', async () => {
    const bare = await openTillpoint({ db: bt.db, publicUrl: 'http://checkout.test' });
    const attempt = setProcessorConfig(bare.processorSettings, {
      accountId: bt.accountId,
      mode: 'test',
      actor: null,
      processor: 'braintree',
      braintree: braintreeSettings(),
    });
    await expect(attempt).rejects.toBeInstanceOf(TillpointError);
    await expect(attempt).rejects.toThrow(/TILLPOINT_SECRET_KEY/);
  });

  describe('Google Pay with the test processor (gateway "example")', () => {
    const googleToken = JSON.stringify({
      signature: 'MEUCIQDtestsignature',
      intermediateSigningKey: { signedKey: '{}', signatures: ['MEYCIQ'] },
      protocolVersion: 'ECv2',
      signedMessage: '{"encryptedMessage":"test","ephemeralPublicKey":"test","tag":"test"}',
    });

    beforeEach(async () => {
      await setProcessorConfig(bt.tillpoint.processorSettings, { accountId: bt.accountId, mode: 'test', actor: null, processor: 'test' });
    });

    it('exchanges the token for a nonce and pays: type google_pay with the network and last4 Google gave', async () => {
      const session = await openSession();
      const page = await bt.app.inject({ method: 'GET', url: `/api/checkout/sessions/${session.id}` });
      expect(page.json().processor).toMatchObject({ name: 'test', googlePay: { gateway: 'example', gatewayMerchantId: 'exampleGatewayMerchantId' } });
      const token = await bt.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${session.id}/google-pay-tokens`,
        payload: { token: googleToken, card_network: 'MASTERCARD', card_details: '4444' },
      });
      expect(token.statusCode, token.body).toBe(200);
      expect(token.json()).toMatchObject({ brand: 'mastercard', last4: '4444' });
      const res = await pay(session.id, token.json().nonce, 'google_pay');
      expect(res.statusCode, res.body).toBe(200);
      const [payment] = await paymentsOf(session.id);
      expect(payment!.payment_method).toMatchObject({ type: 'google_pay', brand: 'mastercard', last4: '4444' });
    });

    it('refuses what is not a test-gateway token, and refuses it when the account uses Braintree', async () => {
      const session = await openSession();
      const call = (payload: Record<string, unknown>) =>
        bt.app.inject({ method: 'POST', url: `/api/checkout/sessions/${session.id}/google-pay-tokens`, payload });
      expectError(await call({ token: 'not json', card_network: 'VISA', card_details: '1111' }), 400, 'parameter_invalid', { param: 'token' });
      expectError(await call({ token: '{"protocolVersion":"ECv2"}', card_network: 'VISA', card_details: '1111' }), 400, 'parameter_invalid', {
        param: 'token',
      });
      await setProcessorConfig(bt.tillpoint.processorSettings, {
        accountId: bt.accountId,
        mode: 'test',
        actor: null,
        processor: 'braintree',
        braintree: braintreeSettings(),
      });
      expectError(await call({ token: googleToken, card_network: 'VISA', card_details: '1111' }), 400, 'parameter_invalid', { param: 'token' });
    });
  });
});
