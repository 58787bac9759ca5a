import braintree from 'braintree';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  describeDecline,
  describeGatewayRejection,
  listedDeclineResponseCodes,
  listedGatewayRejectionReasons,
} from '../../src/domain/processors/processor-responses';
import type { BraintreeSettings } from '../../src/domain/processors/processor-config';
import { BraintreeProcessor, braintreeConnectionCheck } from '../../src/adapters/processors/braintree/braintree-processor';
import { BraintreeGatewayEmulator } from '../support/braintree-gateway-emulator';
import { emulatedMerchant, emulatedMerchantSettings } from '../support/braintree-fixtures';
import type { AuthorizeRequest } from '../../src/domain/processors/ports';

/**
 * The Braintree adapter against the gateway emulator, through the real `braintree` SDK: every row
 * of the outcome mapping, timeouts, and finding a charge again after an unknown outcome.
 */
const credentials = emulatedMerchant;
const settings: BraintreeSettings = emulatedMerchantSettings();

const emulator = new BraintreeGatewayEmulator(credentials);
let processor: BraintreeProcessor;
let impatient: BraintreeProcessor;
let counter = 0;

function sale(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    paymentId: `pay_contract_${++counter}`,
    amount: 1000,
    currency: 'USD',
    capture: true,
    nonce: 'fake-valid-nonce',
    deviceData: '{"correlation_id":"abc"}',
    email: 'shopper@example.com',
    ...overrides,
  };
}

beforeAll(async () => {
  const port = await emulator.start();
  // The SDK's Development environment points at localhost:GATEWAY_PORT, read when it loads.
  (braintree.Environment.Development as unknown as { port: string }).port = String(port);
  // Calls that should be answered get a deadline a loaded machine keeps; the tests of a lost
  // answer use `impatient`, whose deadline the emulator's stall (1.5 s) is far past.
  processor = new BraintreeProcessor(settings, { timeoutMs: 10_000 });
  impatient = new BraintreeProcessor(settings, { timeoutMs: 400 });
});
afterAll(() => emulator.stop());
beforeEach(() => {
  emulator.rules = { cvv: true, avs: true, duplicate: false };
});

