import braintree from 'braintree';
import { beforeEach, describe, expect, it } from 'vitest';
import { runJobOnce } from '../../src/runtime/scheduler';
import { braintreeCalls, emulatedMerchant, useBraintreeIntegration } from '../support/braintree-fixtures';
import { testDatabases } from '../support/databases';
import { bearer, dumpDatabase, expectError, rows, withoutBookkeeping } from '../support/integration';
import { dumpBusinessData } from '../support/payments';

/**
 * Disputes through Braintree: notifications signed by the SDK's own `webhookTesting`, verified and
 * read by its `webhookNotification.parse`; the catch-up `dispute.search`, and the merchant's
 * actions, against the gateway emulator through the real SDK.
 */
const credentials = emulatedMerchant;
/** The SDK as Braintree's side holds it: it signs sample notifications with the merchant's keys. */
const braintreeSide = new braintree.BraintreeGateway({
  environment: braintree.Environment.Sandbox,
  merchantId: credentials.merchantId,
  publicKey: credentials.publicKey,
  privateKey: credentials.privateKey,
});
/** Someone with a key of their own: their notifications do not verify. */
const stranger = new braintree.BraintreeGateway({
  environment: braintree.Environment.Sandbox,
  merchantId: credentials.merchantId,
  publicKey: credentials.publicKey,
  privateKey: 'not_the_private_key',
});

