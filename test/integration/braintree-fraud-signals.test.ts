import { beforeEach, describe, expect, it } from 'vitest';
import { useBraintreeIntegration } from '../support/braintree-fixtures';
import { testDatabases } from '../support/databases';
import { bearer, rows } from '../support/integration';

/**
 * Fraud signals through Braintree, against the gateway emulator: the page's device data
 * (braintree-web's data-collector) goes with every sale and with every card saved, and the risk
 * decision Braintree's Advanced Fraud Protection returns for a sale is kept on the payment, which the
 * API and the dashboard show.
 */
describe.each(testDatabases)('Braintree fraud signals ($name)', (database) => {
  const bt = useBraintreeIntegration(database, { logLevel: false });
  beforeEach(() => {
    bt.emulator.requests.length = 0;
  });
  const deviceData = '{"correlation_id":"dc_fraud_1","device_session_id":"kount_1"}';
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    bt.app.inject({ method, url, headers: bearer(bt.key), ...(payload ? { payload } : {}) });
  const pay = (sessionId: string, body: Record<string, unknown>) =>
    bt.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${sessionId}/payments`,
      payload: { payment_method_type: 'card', email: 'ada@example.com', ...body },
    });
  const session = async (extra: Record<string, unknown> = {}) =>
    (await call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 3500, quantity: 1 }], ...extra })).json();
  const paymentOf = async (sessionId: string) => (await call('GET', `/v1/payments?checkout_session=${sessionId}`)).json().data[0];
  const sent = (path: RegExp) => bt.emulator.requests.filter((r) => r.method === 'POST' && path.test(r.path));

  it('a sale carries the device data, and the risk decision comes back on the payment', async () => {
    const s = await session();
    expect((await pay(s.id, { nonce: 'fake-valid-nonce', device_data: deviceData })).statusCode).toBe(200);
    expect(sent(/\/transactions$/).map((r) => r.body.transaction.device_data)).toEqual([deviceData]);
    const payment = await paymentOf(s.id);
    expect(payment).toMatchObject({ status: 'succeeded', risk_decision: 'Approve' });
    const [event] = await rows(bt.db, `SELECT data FROM events WHERE object_id = $1 AND type = 'payment.succeeded'`, [payment.id]);
    expect(event!.data.risk_decision).toBe('Approve');

    // Declined as fraud by the gateway: the decision says so too.
    const fraud = await session();
    expect((await pay(fraud.id, { nonce: 'fake-gateway-rejected-fraud-valid-nonce', device_data: deviceData })).statusCode).toBe(402);
    expect(await paymentOf(fraud.id)).toMatchObject({ status: 'failed', decline_code: 'fraudulent', risk_decision: 'Decline' });

    // No device data (a server's charge, or a page whose collector could not load): nothing screened, nothing shown.
    const bare = await session();
    expect((await pay(bare.id, { nonce: 'fake-valid-visa-nonce' })).statusCode).toBe(200);
    expect((await paymentOf(bare.id)).risk_decision).toBeNull();
  });

  it('a card saved on pay is vaulted with the device data too, and its sale by token carries it', async () => {
    const customer = (await call('POST', '/v1/customers', { email: 'ada@example.com' })).json();
    const s = await session({ customer: customer.id, payment_method_options: { card: { save: 'on' } } });
    const paid = await pay(s.id, { nonce: 'fake-valid-mastercard-nonce', device_data: deviceData });
    expect(paid.statusCode, paid.body).toBe(200);
    const [vaulting] = sent(/\/payment_methods$/);
    expect(vaulting!.body.payment_method).toMatchObject({ customer_id: customer.id, device_data: deviceData, options: { verify_card: true } });
    expect(sent(/\/transactions$/).map((r) => r.body.transaction.device_data)).toEqual([deviceData]);
  });
});