describe('Braintree sale outcomes', () => {
  it('approves and captures with submitForSettlement, sending orderId, device data and the merchant account', async () => {
    const request = sale({ currency: 'EUR', amount: 1234 });
    const result = await processor.authorize(request);
    expect(result).toMatchObject({
      outcome: 'approved',
      captured: true,
      paymentMethod: { type: 'card', brand: 'visa', last4: '1881', expMonth: 12, expYear: 2030 },
      response: { code: '1000', text: 'Approved' },
    });
    const sent = emulator.transactions.get((result as { transactionId: string }).transactionId)!;
    expect(sent.request).toMatchObject({
      amount: '12.34',
      payment_method_nonce: 'fake-valid-nonce',
      order_id: request.paymentId,
      merchant_account_id: 'shop_eur',
      device_data: '{"correlation_id":"abc"}',
      options: { submit_for_settlement: true },
    });
    expect(sent.status).toBe('submitted_for_settlement');
  });

  it('only authorizes for manual capture', async () => {
    const result = await processor.authorize(sale({ capture: false }));
    expect(result).toMatchObject({ outcome: 'approved', captured: false });
    expect(emulator.transactions.get((result as { transactionId: string }).transactionId)!.status).toBe('authorized');
  });

  it('a Google Pay nonce comes back as google_pay with the card behind it', async () => {
    const result = await processor.authorize(sale({ nonce: 'fake-android-pay-visa-nonce' }));
    expect(result).toMatchObject({ outcome: 'approved', paymentMethod: { type: 'google_pay', brand: 'visa', last4: '1111' } });
  });

  it.each([
    ['fake-apple-pay-visa-nonce', { type: 'apple_pay', brand: 'visa', last4: '1881' }],
    ['fake-apple-pay-mastercard-nonce', { type: 'apple_pay', brand: 'mastercard', last4: '4444' }],
    ['fake-paypal-one-time-nonce', { type: 'paypal', brand: null, last4: null, payerEmail: 'payer@example.com' }],
    ['fake-venmo-account-nonce', { type: 'venmo', brand: null, last4: null, username: 'venmojoe' }],
  ])('%s comes back as the wallet, with what it reveals', async (nonce, paymentMethod) => {
    const result = await processor.authorize(sale({ nonce }));
    expect(result).toMatchObject({ outcome: 'approved', paymentMethod });
  });

  it('3-D Secure results travel with the nonce: frictionless and challenge passed shift liability; failed and unavailable do not', async () => {
    const strict = new BraintreeProcessor({ ...settings, requireThreeDSecure: true }, { timeoutMs: 10_000 });
    for (const nonce of [
      'fake-three-d-secure-two-visa-successful-frictionless-authentication-nonce',
      'fake-three-d-secure-two-visa-successful-step-up-authentication-nonce',
    ]) {
      expect(await strict.authorize(sale({ nonce }))).toMatchObject({
        outcome: 'approved',
        threeDSecure: { status: 'authenticate_successful', liabilityShifted: true },
      });
    }
    for (const nonce of ['fake-three-d-secure-visa-failed-authentication-nonce', 'fake-three-d-secure-visa-authentication-unavailable-nonce']) {
      expect(await strict.authorize(sale({ nonce }))).toMatchObject({ outcome: 'declined', declineCode: 'authentication_failed' });
    }
    // Wallets carry their own authentication: the page never verifies them.
    expect(await strict.authorize(sale({ nonce: 'fake-paypal-one-time-nonce', paymentMethodType: 'paypal' }))).toMatchObject({ outcome: 'approved' });
  });

  it.each(listedDeclineResponseCodes.map((code) => [code, describeDecline(code).declineCode] as const))(
    'amount %i.00 is a processor decline → %s',
    async (code, declineCode) => {
      const result = await processor.authorize(sale({ amount: code * 100 }));
      expect(result).toMatchObject({ outcome: 'declined', declineCode, response: { code: String(code) } });
    },
  );

  it('an unlisted 2xxx code is do_not_honor; fake-processor-declined-visa-nonce is 2000', async () => {
    expect(await processor.authorize(sale({ amount: 299900 }))).toMatchObject({ outcome: 'declined', declineCode: 'do_not_honor', response: { code: '2999' } });
    expect(await processor.authorize(sale({ nonce: 'fake-processor-declined-visa-nonce' }))).toMatchObject({
      outcome: 'declined',
      declineCode: 'do_not_honor',
      response: { code: '2000', text: 'Do Not Honor' },
      paymentMethod: { brand: 'visa', last4: '0002' },
    });
  });

  it('3000.00 and fake-processor-failure-visa-nonce are the processor network being unavailable', async () => {
    for (const request of [sale({ amount: 300000 }), sale({ nonce: 'fake-processor-failure-visa-nonce' })]) {
      expect(await processor.authorize(request)).toEqual({
        outcome: 'unavailable',
        response: { code: '3000', text: 'Processor Network Unavailable - Try Again' },
      });
    }
  });

  describe('gateway rejections', () => {
    const expectRejection = (result: unknown, reason: string) => {
      const { declineCode, ...response } = describeGatewayRejection(reason);
      expect(result).toMatchObject({ outcome: 'declined', declineCode, response });
    };

    it('CVV 200 → cvv → incorrect_cvc', async () => {
      const nonce = emulator.tokenizeCard({ number: '4111111111111111', cvv: '200', postalCode: '94107' });
      expectRejection(await processor.authorize(sale({ nonce })), 'cvv');
      expect(describeGatewayRejection('cvv').declineCode).toBe('incorrect_cvc');
    });

    it('postal code 20000 → avs → do_not_honor', async () => {
      const nonce = emulator.tokenizeCard({ number: '4111111111111111', cvv: '123', postalCode: '20000' });
      expectRejection(await processor.authorize(sale({ nonce })), 'avs');
      expect(describeGatewayRejection('avs').declineCode).toBe('do_not_honor');
    });

    it('both → avs_and_cvv → incorrect_cvc', async () => {
      const nonce = emulator.tokenizeCard({ number: '4111111111111111', cvv: '200', postalCode: '20000' });
      expectRejection(await processor.authorize(sale({ nonce })), 'avs_and_cvv');
      expect(describeGatewayRejection('avs_and_cvv').declineCode).toBe('incorrect_cvc');
    });

    it('fraud → fraudulent', async () => {
      expectRejection(await processor.authorize(sale({ nonce: 'fake-gateway-rejected-fraud-valid-nonce' })), 'fraud');
      expect(describeGatewayRejection('fraud').declineCode).toBe('fraudulent');
    });

    it('3-D Secure required without authentication → three_d_secure → authentication_failed', async () => {
      const strict = new BraintreeProcessor({ ...settings, requireThreeDSecure: true }, { timeoutMs: 10_000 });
      const rejected = await strict.authorize(sale());
      expectRejection(rejected, 'three_d_secure');
      expect(describeGatewayRejection('three_d_secure').declineCode).toBe('authentication_failed');
      const last = [...emulator.transactions.values()].at(-1)!;
      expect(last.request.options).toEqual({ submit_for_settlement: true, three_d_secure: { required: true } });

      const authenticated = await strict.authorize(sale({ nonce: 'fake-three-d-secure-visa-full-authentication-nonce' }));
      expect(authenticated).toMatchObject({
        outcome: 'approved',
        threeDSecure: { status: 'authenticate_successful', liabilityShifted: true },
      });
    });

    it('the same card and amount again → duplicate → processing_error', async () => {
      emulator.rules.duplicate = true;
      const card = { number: '4111111111111111', cvv: '123', postalCode: '94107' };
      expect(await processor.authorize(sale({ nonce: emulator.tokenizeCard(card), amount: 4242 }))).toMatchObject({ outcome: 'approved' });
      expectRejection(await processor.authorize(sale({ nonce: emulator.tokenizeCard(card), amount: 4242 })), 'duplicate');
      expect(describeGatewayRejection('duplicate').declineCode).toBe('processing_error');
    });

    it('every listed rejection reason has a decline code of the catalogue', () => {
      for (const reason of listedGatewayRejectionReasons) {
        expect(describeGatewayRejection(reason).code).toBe(`gateway_rejected:${reason}`);
      }
      expect(describeGatewayRejection('something_new').declineCode).toBe('processing_error');
    });
  });

  it('validation errors: unknown nonce (91565) and a used nonce (91564) are an invalid payment method', async () => {
    expect(await processor.authorize(sale({ nonce: 'tokencc_never_issued' }))).toEqual({
      outcome: 'invalid_payment_method',
      message: 'Unknown or expired payment method nonce',
    });
    const nonce = emulator.tokenizeCard({ number: '4111111111111111', cvv: '123' });
    expect(await processor.authorize(sale({ nonce }))).toMatchObject({ outcome: 'approved' });
    expect(await processor.authorize(sale({ nonce }))).toMatchObject({ outcome: 'invalid_payment_method' });
  });

  it('a currency without a merchant account is refused before any call', async () => {
    const before = emulator.requests.length;
    expect(await processor.authorize(sale({ currency: 'GBP' }))).toMatchObject({
      outcome: 'unavailable',
      response: { code: 'merchant_account_missing' },
    });
    expect(emulator.requests.length).toBe(before);
  });

  it('a gateway outage (503) and wrong credentials (401) are unavailable: nothing was charged', async () => {
    emulator.unavailableNext();
    expect(await processor.authorize(sale())).toMatchObject({ outcome: 'unavailable', response: { code: 'serviceUnavailableError' } });
    const wrongKey = new BraintreeProcessor({ ...settings, privateKey: 'wrong' }, { timeoutMs: 10_000 });
    expect(await wrongKey.authorize(sale())).toMatchObject({ outcome: 'unavailable', response: { code: 'authenticationError' } });
  });
});