describe.each(testDatabases)('Braintree disputes ($name)', (database) => {
  const bt = useBraintreeIntegration(database, { logLevel: 'info' });
  beforeEach(() => {
    bt.emulator.disputes.clear();
  });

  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    bt.app.inject({ method, url, headers: bearer(bt.key), ...(payload ? { payload } : {}) });

  /** A shopper pays 250.00 through Braintree; returns the payment's row. */
  async function paid(): Promise<Record<string, any>> {
    const session = await api('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 25000, quantity: 1 }] });
    const pay = await bt.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${session.json().id}/payments`,
      payload: { payment_method_type: 'card', nonce: 'fake-valid-nonce', email: 'shopper@example.com' },
    });
    expect(pay.statusCode, pay.body).toBe(200);
    bt.clock.advance(1000);
    const [payment] = await rows(bt.db, 'SELECT * FROM payments WHERE checkout_session_id = $1', [session.json().id]);
    return payment!;
  }

  const { notify } = braintreeCalls(bt);
  const sample = (kind: string, id: string) =>
    braintreeSide.webhookTesting.sampleNotification(kind as never, id) as unknown as { bt_signature: string; bt_payload: string };

  it('records a dispute from a signed dispute_opened notification; a duplicate is harmless; dispute_won closes it', async () => {
    const payment = await paid();
    // The SDK's sample uses one id for the dispute and its transaction: our payment's transaction.
    const opened = await notify(sample('dispute_opened', payment.processor_transaction_id));
    expect(opened.statusCode, opened.body).toBe(200);
    const [dispute] = await rows(bt.db, 'SELECT * FROM disputes');
    expect(dispute).toMatchObject({
      payment_id: payment.id,
      status: 'needs_response',
      reason: 'fraud',
      currency: 'USD',
      processor: 'braintree',
      processor_dispute_id: payment.processor_transaction_id,
    });
    expect(Number(dispute!.amount)).toBe(25000);
    // The sample's reply-by day, to its last second.
    expect(new Date(dispute!.reply_by).toISOString()).toBe('2014-03-21T23:59:59.000Z');

    const again = await notify(sample('dispute_opened', payment.processor_transaction_id));
    expect(again.statusCode).toBe(200);
    expect(await rows(bt.db, 'SELECT id FROM disputes')).toHaveLength(1);
    const types = async () => (await rows(bt.db, 'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id', [dispute!.id])).map((e) => e.type);
    expect(await types()).toEqual(['dispute.created']);

    bt.clock.advance(1000);
    expect((await notify(sample('dispute_won', payment.processor_transaction_id))).statusCode).toBe(200);
    expect((await api('GET', `/v1/disputes/${dispute!.id}`)).json()).toMatchObject({ status: 'won', closed_at: expect.any(Number) });
    expect(await types()).toEqual(['dispute.created', 'dispute.closed']);
    // A late, out-of-order "under review" does not reopen a decided dispute.
    expect((await notify(sample('dispute_under_review', payment.processor_transaction_id))).statusCode).toBe(200);
    expect(await types()).toEqual(['dispute.created', 'dispute.closed']);
  });

  it('refuses and logs what does not verify, unknown accounts, modes without Braintree and unknown transactions; answers check', async () => {
    const payment = await paid();
    const before = withoutBookkeeping(await dumpDatabase(bt.db));
    const forged = stranger.webhookTesting.sampleNotification('dispute_opened' as never, payment.processor_transaction_id) as never;
    expectError(await notify(forged), 400, 'parameter_invalid', { param: 'bt_signature' });
    const valid = sample('dispute_opened', payment.processor_transaction_id);
    expectError(await notify({ ...valid, bt_payload: valid.bt_payload.replace(/^.{8}/, 'AAAAAAAA') }), 400, 'parameter_invalid', { param: 'bt_signature' });
    expectError(await notify(valid, '/webhooks/braintree/acct_nosuchaccount?mode=test'), 404, 'resource_missing', { param: 'account' });
    expectError(await notify(valid, `/webhooks/braintree/${bt.accountId}?mode=live`), 404, 'resource_missing', { param: 'account' });
    expectError(await notify(valid, `/webhooks/braintree/${bt.accountId}`), 400, 'parameter_invalid', { param: 'mode' });
    expectError(await notify(sample('dispute_opened', 'unknowntx')), 404, 'resource_missing', { param: 'bt_payload' });
    expect(withoutBookkeeping(await dumpDatabase(bt.db))).toEqual(before);
    const refusals = bt.logLines.filter((line) => line.includes('Braintree notification refused'));
    expect(refusals).toHaveLength(5);
    expect(bt.logLines.join('')).not.toContain(credentials.privateKey);

    // Braintree's "check" (sent when the merchant tests the URL) is acknowledged and records nothing.
    expect((await notify(sample('check', 'x'))).statusCode).toBe(200);
    expect(withoutBookkeeping(await dumpDatabase(bt.db))).toEqual(before);
  });

  it('the periodic dispute.search catches up a dispute whose notification was missed, and its later decision', async () => {
    const payment = await paid();
    const opened = bt.emulator.openDispute(payment.processor_transaction_id, { amountDisputed: '120.50' });
    await runJobOnce(bt.tillpoint.deps, 'braintree-dispute-catch-up');
    const [dispute] = await rows(bt.db, 'SELECT * FROM disputes');
    expect(dispute).toMatchObject({ payment_id: payment.id, status: 'needs_response', processor_dispute_id: opened.id });
    expect(Number(dispute!.amount)).toBe(12050);
    const search = bt.emulator.requests.find((r) => r.path.includes('disputes/advanced_search'));
    expect(search?.body.search.received_date).toBeDefined();

    // Found again: nothing new. Then the bank decides while we were not told.
    await runJobOnce(bt.tillpoint.deps, 'braintree-dispute-catch-up');
    expect(await rows(bt.db, 'SELECT type FROM events WHERE object_id = $1', [dispute!.id])).toEqual([{ type: 'dispute.created' }]);
    opened.status = 'lost';
    bt.clock.advance(1000);
    await runJobOnce(bt.tillpoint.deps, 'braintree-dispute-catch-up');
    expect((await api('GET', `/v1/disputes/${dispute!.id}`)).json()).toMatchObject({ status: 'lost' });
  });

  it('carries evidence (text, file), submit and accept to the gateway through the SDK; a refusal there is dispute_not_open', async () => {
    const payment = await paid();
    const first = bt.emulator.openDispute(payment.processor_transaction_id);
    await runJobOnce(bt.tillpoint.deps, 'braintree-dispute-catch-up');
    const [dispute] = await rows(bt.db, 'SELECT id FROM disputes');
    const url = `/v1/disputes/${dispute!.id}`;

    const text = await api('POST', url, { text: 'Delivered and signed for', category: 'PROOF_OF_FULFILLMENT' });
    expect(text.statusCode, text.body).toBe(200);
    const pdf = Buffer.from('%PDF-1.4\nreceipt\n%%EOF\n');
    const file = await api('POST', url, { file: { name: 'receipt.pdf', type: 'application/pdf', data: pdf.toString('base64') } });
    expect(file.statusCode, file.body).toBe(200);
    expect(first.evidence).toMatchObject([
      { comment: 'Delivered and signed for', category: 'PROOF_OF_FULFILLMENT', documentUploadId: null },
      { comment: null, documentUploadId: expect.stringMatching(/^doc_/) },
    ]);
    expect(bt.emulator.documents.get(first.evidence[1]!.documentUploadId!)).toContain('%PDF-1.4');
    expect(file.json().evidence.map((e: { kind: string }) => e.kind)).toEqual(['text', 'file']);

    const submitted = await api('POST', `${url}/submit`);
    expect(submitted.json()).toMatchObject({ status: 'under_review' });
    expect(first.status).toBe('disputed');

    // A second dispute the gateway already closed behind our back: its refusal comes back as ours.
    bt.clock.advance(1000);
    const payment2 = await paid();
    const second = bt.emulator.openDispute(payment2.processor_transaction_id);
    await runJobOnce(bt.tillpoint.deps, 'braintree-dispute-catch-up');
    const [other] = await rows(bt.db, 'SELECT id FROM disputes WHERE processor_dispute_id = $1', [second.id]);
    second.status = 'expired';
    const before = await dumpBusinessData(bt.db);
    expectError(await api('POST', `/v1/disputes/${other!.id}/accept`), 409, 'dispute_not_open');
    expect(await dumpBusinessData(bt.db)).toEqual(before);
    second.status = 'open';
    expect((await api('POST', `/v1/disputes/${other!.id}/accept`)).json()).toMatchObject({ status: 'accepted' });
    expect(second.status).toBe('accepted');

    // The gateway unreachable: processor_unavailable, nothing recorded.
    const third = await paid();
    bt.emulator.openDispute(third.processor_transaction_id);
    await runJobOnce(bt.tillpoint.deps, 'braintree-dispute-catch-up');
    const [open] = await rows(bt.db, `SELECT id FROM disputes WHERE payment_id = $1`, [third.id]);
    bt.emulator.unavailableNext(1);
    const unreachable = await api('POST', `/v1/disputes/${open!.id}/accept`);
    expect([502, 504]).toContain(unreachable.statusCode);
    expect((await api('GET', `/v1/disputes/${open!.id}`)).json().status).toBe('needs_response');
  });
});
