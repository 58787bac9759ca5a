import { describe, expect, it } from 'vitest';
import { paymentMethodSchema } from '../../src/http/response-schemas';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { billingCalls, DAY, START } from '../support/billing';
import { dumpDatabase, expectError, rows, useIntegration, withoutBookkeeping } from '../support/integration';

/**
 * Saved US bank accounts (ADR 0108): a bank account paid with in a session that saves its payment
 * method is kept as the customer's `us_bank_account` method (never its number), and a subscription
 * billed to it renews by ACH: the invoice stays open while the debit is `processing`, is never
 * charged twice meanwhile, is paid once the debit settles, and follows the failed path when declined.
 */
describe.each(testDatabases)('saved US bank accounts and renewals by ACH ($name)', (database) => {
  const ctx = useIntegration(database);
  const { call, ok, recurringPrice, invoicesOf, advance, eventsOf } = billingCalls(ctx);
  const page = (url: string) => ctx.h.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, ''), headers: { 'accept-language': 'en' } });
  const mandate = 'By clicking Pay, you authorize Demo Shop to debit the bank account above for this payment and future payments.';
  /** The test processor's bank reports what is due, the default delay (5 s) later. */
  const SETTLE_MS = 5_000;
  const settle = async () => {
    ctx.h.clock.advance(SETTLE_MS + 1000);
    await runJobOnce(ctx.h.tillpoint.deps, 'test-processor-bank-debits');
  };

  /**
   * A customer on a new test clock with the bank account `accountNumber` saved by paying a session
   * that saves its payment method; the payment left processing.
   */
  const customerWithBankAccount = async (accountNumber: string) => {
    const clock = await ok('POST', '/v1/test_helpers/test_clocks', { frozen_time: START });
    const customer = await ok('POST', '/v1/customers', { email: 'ada@example.com', test_clock: clock.id });
    const session = await ok('POST', '/v1/checkout/sessions', {
      customer: customer.id,
      currency: 'usd',
      line_items: [{ name: 'Coffee club joining box', unit_amount: 2500, quantity: 1 }],
      payment_method_types: ['card', 'us_bank_account'],
      payment_method_options: { card: { save: 'on' } },
      success_url: 'https://shop.example/thanks',
    });
    const token = await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${session.id}/bank-account-tokens`,
      payload: {
        routing_number: '011000015',
        account_number: accountNumber,
        account_type: 'savings',
        account_holder_type: 'personal',
        account_holder_name: 'Ada Lovelace',
        mandate_text: mandate,
      },
    });
    expect(token.statusCode, token.body).toBe(200);
    const paid = await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${session.id}/payments`,
      payload: { payment_method_type: 'us_bank_account', email: 'ada@example.com', nonce: token.json().nonce },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().status).toBe('processing');
    const methods = (await ok('GET', `/v1/customers/${customer.id}/payment_methods`)).data;
    expect(methods).toHaveLength(1);
    return { clock: clock.id as string, customer: customer.id as string, method: methods[0] as Record<string, any>, session: session.id as string };
  };
  const paymentsOf = (invoice: string) => rows(ctx.db, 'SELECT id, status FROM payments WHERE invoice_id = $1 ORDER BY created_at, id', [invoice]);

  it('keeps the account paid with as the customer’s us_bank_account method, listed by the API as the dashboard lists it, never its number', async () => {
    const { customer, method } = await customerWithBankAccount('1000000001');
    expect(method).toEqual({
      id: expect.stringMatching(/^pm_/),
      object: 'payment_method',
      livemode: false,
      customer,
      type: 'us_bank_account',
      us_bank_account: {
        bank_name: 'Tillpoint Test Bank',
        last4: '0001',
        routing_number: '011000015',
        account_type: 'savings',
        account_holder_type: 'personal',
      },
      processor: 'test',
      created: expect.any(Number),
    });
    expect(paymentMethodSchema.safeParse(method).error).toBeUndefined();
    const attached = await eventsOf('payment_method.attached', method.id);
    expect(attached).toHaveLength(1);
    expect(attached[0]!.data.object).toEqual(method);
    // Nowhere in the database is the account number.
    expect(JSON.stringify(await dumpDatabase(ctx.db))).not.toContain('1000000001');
    // The checkout page offers saved cards only: a bank account is debited from the server.
    const next = await ok('POST', '/v1/checkout/sessions', {
      customer,
      currency: 'usd',
      line_items: [{ name: 'Mug', unit_amount: 1200, quantity: 1 }],
      payment_method_types: ['card', 'us_bank_account'],
    });
    const page = await ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${next.id}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().saved_payment_methods ?? []).toEqual([]);
  });

  it('POST /v1/payments debits a saved bank account: processing until it settles, then succeeded', async () => {
    const { customer, method } = await customerWithBankAccount('1000000000');
    const charged = await call('POST', '/v1/payments', { customer, payment_method: method.id, amount: 1500, currency: 'usd' });
    expect(charged.statusCode, charged.body).toBe(200);
    expect(charged.json()).toMatchObject({ status: 'processing', payment_method: { type: 'us_bank_account', us_bank_account: { last4: '0000' } } });
    await settle();
    expect(await ok('GET', `/v1/payments/${charged.json().id}`)).toMatchObject({ status: 'succeeded', amount_captured: 1500 });
  });

  it('a subscription billed to it: open while each debit is processing, never charged twice, paid once it settles', async () => {
    const { clock, customer, method } = await customerWithBankAccount('1000000000');
    await settle();
    const price = await recurringPrice(1500);
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], default_payment_method: method.id });
    // The first invoice's debit is under way: the subscription waits for it, incomplete.
    expect(sub.status).toBe('incomplete');
    const [first] = await invoicesOf(sub.id);
    expect(first).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: null, amount_paid: 0 });
    expect(await paymentsOf(first!.id)).toEqual([{ id: expect.any(String), status: 'processing' }]);
    const [debit] = await paymentsOf(first!.id);
    expect(await ok('GET', `/v1/payments/${debit!.id}`)).toMatchObject({
      status: 'processing',
      payment_method: { type: 'us_bank_account', us_bank_account: { last4: '0000' } },
    });

    // Paying it meanwhile is refused, changing nothing; its page and the portal show the account by bank and last 4.
    const before = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(await call('POST', `/v1/invoices/${first!.id}/pay`, {}), 409, 'invoice_not_payable');
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before);
    const hosted = await page(first!.hosted_invoice_url);
    expect(hosted.statusCode, hosted.body).toBe(200);
    const portal = await page((await ok('POST', '/v1/billing_portal/sessions', { customer })).url);
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.body).toContain('Tillpoint Test Bank •••• 0000');

    // Billing runs again meanwhile (the clock's and the wall clock's): nothing is charged twice.
    await advance(clock, START + 3 * 3600);
    await runJobOnce(ctx.h.tillpoint.deps, 'billing');
    expect(await paymentsOf(first!.id)).toHaveLength(1);
    expect((await ok('GET', `/v1/invoices/${first!.id}`)).status).toBe('open');
    expect(await eventsOf('invoice.paid', first!.id)).toEqual([]);

    // Settled: the invoice is paid (invoice.paid, as by a card), the subscription active.
    await settle();
    expect(await ok('GET', `/v1/invoices/${first!.id}`)).toMatchObject({ status: 'paid', amount_paid: 1500 });
    expect((await ok('GET', `/v1/subscriptions/${sub.id}`)).status).toBe('active');
    expect(await eventsOf('invoice.paid', first!.id)).toHaveLength(1);

    // The renewal debits the account again: open and processing until it settles, then paid.
    await advance(clock, (sub.current_period_end as number) + 60);
    const renewal = (await invoicesOf(sub.id)).find((invoice) => invoice.billing_reason === 'subscription_cycle')!;
    expect(renewal).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: null });
    expect((await paymentsOf(renewal.id)).map((p) => p.status)).toEqual(['processing']);
    await advance(clock, (sub.current_period_end as number) + 2 * DAY);
    expect((await paymentsOf(renewal.id)).map((p) => p.status)).toEqual(['processing']);
    expect((await ok('GET', `/v1/subscriptions/${sub.id}`)).status).toBe('active');
    await settle();
    expect(await ok('GET', `/v1/invoices/${renewal.id}`)).toMatchObject({ status: 'paid', amount_paid: 1500 });
    expect((await paymentsOf(renewal.id)).map((p) => p.status)).toEqual(['succeeded']);
    expect(await eventsOf('invoice.paid', renewal.id)).toHaveLength(1);
    // A settlement reported again changes nothing.
    await settle();
    expect(await eventsOf('invoice.paid', renewal.id)).toHaveLength(1);
  });

  it('a renewal debit the bank declines follows the failed path: payment failed, invoice retried, subscription past due', async () => {
    // 1000000013: verifies, then every debit is declined (R01) instead of settling.
    const { clock, customer, method } = await customerWithBankAccount('1000000013');
    await settle();
    const price = await recurringPrice(1500);
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], default_payment_method: method.id, trial_period_days: 7 });
    expect(sub.status).toBe('trialing');

    await advance(clock, START + 7 * DAY + 60);
    const renewal = (await invoicesOf(sub.id)).find((invoice) => invoice.billing_reason === 'subscription_cycle')!;
    expect(renewal).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: null });
    await settle();
    expect((await paymentsOf(renewal.id)).map((p) => p.status)).toEqual(['failed']);
    // As of the clock: the next try a day after the first charge.
    expect(await ok('GET', `/v1/invoices/${renewal.id}`)).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: START + 8 * DAY });
    expect((await ok('GET', `/v1/subscriptions/${sub.id}`)).status).toBe('past_due');
    expect(await eventsOf('invoice.payment_failed', renewal.id)).toHaveLength(1);

    // The retry debits again, once, and waits for its own settlement.
    await advance(clock, START + 8 * DAY + 60);
    expect((await paymentsOf(renewal.id)).map((p) => p.status)).toEqual(['failed', 'processing']);
    await advance(clock, START + 9 * DAY);
    expect((await paymentsOf(renewal.id)).map((p) => p.status)).toEqual(['failed', 'processing']);
    await settle();
    expect(await ok('GET', `/v1/invoices/${renewal.id}`)).toMatchObject({ status: 'open', attempt_count: 2, next_payment_attempt: START + 10 * DAY });
  });
});
