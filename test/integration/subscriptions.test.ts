import { describe, expect, it } from 'vitest';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { dashboardCall, signUpOwner } from '../support/dashboard';
import { billingCalls, DAY, DECLINES_AFTER_SAVE, START } from '../support/billing';
import { countRows, dumpDatabase, expectError, rows, tokenize, useIntegration, withoutBookkeeping } from '../support/integration';

describe.each(testDatabases)('subscriptions, invoices and test clocks ($name)', (database) => {
  const ctx = useIntegration(database);
  const { call, ok, recurringPrice, customerWithCard, invoicesOf, advance } = billingCalls(ctx);
  /** A customer on a new test clock at `start`, with `card` saved by a setup session (nothing charged). */
  const customerOnClock = (card?: Record<string, unknown>, start = START) => customerWithCard({ card, start });

  it('a year of a monthly subscription on a test clock: 12 invoices, each paid by exactly one payment, periods on the anchor day', async () => {
    const price = await recurringPrice(2000);
    const { clock, customer } = await customerOnClock();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price, quantity: 1 }] });
    expect(sub).toMatchObject({ object: 'subscription', status: 'active', customer, test_clock: clock, current_period_start: START });
    expect(sub.items.data[0]).toMatchObject({ quantity: 1, price: { id: price, type: 'recurring', recurring: { interval: 'month', interval_count: 1 } } });

    // Up to a day before the 12th renewal: the first invoice and 11 renewals.
    const ready = await advance(clock, Date.UTC(2027, 11, 31, 9) / 1000);
    expect(ready).toMatchObject({ status: 'ready', frozen_time: Date.UTC(2027, 11, 31, 9) / 1000 });
    const invoices = await invoicesOf(sub.id);
    expect(invoices).toHaveLength(12);
    expect(invoices.map((invoice) => invoice.status)).toEqual(invoices.map(() => 'paid'));
    expect(invoices.map((invoice) => invoice.amount_paid)).toEqual(invoices.map(() => 2000));
    // Each period starts on the 1st of its month at 09:00 UTC.
    expect(invoices.map((invoice) => invoice.period_start).sort()).toEqual(Array.from({ length: 12 }, (_, m) => Date.UTC(2027, m, 1, 9) / 1000));
    const payments = await rows(ctx.db, `SELECT invoice_id, status FROM payments WHERE invoice_id IS NOT NULL`);
    expect(payments).toHaveLength(12);
    expect(new Set(payments.map((p) => p.invoice_id)).size).toBe(12);
    expect(payments.every((p) => p.status === 'succeeded')).toBe(true);
    const after = await ok('GET', `/v1/subscriptions/${sub.id}`);
    expect(after).toMatchObject({
      status: 'active',
      current_period_start: Date.UTC(2027, 11, 1, 9) / 1000,
      current_period_end: Date.UTC(2028, 0, 1, 9) / 1000,
    });
    const types = (await rows(ctx.db, `SELECT type FROM events WHERE type LIKE 'invoice.%' ORDER BY created_at, id`)).map((r) => r.type);
    expect(types.filter((type) => type === 'invoice.paid')).toHaveLength(12);

    // Advancing again, or billing on the wall clock, charges nothing twice.
    await runJobOnce(ctx.h.tillpoint.deps, 'billing');
    await advance(clock, Date.UTC(2027, 11, 31, 10) / 1000);
    expect(await countRows(ctx.db, 'payments')).toBe(12);
  });

  it('a month-end anchor keeps its day: 31 January bills 28 February, then 31 March', async () => {
    const price = await recurringPrice(1000);
    const { clock, customer } = await customerOnClock(undefined, Date.UTC(2027, 0, 31, 12) / 1000);
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }] });
    expect(sub.current_period_end).toBe(Date.UTC(2027, 1, 28, 12) / 1000);
    await advance(clock, Date.UTC(2027, 2, 31, 13) / 1000);
    expect((await invoicesOf(sub.id)).map((invoice) => invoice.period_start).sort()).toEqual([
      Date.UTC(2027, 0, 31, 12) / 1000,
      Date.UTC(2027, 1, 28, 12) / 1000,
      Date.UTC(2027, 2, 31, 12) / 1000,
    ]);
  });

  it('a renewal declined with 4000 0000 0000 0341: past_due, retried 1, 3, 5 and 7 days on, then canceled, never charged twice', async () => {
    const price = await recurringPrice(1500);
    const { clock, customer } = await customerOnClock(DECLINES_AFTER_SAVE);
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], trial_period_days: 14 });
    expect(sub).toMatchObject({ status: 'trialing', trial_end: START + 14 * DAY, current_period_end: START + 14 * DAY });

    await advance(clock, START + 14 * DAY + 60);
    expect((await ok('GET', `/v1/subscriptions/${sub.id}`)).status).toBe('past_due');
    const [renewal] = (await invoicesOf(sub.id)).filter((invoice) => invoice.billing_reason === 'subscription_cycle');
    expect(renewal).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: START + 15 * DAY });

    await advance(clock, START + 14 * DAY + 6 * DAY);
    expect(await ok('GET', `/v1/invoices/${renewal!.id}`)).toMatchObject({ status: 'open', attempt_count: 4, next_payment_attempt: START + 21 * DAY });
    expect((await ok('GET', `/v1/subscriptions/${sub.id}`)).status).toBe('past_due');

    await advance(clock, START + 30 * DAY);
    expect(await ok('GET', `/v1/invoices/${renewal!.id}`)).toMatchObject({ status: 'uncollectible', attempt_count: 5, next_payment_attempt: null });
    expect(await ok('GET', `/v1/subscriptions/${sub.id}`)).toMatchObject({ status: 'canceled', ended_at: START + 21 * DAY });
    const attempts = await rows(ctx.db, `SELECT status FROM payments WHERE invoice_id = $1`, [renewal!.id]);
    expect(attempts.map((a) => a.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    const failedEvents = await rows(ctx.db, `SELECT count(*)::int AS n FROM events WHERE type = 'invoice.payment_failed'`);
    expect(failedEvents[0]!.n).toBe(5);
  });

  it('with the account set to "unpaid", the last failure keeps the subscription unpaid until its invoice is paid with another card', async () => {
    await ctx.db.query(`UPDATE accounts SET subscription_failure_action = 'unpaid' WHERE id = $1`, [ctx.accountId]);
    try {
      const price = await recurringPrice(1500);
      const { clock, customer } = await customerOnClock(DECLINES_AFTER_SAVE);
      const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], trial_period_days: 3 });
      await advance(clock, START + 30 * DAY);
      expect((await ok('GET', `/v1/subscriptions/${sub.id}`)).status).toBe('unpaid');
      const [renewal] = (await invoicesOf(sub.id)).filter((invoice) => invoice.billing_reason === 'subscription_cycle');
      expect(renewal).toMatchObject({ status: 'uncollectible', attempt_count: 5 });
      // An unpaid subscription renews no more.
      await advance(clock, START + 60 * DAY);
      expect(await invoicesOf(sub.id)).toHaveLength(2);
      // The customer saves another card; the merchant collects the invoice with it.
      const session = await ok('POST', '/v1/checkout/sessions', { mode: 'setup', customer });
      await ctx.h.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${session.id}/payments`,
        payload: { payment_method_type: 'card', email: 'ada@example.com', nonce: await tokenize(ctx.h, session.id) },
      });
      const visa = (await ok('GET', `/v1/customers/${customer}/payment_methods`)).data.find((m: { card: { last4: string } }) => m.card.last4 === '1111');
      expect(await ok('POST', `/v1/invoices/${renewal!.id}/pay`, { payment_method: visa.id })).toMatchObject({ status: 'paid', amount_paid: 1500 });
      expect((await ok('GET', `/v1/subscriptions/${sub.id}`)).status).toBe('active');
    } finally {
      await ctx.db.query(`UPDATE accounts SET subscription_failure_action = 'cancel' WHERE id = $1`, [ctx.accountId]);
    }
  });

  it('the dashboard settings say and change what a last failure does; a bad value changes nothing', async () => {
    const owner = await signUpOwner(ctx.h, 'Subscription Shop');
    const url = `/dashboard/api/accounts/${owner.accountId}/settings`;
    expect((await dashboardCall(ctx.h, owner, 'GET', url)).json().subscription_failure_action).toBe('cancel');
    expectError(await dashboardCall(ctx.h, owner, 'POST', url, { subscription_failure_action: 'forgive' }), 400, 'parameter_invalid', {
      param: 'subscription_failure_action',
    });
    expect((await dashboardCall(ctx.h, owner, 'POST', url, { subscription_failure_action: 'unpaid' })).json().subscription_failure_action).toBe('unpaid');
    expect((await dashboardCall(ctx.h, owner, 'GET', url)).json().subscription_failure_action).toBe('unpaid');
  });

  it('a trial that converts: nothing charged during it, the first charge when it ends, then active', async () => {
    const price = await recurringPrice(900);
    const { clock, customer } = await customerOnClock();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], trial_period_days: 7 });
    const [trialInvoice] = await invoicesOf(sub.id);
    expect(trialInvoice).toMatchObject({ status: 'paid', amount_due: 0, billing_reason: 'subscription_create' });
    expect(await rows(ctx.db, `SELECT id FROM payments WHERE invoice_id IS NOT NULL`)).toEqual([]);
    await advance(clock, START + 7 * DAY + 1);
    expect(await ok('GET', `/v1/subscriptions/${sub.id}`)).toMatchObject({ status: 'active', current_period_start: START + 7 * DAY });
    const paid = (await invoicesOf(sub.id)).find((invoice) => invoice.billing_reason === 'subscription_cycle');
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 900 });
  });

  it.each([
    ['usd', 2000, 5000],
    ['jpy', 1200, 3100],
    ['kwd', 5125, 9999],
  ])('an upgrade mid-period in %s is prorated onto the next invoice, its lines adding up to the minor unit', async (currency, from, to) => {
    const cheap = await recurringPrice(from, { currency });
    const dear = await recurringPrice(to, { currency });
    const { clock, customer } = await customerOnClock();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price: cheap }] });
    const periodStart = sub.current_period_start as number;
    const periodEnd = sub.current_period_end as number;
    // A third of the way through the period (to the second).
    const at = periodStart + Math.round((periodEnd - periodStart) / 3);
    await advance(clock, at);
    const changed = await ok('POST', `/v1/subscriptions/${sub.id}`, { price: dear });
    expect(changed.items.data[0].price.id).toBe(dear);
    await advance(clock, periodEnd + 60);
    const next = (await invoicesOf(sub.id)).find((invoice) => invoice.billing_reason === 'subscription_cycle')!;
    const lines = next.lines.data as Array<{ amount: number; proration: boolean }>;
    const share = (periodEnd - at) / (periodEnd - periodStart);
    expect(lines.filter((line) => line.proration).map((line) => line.amount)).toEqual([-Math.round(from * share), Math.round(to * share)]);
    expect(lines.find((line) => !line.proration)!.amount).toBe(to);
    expect(next.total).toBe(lines.reduce((sum, line) => sum + line.amount, 0));
    expect(next).toMatchObject({ status: 'paid', amount_paid: next.total, currency });
  });

  it('cancel at period end ends it then, with no further invoice; DELETE ends it now', async () => {
    const price = await recurringPrice(700);
    const { clock, customer } = await customerOnClock();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }] });
    expect(await ok('POST', `/v1/subscriptions/${sub.id}`, { cancel_at_period_end: true })).toMatchObject({ cancel_at_period_end: true, status: 'active' });
    await advance(clock, (sub.current_period_end as number) + 3 * DAY);
    expect(await ok('GET', `/v1/subscriptions/${sub.id}`)).toMatchObject({ status: 'canceled', ended_at: sub.current_period_end });
    expect(await invoicesOf(sub.id)).toHaveLength(1);
    expectError(await call('POST', `/v1/subscriptions/${sub.id}`, { quantity: 2 }), 409, 'subscription_canceled');

    const other = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }] });
    expect(await ok('DELETE', `/v1/subscriptions/${other.id}`)).toMatchObject({ status: 'canceled' });
    expectError(await call('DELETE', `/v1/subscriptions/${other.id}`), 409, 'subscription_canceled');
  });

  it('on the wall clock, billing jobs run at once in two places renew each period and charge each invoice once', async () => {
    const price = await recurringPrice(1200);
    const customer = await ok('POST', '/v1/customers', { email: 'wall@example.com' });
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'setup', customer: customer.id });
    await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${session.id}/payments`,
      payload: { payment_method_type: 'card', email: 'wall@example.com', nonce: await tokenize(ctx.h, session.id) },
    });
    const subs = await Promise.all(Array.from({ length: 5 }, () => ok('POST', '/v1/subscriptions', { customer: customer.id, items: [{ price }] })));
    // Two periods pass on the wall clock; the job runs in two instances at once, twice.
    ctx.h.clock.advance(62 * DAY * 1000);
    const deps = ctx.h.tillpoint.deps;
    await Promise.all([runJobOnce(deps, 'billing'), runJobOnce(deps, 'billing')]);
    await Promise.all([runJobOnce(deps, 'billing'), runJobOnce(deps, 'billing')]);
    for (const sub of subs) {
      const invoices = await invoicesOf(sub.id);
      expect(invoices.map((invoice) => invoice.status)).toEqual(['paid', 'paid', 'paid']);
      expect(new Set(invoices.map((invoice) => invoice.period_start)).size).toBe(3);
      const charged = await rows(ctx.db, `SELECT count(*)::int AS n FROM payments WHERE invoice_id = ANY($1::text[]) AND status = 'succeeded'`, [
        invoices.map((invoice) => invoice.id),
      ]);
      expect(charged[0]!.n).toBe(3);
    }
  });

  it('refuses bad subscriptions and clocks with a catalogue code, changing nothing', async () => {
    const price = await recurringPrice(1000);
    const { clock, customer } = await customerOnClock();
    const oneTime = (await ok('POST', '/v1/products', { name: 'Mug', default_price_data: { currency: 'usd', unit_amount: 1200 } })).default_price.id;
    const bare = await ok('POST', '/v1/customers', { email: 'bare@example.com' });
    const before = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(await call('POST', '/v1/subscriptions', { customer, items: [{ price: oneTime }] }), 400, 'parameter_invalid', { param: 'items[0][price]' });
    expectError(await call('POST', '/v1/subscriptions', { customer: 'cus_nope', items: [{ price }] }), 404, 'resource_missing', { param: 'customer' });
    expectError(await call('POST', '/v1/subscriptions', { customer: bare.id, items: [{ price }] }), 400, 'parameter_missing', {
      param: 'default_payment_method',
    });
    expectError(await call('POST', '/v1/subscriptions', { customer, items: [{ price, quantity: 0 }] }), 400, 'parameter_invalid', {
      param: 'items[0][quantity]',
    });
    expectError(await call('POST', '/v1/subscriptions', { customer, items: [{ price }], trial_period_days: 0 }), 400, 'parameter_invalid', {
      param: 'trial_period_days',
    });
    expectError(await call('POST', `/v1/test_helpers/test_clocks/${clock}/advance`, { frozen_time: START - 1 }), 400, 'parameter_invalid', {
      param: 'frozen_time',
    });
    expectError(await call('POST', '/v1/customers', { email: 'x@example.com', test_clock: 'clock_nope' }), 404, 'resource_missing', { param: 'test_clock' });
    expectError(await call('GET', '/v1/invoices/in_nope'), 404, 'resource_missing', { param: 'id' });
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before);
  });

  it('an invoice whose card was deleted waits for another and does not stop the others being billed', async () => {
    const price = await recurringPrice(900);
    /** A customer on the wall clock with a card saved, subscribed with a one-day trial. */
    const subscriber = async () => {
      const { customer, method } = await customerWithCard({ wallClock: true });
      const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], trial_period_days: 1 });
      return { sub: sub.id as string, method };
    };
    const cardless = await subscriber();
    const paying = await subscriber();
    expect((await call('DELETE', `/v1/payment_methods/${cardless.method}`)).statusCode).toBe(200);

    ctx.h.clock.advance((DAY + 60) * 1000);
    await runJobOnce(ctx.h.tillpoint.deps, 'billing');
    const [paid] = (await invoicesOf(paying.sub)).filter((invoice) => invoice.billing_reason === 'subscription_cycle');
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 900 });
    const [waiting] = (await invoicesOf(cardless.sub)).filter((invoice) => invoice.billing_reason === 'subscription_cycle');
    expect(waiting).toMatchObject({ status: 'open', attempt_count: 0, amount_paid: 0 });
  });
});

