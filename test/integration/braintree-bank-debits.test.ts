import { createRequire } from 'node:module';
import { beforeEach, describe, expect, it } from 'vitest';
import { useBraintreeIntegration, braintreeCalls } from '../support/braintree-fixtures';
import { testDatabases } from '../support/databases';
import { expectError, rows } from '../support/integration';

/**
 * ACH bank debits through Braintree: the page's braintree-web 3.79.1 `us-bank-account` (the real
 * module, its client's requests answered by the gateway emulator's GraphQL API) tokenizes the
 * account with its mandate; the server vaults the nonce with a network check verification, sells
 * the vaulted account with the device data, and the payment waits `processing` until Braintree's
 * `TRANSACTION_SETTLED` / `TRANSACTION_SETTLEMENT_DECLINED` notifications (signed with the merchant's
 * keys, read and verified by the real SDK) settle, fail or return it.
 */
type UsBankAccountInstance = {
  tokenize(options: { bankDetails?: Record<string, unknown>; mandateText?: string }): Promise<{ nonce: string; type: string; description: string }>;
};
const UsBankAccount = createRequire(import.meta.url)('braintree-web/us-bank-account/us-bank-account.js') as new (options: {
  client: unknown;
}) => UsBankAccountInstance;

describe.each(testDatabases)('Braintree ACH bank debits ($name)', (database) => {
  const bt = useBraintreeIntegration(database, { logLevel: 'info' });
  beforeEach(() => {
    bt.emulator.requests.length = 0;
    bt.emulator.graphQLRequests.length = 0;
  });

  /**
   * braintree-web's us-bank-account over a client whose GraphQL requests reach the emulator (what
   * its `client.request({api: 'graphQLApi'})` posts to Braintree); analytics go nowhere.
   */
  const usBankAccount = () =>
    new UsBankAccount({
      client: {
        request: async (options: { api: string; data: Record<string, unknown> }) => {
          expect(options.api).toBe('graphQLApi');
          const answer = bt.emulator.graphQL(options.data);
          if ('errors' in answer) throw Object.assign(new Error('GraphQL error'), { details: { httpStatus: 422 } });
          return answer;
        },
        getConfiguration: () => ({
          authorization: 'sandbox_emulated_merchant',
          analyticsMetadata: {},
          gatewayConfiguration: { analytics: { url: 'https://client-analytics.invalid' } },
        }),
        _request: (_options: unknown, callback?: () => void) => callback?.(),
      },
    });
  const mandateText = 'By clicking Pay, you authorize Test Shop to debit the bank account above for this payment.';
  const bankDetails = (accountNumber: string) => ({
    routingNumber: '011000015',
    accountNumber,
    accountType: 'checking',
    ownershipType: 'personal',
    firstName: 'Ada',
    lastName: 'Lovelace',
    billingAddress: { streetAddress: '1 Main St', locality: 'Springfield', region: 'IL', postalCode: '62701' },
  });
  const { api, notify, eventTypes } = braintreeCalls(bt);

  /** A USD session offering ACH, paid with the account braintree-web tokenized: the payment's id and its Braintree transaction. */
  async function debit(accountNumber: string) {
    const session = await api('POST', '/v1/checkout/sessions', {
      currency: 'usd',
      line_items: [{ name: 'Standing desk', unit_amount: 45000, quantity: 1 }],
      payment_method_types: ['card', 'us_bank_account'],
    });
    expect(session.statusCode, session.body).toBe(200);
    const tokenized = await usBankAccount().tokenize({ bankDetails: bankDetails(accountNumber), mandateText });
    expect(tokenized.type).toBe('us_bank_account');
    const paid = await bt.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${session.json().id}/payments`,
      payload: { payment_method_type: 'us_bank_account', nonce: tokenized.nonce, email: 'shopper@example.com', device_data: '{"correlation_id":"ach-corr"}' },
    });
    bt.clock.advance(1000);
    const [payment] = await rows(bt.db, 'SELECT id, processor_transaction_id FROM payments WHERE checkout_session_id = $1', [session.json().id]);
    return { sessionId: session.json().id as string, paid, paymentId: String(payment!.id), transactionId: payment!.processor_transaction_id as string | null };
  }

  it('tokenizes as braintree-web sends it, vaults with a network check, sells with device data; TRANSACTION_SETTLED → succeeded', async () => {
    const { sessionId, paid, paymentId, transactionId } = await debit('1000000000');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().status).toBe('processing');

    // braintree-web's mutation, as 3.79.1 builds it.
    expect(bt.emulator.graphQLRequests).toHaveLength(1);
    const [mutation] = bt.emulator.graphQLRequests;
    expect(mutation!.query).toMatch(/^mutation TokenizeUsBankAccount\(\$input: TokenizeUsBankAccountInput!\) \{ {2}tokenizeUsBankAccount\(input: \$input\)/);
    expect(mutation!.input).toEqual({
      achMandate: mandateText,
      routingNumber: '011000015',
      accountNumber: '****0000',
      accountType: 'CHECKING',
      billingAddress: { streetAddress: '1 Main St', extendedAddress: undefined, city: 'Springfield', state: 'IL', zipCode: '62701' },
      individualOwner: { firstName: 'Ada', lastName: 'Lovelace' },
    });
    // Vaulted to the session's customer with Braintree's network check, then the vaulted account sold.
    const vault = bt.emulator.requests.find((r) => r.method === 'POST' && r.path.endsWith('/payment_methods'));
    expect(vault?.body.payment_method).toMatchObject({
      device_data: '{"correlation_id":"ach-corr"}',
      options: { us_bank_account_verification_method: 'network_check', verification_merchant_account_id: 'shop_usd' },
    });
    expect(vault?.body.payment_method.options.verify_card).toBeUndefined();
    const sale = bt.emulator.requests.find((r) => r.method === 'POST' && r.path.endsWith('/transactions'));
    expect(sale?.body.transaction).toMatchObject({
      order_id: paymentId,
      merchant_account_id: 'shop_usd',
      amount: '450.00',
      device_data: '{"correlation_id":"ach-corr"}',
      options: { submit_for_settlement: true },
    });
    expect(sale?.body.transaction.payment_method_token).toEqual(expect.any(String));
    expect(sale?.body.transaction.payment_method_nonce).toBeUndefined();
    // Vaulted only to be debited: removed from the vault once the sale answered.
    expect(bt.emulator.requests.some((r) => r.method === 'DELETE' && r.path.includes('/payment_methods/any/'))).toBe(true);

    const waiting = (await api('GET', `/v1/payments/${paymentId}`)).json();
    expect(waiting).toMatchObject({
      status: 'processing',
      processor_transaction_id: transactionId,
      risk_decision: 'Approve',
      payment_method: {
        type: 'us_bank_account',
        last4: '0000',
        us_bank_account: {
          bank_name: 'FEDERAL RESERVE BANK',
          last4: '0000',
          routing_number: '011000015',
          account_type: 'checking',
          account_holder_type: 'personal',
        },
      },
    });
    expect(await eventTypes(paymentId)).toEqual(['payment.processing']);
    expect(bt.emulator.transactions.get(transactionId!)?.status).toBe('settlement_pending');

    const settled = await notify(bt.emulator.transactionNotification('transaction_settled', transactionId!));
    expect(settled.statusCode, settled.body).toBe(200);
    expect((await api('GET', `/v1/payments/${paymentId}`)).json()).toMatchObject({ status: 'succeeded', amount_captured: 45000, ach_return: null });
    expect((await api('GET', `/v1/checkout/sessions/${sessionId}`)).json()).toMatchObject({ status: 'complete', payment: paymentId });
    // Delivered twice, recorded once.
    await notify(bt.emulator.transactionNotification('transaction_settled', transactionId!));
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.succeeded']);
  });

  it('a session that saves its payment method keeps the vaulted account as the customer’s us_bank_account method; a debit of it settles', async () => {
    const session = await api('POST', '/v1/checkout/sessions', {
      currency: 'usd',
      line_items: [{ name: 'Standing desk', unit_amount: 45000, quantity: 1 }],
      payment_method_types: ['card', 'us_bank_account'],
      payment_method_options: { card: { save: 'on' } },
    });
    expect(session.statusCode, session.body).toBe(200);
    const tokenized = await usBankAccount().tokenize({ bankDetails: bankDetails('1000000000'), mandateText });
    const paid = await bt.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${session.json().id}/payments`,
      payload: { payment_method_type: 'us_bank_account', nonce: tokenized.nonce, email: 'shopper@example.com' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().status).toBe('processing');
    // Kept in the vault, and as the customer's saved method.
    expect(bt.emulator.requests.some((r) => r.method === 'DELETE' && r.path.includes('/payment_methods/'))).toBe(false);
    const customer = (await api('GET', `/v1/checkout/sessions/${session.json().id}`)).json().customer as string;
    const methods = (await api('GET', `/v1/customers/${customer}/payment_methods`)).json().data;
    expect(methods).toHaveLength(1);
    expect(methods[0]).toMatchObject({
      type: 'us_bank_account',
      processor: 'braintree',
      us_bank_account: { bank_name: 'FEDERAL RESERVE BANK', last4: '0000', routing_number: '011000015', account_type: 'checking' },
    });
    expect(methods[0].card).toBeUndefined();

    // The merchant debits it again: a sale of the vaulted token, processing until Braintree settles it.
    bt.emulator.requests.length = 0;
    const charged = await api('POST', '/v1/payments', { customer, payment_method: methods[0].id, amount: 1500, currency: 'usd' });
    expect(charged.statusCode, charged.body).toBe(200);
    expect(charged.json()).toMatchObject({ status: 'processing', payment_method: { type: 'us_bank_account' } });
    const sale = bt.emulator.requests.find((r) => r.method === 'POST' && r.path.endsWith('/transactions'));
    expect(sale?.body.transaction).toMatchObject({ order_id: charged.json().id, amount: '15.00', transaction_source: 'unscheduled' });
    expect(sale?.body.transaction.payment_method_token).toEqual(expect.any(String));
    const settled = await notify(bt.emulator.transactionNotification('transaction_settled', charged.json().processor_transaction_id));
    expect(settled.statusCode, settled.body).toBe(200);
    expect((await api('GET', `/v1/payments/${charged.json().id}`)).json()).toMatchObject({ status: 'succeeded', amount_captured: 1500 });
  });

  it('TRANSACTION_SETTLEMENT_DECLINED before settling → failed; after settling (R01) → returned, and a refund is refused', async () => {
    const declined = await debit('1000000013');
    expect(declined.paid.json().status).toBe('processing');
    await notify(bt.emulator.transactionNotification('transaction_settlement_declined', declined.transactionId!, 'R01'));
    expect((await api('GET', `/v1/payments/${declined.paymentId}`)).json()).toMatchObject({
      status: 'failed',
      failure_code: 'bank_debit_declined',
      processor_response: { code: 'R01', text: 'insufficient_funds' },
    });
    expect(await eventTypes(declined.paymentId)).toEqual(['payment.processing', 'payment.failed']);
    expect((await api('GET', `/v1/checkout/sessions/${declined.sessionId}`)).json().status).toBe('open');

    const returned = await debit('1000000011');
    await notify(bt.emulator.transactionNotification('transaction_settled', returned.transactionId!));
    bt.clock.advance(1000);
    const answered = await notify(bt.emulator.transactionNotification('transaction_settlement_declined', returned.transactionId!, 'R01'));
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await api('GET', `/v1/payments/${returned.paymentId}`)).json()).toMatchObject({
      status: 'succeeded',
      ach_return: { code: 'R01', reason: 'insufficient_funds' },
    });
    expect(await eventTypes(returned.paymentId)).toEqual(['payment.processing', 'payment.succeeded', 'payment.returned']);
    expectError(await api('POST', '/v1/refunds', { payment: returned.paymentId }), 409, 'payment_not_refundable');
    expect(bt.emulator.requests.some((r) => r.path.endsWith('/refund'))).toBe(false);
  });

  it('a network check that declines the account fails the payment at once, with no sale; a forged notification is refused', async () => {
    const refused = await debit('1000000004');
    expectError(refused.paid, 402, 'card_declined', { decline_code: 'do_not_honor' });
    expect(bt.emulator.requests.some((r) => r.method === 'POST' && r.path.endsWith('/transactions'))).toBe(false);
    expect((await api('GET', `/v1/payments/${refused.paymentId}`)).json()).toMatchObject({ status: 'failed', processor_response: { code: '2046' } });

    const ok = await debit('1000000000');
    const form = bt.emulator.transactionNotification('transaction_settled', ok.transactionId!);
    expectError(await notify({ ...form, bt_signature: `${form.bt_signature.split('|')[0]}|${'0'.repeat(40)}` }), 400, 'parameter_invalid', {
      param: 'bt_signature',
    });
    expect((await api('GET', `/v1/payments/${ok.paymentId}`)).json().status).toBe('processing');
  });
});
