import { describe, expect, it } from 'vitest';
import { getAnalytics } from '../../src/domain/payments/use-cases/get-analytics';
import { getOverview } from '../../src/domain/payments/use-cases/get-overview';
import { getPaymentStory } from '../../src/domain/payments/use-cases/get-payment-story';
import { paymentStoryView } from '../../src/http/views/payment-story';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { createSession, dumpDatabase, expectError, merchantCall, rows, useIntegration, withoutBookkeeping } from '../support/integration';

/**
 * ACH bank debits (`us_bank_account`) in test mode: the account tokenized on the checkout page's
 * endpoint with its mandate, vaulted and verified, debited `processing` until the test processor
 * settles it (what Braintree notifies as TRANSACTION_SETTLED), then `succeeded`; the test accounts
 * that are returned after settling (R01, R02) or declined instead (TRANSACTION_SETTLEMENT_DECLINED).
 */
describe.each(testDatabases)('ACH bank debits in test mode ($name)', (database) => {
  const ctx = useIntegration(database);
  const dollars = {
    currency: 'usd',
    line_items: [{ name: 'Standing desk', unit_amount: 45000, quantity: 1 }],
    payment_method_types: ['card', 'us_bank_account'],
  };
  const mandate = 'By clicking Pay, you authorize Demo Shop to debit the bank account above for this payment.';
  const account = (accountNumber: string, extra: Record<string, unknown> = {}) => ({
    routing_number: '011000015',
    account_number: accountNumber,
    account_type: 'checking',
    account_holder_type: 'personal',
    account_holder_name: 'Ada Lovelace',
    mandate_text: mandate,
    ...extra,
  });
  const tokenize = (sessionId: string, body: Record<string, unknown>) =>
    ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/bank-account-tokens`, payload: body });
  const pay = (sessionId: string, body: Record<string, unknown>) =>
    ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${sessionId}/payments`,
      payload: { payment_method_type: 'us_bank_account', email: 'shopper@example.com', ...body },
    });
  /** Tokenizes the account and pays the session with it; the payment's id. */
  const debit = async (sessionId: string, accountNumber: string) => {
    const token = await tokenize(sessionId, account(accountNumber));
    expect(token.statusCode, token.body).toBe(200);
    const paid = await pay(sessionId, { nonce: token.json().nonce, device_data: '{"correlation_id":"ach-device"}' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().status).toBe('processing');
    const [row] = await rows(ctx.db, 'SELECT id FROM payments WHERE checkout_session_id = $1 ORDER BY created_at DESC LIMIT 1', [sessionId]);
    return String(row!.id);
  };
  const payment = async (id: string) => (await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/${id}`)).json();
  const session = async (id: string) => (await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${id}`)).json();
  const eventTypes = async (id: string) =>
    (await rows(ctx.db, 'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id', [id])).map((e) => e.type);
  /** The test processor's bank reports what is due (its job, run now). */
  const bankReports = () => runJobOnce(ctx.h.tillpoint.deps, 'test-processor-bank-debits');
  /** The default test delay: 5 s to settle, 5 s more for a return. */
  const SETTLE_MS = 5_000;

  it('settles after the delay: processing with its account, then succeeded, the session complete, events in order', async () => {
    const s = await createSession(ctx, dollars);
    const paymentId = await debit(s.id, '1000000000');
    const waiting = await payment(paymentId);
    expect(waiting).toMatchObject({
      status: 'processing',
      amount: 45000,
      amount_captured: 0,
      payment_method: {
        type: 'us_bank_account',
        last4: '0000',
        us_bank_account: {
          bank_name: 'Tillpoint Test Bank',
          last4: '0000',
          routing_number: '011000015',
          account_type: 'checking',
          account_holder_type: 'personal',
        },
      },
      ach_return: null,
    });
    expect(waiting.processor_transaction_id).toEqual(expect.any(String));
    expect(await eventTypes(paymentId)).toEqual(['payment.processing']);
    expect((await session(s.id)).status).toBe('open');

    // Not yet: the bank settles it after the delay; reconciliation leaves it alone meanwhile.
    ctx.h.clock.advance(SETTLE_MS - 1000);
    await bankReports();
    ctx.h.clock.advance(2 * 60 * 1000 - SETTLE_MS);
    await runJobOnce(ctx.h.tillpoint.deps, 'reconciliation');
    // (the clock passed the settlement meanwhile; only the bank's report may decide it)
    expect((await payment(paymentId)).status).toBe('processing');
    await bankReports();
    expect(await payment(paymentId)).toMatchObject({ status: 'succeeded', amount_captured: 45000, ach_return: null });
    expect(await session(s.id)).toMatchObject({ status: 'complete', payment: paymentId });
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.succeeded']);
    const [processing] = await rows(ctx.db, `SELECT data FROM events WHERE object_id = $1 AND type = 'payment.processing'`, [paymentId]);
    expect(processing!.data.payment_method.us_bank_account).toMatchObject({ last4: '0000', routing_number: '011000015' });
    // Reported once.
    ctx.h.clock.advance(60_000);
    await bankReports();
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.succeeded']);

    // Found by its way to pay (the search's payment_method_type), apart from card payments.
    const card = await createSession(ctx, dollars);
    await pay(card.id, { payment_method_type: 'card', nonce: 'fake-valid-nonce' });
    const search = async (type: string) =>
      (await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/search?query=${encodeURIComponent(`payment_method_type:'${type}'`)}`)).json();
    expect((await search('us_bank_account')).data.map((p: { id: string }) => p.id)).toEqual([paymentId]);
    expect((await search('card')).data).toHaveLength(1);
    expectError(
      await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/search?query=${encodeURIComponent("payment_method_type:'cheque'")}`),
      400,
      'parameter_invalid',
      {
        param: 'query',
      },
    );

    // Analytics' success rate by method counts it as us_bank_account (the dashboard names it "US bank account (ACH)").
    const now = ctx.h.clock.now();
    const analytics = await getAnalytics(ctx.h.tillpoint.deps, {
      scope: { accountId: ctx.accountId, mode: 'test' },
      from: new Date(now.getTime() - 86_400_000),
      before: new Date(now.getTime() + 86_400_000),
    });
    expect(analytics.methods).toContainEqual({ method: 'us_bank_account', finished: 1, approved: 1 });

    // A settled debit that was not returned refunds as any payment.
    const refund = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: paymentId, amount: 1000 });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json().status).toBe('succeeded');
  });

  it('R01 after settling: the payment stays succeeded, gains ach_return and payment.returned; a refund after it is refused', async () => {
    const s = await createSession(ctx, dollars);
    const paymentId = await debit(s.id, '1000000011');
    ctx.h.clock.advance(SETTLE_MS);
    await bankReports();
    expect((await payment(paymentId)).status).toBe('succeeded');
    // Settled and returned are never reported in one run: the return comes after the settlement.
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.succeeded']);

    ctx.h.clock.advance(SETTLE_MS);
    await bankReports();
    const returned = await payment(paymentId);
    expect(returned).toMatchObject({
      status: 'succeeded',
      amount_captured: 45000,
      amount_refunded: 0,
      ach_return: { code: 'R01', reason: 'insufficient_funds', returned_at: Math.floor(ctx.h.clock.now().getTime() / 1000) },
    });
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.succeeded', 'payment.returned']);
    const [event] = await rows(ctx.db, `SELECT data FROM events WHERE object_id = $1 AND type = 'payment.returned'`, [paymentId]);
    expect(event!.data.ach_return).toMatchObject({ code: 'R01', reason: 'insufficient_funds' });
    expect((await session(s.id)).status).toBe('complete');

    // The bank gave the money back: a refund would pay the shopper twice. Refused, nothing written.
    const before = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(await merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: paymentId }), 409, 'payment_not_refundable');
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before);
    // A second report of the return changes nothing.
    ctx.h.clock.advance(60_000);
    await bankReports();
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.succeeded', 'payment.returned']);
  });

  it('R02 after settling: account_closed; a partial refund made before the return stays, and no other is taken after', async () => {
    const s = await createSession(ctx, dollars);
    const paymentId = await debit(s.id, '1000000012');
    ctx.h.clock.advance(SETTLE_MS);
    await bankReports();
    const refund = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: paymentId, amount: 5000 });
    expect(refund.json().status).toBe('succeeded');
    ctx.h.clock.advance(SETTLE_MS);
    await bankReports();
    expect(await payment(paymentId)).toMatchObject({
      status: 'succeeded',
      amount_refunded: 5000,
      ach_return: { code: 'R02', reason: 'account_closed' },
    });
    expectError(await merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: paymentId, amount: 100 }), 409, 'payment_not_refundable');
    expect((await rows(ctx.db, 'SELECT id FROM refunds WHERE payment_id = $1', [paymentId])).length).toBe(1);

    // The bank took the whole debit back, on top of the refund already sent: the payment's page and the
    // Overview count it as lost, and the net volume falls by it.
    const scope = { accountId: ctx.accountId, mode: 'test' } as const;
    const story = await getPaymentStory(ctx.h.tillpoint.deps, { scope, id: paymentId, role: 'owner' });
    const view = paymentStoryView(story, { accountId: ctx.accountId, userId: 'usr_owner', role: 'owner', createdAt: new Date() });
    expect({ captured: view.amount_captured, refunded: view.amount_refunded, lost: view.amount_lost }).toEqual({
      captured: 45000,
      refunded: 5000,
      lost: 45000,
    });
    const overview = await getOverview(ctx.h.tillpoint.deps, { scope, days: 1 });
    expect(overview.figures[0]?.current).toMatchObject({ captured: 45000, refunded: 5000, lost: 45000, net: -5000 });
  });

  it('declined instead of settling: failed (bank_debit_declined, R01), the session takes another attempt', async () => {
    const s = await createSession(ctx, dollars);
    const paymentId = await debit(s.id, '1000000013');
    ctx.h.clock.advance(SETTLE_MS);
    await bankReports();
    expect(await payment(paymentId)).toMatchObject({
      status: 'failed',
      failure_code: 'bank_debit_declined',
      processor_response: { code: 'R01', text: 'insufficient_funds' },
      ach_return: null,
    });
    expect(await eventTypes(paymentId)).toEqual(['payment.processing', 'payment.failed']);
    expect((await session(s.id)).status).toBe('open');
    // Another account pays the same session.
    const second = await debit(s.id, '1000000001');
    ctx.h.clock.advance(SETTLE_MS);
    await bankReports();
    expect((await payment(second)).status).toBe('succeeded');
    expect(await session(s.id)).toMatchObject({ status: 'complete', payment: second });
  });

  it("an account its verification declines: failed at once (2046), nothing debited; any other number is Braintree's 2038", async () => {
    const s = await createSession(ctx, dollars);
    const token = (await tokenize(s.id, account('1000000004'))).json();
    expectError(await pay(s.id, { nonce: token.nonce }), 402, 'card_declined', { decline_code: 'do_not_honor' });
    const [failed] = await rows(ctx.db, 'SELECT id, status, processor_response FROM payments WHERE checkout_session_id = $1', [s.id]);
    expect(failed).toMatchObject({ status: 'failed', processor_response: { code: '2046' } });
    expect(await rows(ctx.db, 'SELECT transaction_id FROM test_processor_bank_debits')).toEqual([]);
    ctx.h.clock.advance(1000);
    const other = (await tokenize(s.id, account('123456789'))).json();
    const refused = await pay(s.id, { nonce: other.nonce });
    expect(refused.statusCode).toBe(402);
    expect(
      (await rows(ctx.db, 'SELECT processor_response FROM payments WHERE checkout_session_id = $1 ORDER BY created_at DESC LIMIT 1', [s.id]))[0],
    ).toMatchObject({
      processor_response: { code: '2038' },
    });
  });

  it('USD only and never captured later; bad bank details and nonces refused; every refusal changes nothing', async () => {
    const refusal = (body: Record<string, unknown>) => merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', { ...dollars, ...body });
    const beforeSessions = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(await refusal({ currency: 'eur' }), 400, 'parameter_invalid', { param: 'payment_method_types' });
    expectError(await refusal({ capture_method: 'manual' }), 400, 'parameter_invalid', { param: 'capture_method' });
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(beforeSessions);
    const message = (await refusal({ currency: 'eur' })).json().error.message;
    expect(message).toContain('USD');

    const s = await createSession(ctx, dollars);
    const cardOnly = await createSession(ctx, { ...dollars, payment_method_types: ['card'] });
    const before = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(await tokenize(cardOnly.id, account('1000000000')), 400, 'parameter_invalid', { param: 'payment_method_type' });
    expectError(await tokenize(s.id, account('1000000000', { routing_number: '011000016' })), 400, 'parameter_invalid', { param: 'routing_number' });
    expectError(await tokenize(s.id, account('12')), 400, 'parameter_invalid', { param: 'account_number' });
    expectError(await tokenize(s.id, account('1000000000', { mandate_text: ' ' })), 400, 'parameter_invalid', { param: 'mandate_text' });
    expectError(await tokenize(s.id, account('1000000000', { account_type: 'brokerage' })), 400, 'parameter_invalid', { param: 'account_type' });
    expectError(await tokenize(s.id, account('1000000000', { iban: 'x' })), 400, 'parameter_unknown', { param: 'iban' });
    expectError(await pay(s.id, {}), 400, 'parameter_missing', { param: 'nonce' });
    expectError(await pay(s.id, { payment_method: 'pm_saved' }), 400, 'parameter_invalid', { param: 'payment_method' });
    expectError(await pay(cardOnly.id, { nonce: 'fake-us-bank-account-nonce' }), 400, 'parameter_invalid', { param: 'payment_method_type' });
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before);

    // A card's nonce does not pay as a bank account (a failed attempt, as any refused nonce is), nor a bank account's as a card.
    expectError(await pay(s.id, { nonce: 'fake-valid-nonce' }), 400, 'parameter_invalid', { param: 'payment_method' });
    const bankNonce = (await tokenize(s.id, account('1000000000'))).json().nonce;
    expectError(await pay(s.id, { payment_method_type: 'card', nonce: bankNonce }), 400, 'parameter_invalid', { param: 'payment_method' });
    expect(await rows(ctx.db, 'SELECT transaction_id FROM test_processor_bank_debits')).toEqual([]);
    // Braintree's fake US bank account nonce pays as one.
    ctx.h.clock.advance(1000);
    expect((await pay(s.id, { nonce: 'fake-us-bank-account-nonce' })).json().status).toBe('processing');
  });

  it('never keeps or logs the account number: only its last 4 digits', async () => {
    const s = await createSession(ctx, dollars);
    const accountNumber = '1000000011';
    const paymentId = await debit(s.id, accountNumber);
    ctx.h.clock.advance(SETTLE_MS);
    await bankReports();
    ctx.h.clock.advance(SETTLE_MS);
    await bankReports();
    expect((await payment(paymentId)).ach_return.code).toBe('R01');
    const dump = JSON.stringify(await dumpDatabase(ctx.db));
    expect(dump).not.toContain(accountNumber);
    const [kept] = await rows(ctx.db, 'SELECT payment_method FROM payments WHERE id = $1', [paymentId]);
    expect(kept!.payment_method).toMatchObject({ last4: '0011', usBankAccount: { last4: '0011' } });
    expect(ctx.h.logLines.join('\n')).not.toContain(accountNumber);
    // Nor does a refused tokenization echo it.
    const refused = await tokenize(s.id, account('99999999999999999999'));
    expect(refused.body).not.toContain('99999999999999999999');
  });
});