describe('unknown outcomes and reconciliation', () => {
  it('a sale answered after the timeout is unknown; findByPaymentId finds the charge by orderId', async () => {
    const request = sale({ amount: 5150 });
    emulator.stallNext(1500);
    const result = await impatient.authorize(request);
    expect(result).toMatchObject({ outcome: 'unknown' });
    expect((result as { reason: string }).reason).toMatch(/timed out/i);

    const found = await processor.findByPaymentId({ paymentId: request.paymentId });
    expect(found).toMatchObject({
      found: true,
      status: 'submitted_for_settlement',
      authorization: { outcome: 'approved', captured: true, paymentMethod: { brand: 'visa', last4: '1881' } },
    });
  });

  it('a declined sale whose answer was lost is found as declined', async () => {
    const request = sale({ amount: 200100 });
    emulator.stallNext(1500);
    expect(await impatient.authorize(request)).toMatchObject({ outcome: 'unknown' });
    expect(await processor.findByPaymentId({ paymentId: request.paymentId })).toMatchObject({
      found: true,
      authorization: { outcome: 'declined', declineCode: 'insufficient_funds' },
    });
  });

  it('a dropped connection is unknown; a sale that never reached the gateway is not found', async () => {
    const request = sale();
    emulator.dropNext();
    expect(await processor.authorize(request)).toMatchObject({ outcome: 'unknown' });
    expect(await processor.findByPaymentId({ paymentId: request.paymentId })).toEqual({ found: false });
  });
});