describe.each(testDatabases)('checkout in subscription mode ($name)', (database) => {
  const ctx = useIntegration(database);
  const { call, ok, recurringPrice } = billingCalls(ctx);
  const monthly = (unitAmount = 2000) => recurringPrice(unitAmount);
  const pay = async (sessionId: string, card?: Record<string, unknown>) =>
    ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${sessionId}/payments`,
      payload: { payment_method_type: 'card', email: 'ada@example.com', nonce: await tokenize(ctx.h, sessionId, card) },
    });

  it('paying charges the first period, saves the card to a new customer and starts the subscription the completed event names', async () => {
    const price = await monthly(2000);
    const session = await ok('POST', '/v1/checkout/sessions', {
      mode: 'subscription',
      line_items: [{ price, quantity: 2 }],
      subscription_data: { metadata: { plan: 'duo' } },
      success_url: 'https://shop.example/thanks',
    });
    expect(session).toMatchObject({ mode: 'subscription', amount_total: 4000, currency: 'usd', subscription: null, payment_method_types: ['card'] });
    const paid = await pay(session.id);
    expect(paid.statusCode, paid.body).toBe(200);

    const done = await ok('GET', `/v1/checkout/sessions/${session.id}`);
    expect(done.status).toBe('complete');
    expect(done.subscription).toMatch(/^sub_/);
    const sub = await ok('GET', `/v1/subscriptions/${done.subscription}`);
    expect(sub).toMatchObject({ status: 'active', customer: done.customer, quantity: 2, metadata: { plan: 'duo' }, cancel_at_period_end: false });
    const [method] = (await ok('GET', `/v1/customers/${done.customer}/payment_methods`)).data;
    expect(sub.default_payment_method).toBe(method.id);
    const [invoice] = (await ok('GET', `/v1/invoices?subscription=${sub.id}`)).data;
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 4000, payment: done.payment, billing_reason: 'subscription_create' });
    const [completed] = await rows(ctx.db, `SELECT data FROM events WHERE type = 'checkout.session.completed' AND object_id = $1`, [session.id]);
    expect(completed!.data.subscription).toBe(sub.id);
    // The billing job finds nothing more to start or charge.
    await runJobOnce(ctx.h.tillpoint.deps, 'billing');
    expect(await countRows(ctx.db, 'subscriptions')).toBe(1);
    expect(await countRows(ctx.db, 'payments')).toBe(1);
  });

  it('with a trial nothing is charged today: the card is saved and the subscription is trialing', async () => {
    const price = await monthly(1500);
    const session = await ok('POST', '/v1/checkout/sessions', {
      mode: 'subscription',
      line_items: [{ price, quantity: 1 }],
      subscription_data: { trial_period_days: 14 },
    });
    expect(session.amount_total).toBe(0);
    const saved = await pay(session.id);
    expect(saved.statusCode, saved.body).toBe(200);
    const done = await ok('GET', `/v1/checkout/sessions/${session.id}`);
    const sub = await ok('GET', `/v1/subscriptions/${done.subscription}`);
    expect(sub).toMatchObject({ status: 'trialing', trial_end: sub.trial_start + 14 * DAY, current_period_end: sub.trial_start + 14 * DAY });
    expect(await countRows(ctx.db, 'payments')).toBe(0);
  });

  it('a subscription the paying request did not get to start is started by the billing job, once', async () => {
    const price = await monthly(1000);
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'subscription', line_items: [{ price, quantity: 1 }] });
    expect((await pay(session.id)).statusCode).toBe(200);
    const done = await ok('GET', `/v1/checkout/sessions/${session.id}`);
    // As if the request had stopped between the payment and the subscription.
    await ctx.db.query('DELETE FROM invoices WHERE subscription_id = $1', [done.subscription]);
    await ctx.db.query('DELETE FROM subscriptions WHERE id = $1', [done.subscription]);
    await Promise.all([runJobOnce(ctx.h.tillpoint.deps, 'billing'), runJobOnce(ctx.h.tillpoint.deps, 'billing')]);
    expect(await ok('GET', `/v1/subscriptions/${done.subscription}`)).toMatchObject({ status: 'active' });
    expect(await countRows(ctx.db, 'subscriptions')).toBe(1);
    expect(await countRows(ctx.db, 'invoices')).toBe(1);
  });

  it('refuses what subscription mode cannot do, creating nothing', async () => {
    const price = await monthly();
    const oneTime = (await ok('POST', '/v1/products', { name: 'Mug', default_price_data: { currency: 'usd', unit_amount: 1200 } })).default_price.id;
    const before = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(
      await call('POST', '/v1/checkout/sessions', { mode: 'subscription', line_items: [{ price: oneTime, quantity: 1 }] }),
      400,
      'parameter_invalid',
      {
        param: 'line_items[0][price]',
      },
    );
    expectError(await call('POST', '/v1/checkout/sessions', { mode: 'payment', line_items: [{ price, quantity: 1 }] }), 400, 'parameter_invalid', {
      param: 'line_items[0][price]',
    });
    expectError(
      await call('POST', '/v1/checkout/sessions', {
        mode: 'subscription',
        line_items: [
          { price, quantity: 1 },
          { price, quantity: 1 },
        ],
      }),
      400,
      'parameter_invalid',
      { param: 'line_items' },
    );
    expectError(
      await call('POST', '/v1/checkout/sessions', { mode: 'subscription', currency: 'usd', line_items: [{ name: 'Box', unit_amount: 100, quantity: 1 }] }),
      400,
      'parameter_invalid',
      { param: 'line_items' },
    );
    expectError(
      await call('POST', '/v1/checkout/sessions', { mode: 'subscription', line_items: [{ price, quantity: 1 }], subscription_data: { trial_period_days: 0 } }),
      400,
      'parameter_invalid',
      { param: 'subscription_data[trial_period_days]' },
    );
    expectError(
      await call('POST', '/v1/checkout/sessions', { mode: 'subscription', line_items: [{ price, quantity: 1 }], capture_method: 'manual' }),
      400,
      'parameter_invalid',
      { param: 'capture_method' },
    );
    expectError(
      await call('POST', '/v1/checkout/sessions', {
        mode: 'payment',
        currency: 'usd',
        line_items: [{ name: 'Box', unit_amount: 100, quantity: 1 }],
        subscription_data: {},
      }),
      400,
      'parameter_invalid',
      { param: 'subscription_data' },
    );
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before);
  });
});