describe('lifecycle: capture, void, refund', () => {
  const approved = async (capture: boolean) => {
    const result = await processor.authorize(sale({ capture, amount: 5000 }));
    expect(result.outcome).toBe('approved');
    return (result as { transactionId: string }).transactionId;
  };

  it('captures an authorization (partially), then refuses a second capture', async () => {
    const id = await approved(false);
    expect(await processor.capture({ transactionId: id, amount: 4000, currency: 'USD' })).toMatchObject({ outcome: 'succeeded', transactionId: id });
    expect(emulator.transactions.get(id)).toMatchObject({ status: 'submitted_for_settlement', amount: '40.00' });
    expect(await processor.capture({ transactionId: id, amount: 4000, currency: 'USD' })).toMatchObject({ outcome: 'refused', reason: 'not_capturable' });
  });

  it('voids an unsettled capture; a voided one cannot be voided again', async () => {
    const id = await approved(true);
    expect(await processor.void({ transactionId: id })).toMatchObject({ outcome: 'succeeded' });
    expect(await processor.void({ transactionId: id })).toMatchObject({ outcome: 'refused', reason: 'not_voidable' });
  });

  it('refuses a refund before settlement (not_settled), refunds after, refuses more than is left', async () => {
    const id = await approved(true);
    expect(await processor.refund({ transactionId: id, amount: 1000, currency: 'USD', refundId: 're_1' })).toMatchObject({
      outcome: 'refused',
      reason: 'not_settled',
    });
    emulator.settle(id);
    const refunded = await processor.refund({ transactionId: id, amount: 1000, currency: 'USD', refundId: 're_2' });
    expect(refunded).toMatchObject({ outcome: 'succeeded' });
    expect((refunded as { transactionId: string }).transactionId).not.toBe(id);
    expect(await processor.refund({ transactionId: id, amount: 4500, currency: 'USD', refundId: 're_3' })).toMatchObject({
      outcome: 'refused',
      reason: 'not_refundable',
    });
  });

  it('a capture whose answer is lost is unknown', async () => {
    const id = await approved(false);
    emulator.stallNext(1500);
    expect(await impatient.capture({ transactionId: id, amount: 5000, currency: 'USD' })).toMatchObject({ outcome: 'unknown' });
  });
});

describe('client configuration and the connection check', () => {
  it('issues a client token for the merchant account of the session currency', async () => {
    const config = await processor.clientConfiguration({ currency: 'EUR' });
    expect(config).toMatchObject({ tokenize: 'client', googlePay: { environment: 'TEST' }, threeDSecure: { required: false } });
    const token = JSON.parse(Buffer.from(String(config.clientToken), 'base64').toString('utf8'));
    expect(token).toMatchObject({ merchantAccountId: 'shop_eur', configUrl: expect.stringMatching(/^https:\/\/api\.sandbox\.braintreegateway\.com/) });
  });

  it('says the processor is unavailable instead of failing when the gateway is down', async () => {
    emulator.unavailableNext();
    expect(await processor.clientConfiguration({ currency: 'USD' })).toMatchObject({ clientToken: null, unavailable: 'gateway' });
  });

  it('names what is wrong: keys, merchant id, merchant account, reachability', async () => {
    const check = braintreeConnectionCheck({ timeoutMs: 10_000 });
    expect(await check.check(settings)).toEqual([]);
    expect(await check.check({ ...settings, privateKey: 'nope' })).toMatchObject([{ kind: 'authentication' }]);
    expect(await check.check({ ...settings, merchantId: 'someone_else' })).toMatchObject([{ kind: 'authorization' }]);
    expect(await check.check({ ...settings, merchantAccounts: { USD: 'shop_usd', GBP: 'shop_gbp' } })).toMatchObject([
      { kind: 'merchant_account_missing', currency: 'GBP' },
    ]);
    emulator.dropNext();
    expect(await check.check({ ...settings, merchantAccounts: {} })).toMatchObject([{ kind: 'unreachable' }]);
  });
});
