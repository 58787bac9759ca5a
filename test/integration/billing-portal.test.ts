import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { billingCalls, DAY, DECLINES_AFTER_SAVE } from '../support/billing';
import { dumpDatabase, expectError, rows, useIntegration, withoutBookkeeping } from '../support/integration';

/** 1 March 2027, 09:00 UTC: the test clocks' start. */
const START = Date.UTC(2027, 2, 1, 9) / 1000;

describe.each(testDatabases)('the customer portal and the hosted invoice page ($name)', (database) => {
  const ctx = useIntegration(database);
  const { call, ok, recurringPrice, payPage: saveCard, customerWithCard } = billingCalls(ctx);
  /** What a browser does: GET a page, or post a form, without following redirects. */
  const browse = (url: string, options: { form?: Record<string, string>; language?: string } = {}) => {
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const headers: Record<string, string> = { 'accept-language': options.language ?? 'en' };
    if (!options.form) return ctx.h.app.inject({ method: 'GET', url: path, headers });
    return ctx.h.app.inject({
      method: 'POST',
      url: path,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(options.form).toString(),
    });
  };

  /** A customer on a test clock at START with `card` saved, and a monthly subscription of $15.00 with a week's trial billed to it. */
  async function subscriber(card?: Record<string, unknown>) {
    const { clock, customer } = await customerWithCard({ card, start: START });
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price: await recurringPrice(1500) }], trial_period_days: 7 });
    return { clock, customer, sub: sub.id as string };
  }

  it('POST /v1/billing_portal/sessions answers a short-lived page of the customer: subscriptions, card, invoices', async () => {
    const { customer, sub } = await subscriber();
    const session = await ok('POST', '/v1/billing_portal/sessions', { customer, return_url: 'https://shop.example/account' });
    expect(session).toMatchObject({ object: 'billing_portal.session', customer, return_url: 'https://shop.example/account', livemode: false, locale: null });
    expect(session.id).toMatch(/^bps_/);
    expect(session.expires_at - session.created).toBe(3600);
    expect(session.url).toMatch(/\/p\/bpt_[A-Za-z0-9]{40}$/);

    const page = await browse(session.url);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('Coffee club');
    expect(page.body).toContain('$15.00 every month');
    expect(page.body).toMatch(/Trial ends on March 8, 2027/);
    expect(page.body).toContain('Visa ending in 1111');
    expect(page.body).toContain('href="https://shop.example/account"');
    expect(page.body).toContain('Return to');
    expect(page.body).not.toContain('<script');
    // Its first invoice (nothing, for the trial) is listed, with a link to its hosted page.
    const [invoice] = (await ok('GET', `/v1/invoices?subscription=${sub}`)).data;
    expect(page.body).toContain(invoice.hosted_invoice_url.replace(/^https?:\/\/[^/]+/, ''));
  });

  it("the page speaks the session's locale, else the browser's", async () => {
    const { customer } = await subscriber();
    const german = await ok('POST', '/v1/billing_portal/sessions', { customer, locale: 'de' });
    const page = await browse(german.url, { language: 'fr' });
    expect(page.body).toContain('<html lang="de"');
    expect(page.body).toContain('15,00');
    const auto = await ok('POST', '/v1/billing_portal/sessions', { customer });
    const arabic = await browse(auto.url, { language: 'ar' });
    expect(arabic.body).toContain('<html lang="ar" dir="rtl"');
  });

  it('refuses a bad body by name and writes nothing', async () => {
    const { customer } = await subscriber();
    const before = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(await call('POST', '/v1/billing_portal/sessions', {}), 400, 'parameter_missing', { param: 'customer' });
    expectError(await call('POST', '/v1/billing_portal/sessions', { customer: 'cus_nobody' }), 404, 'resource_missing', { param: 'customer' });
    expectError(await call('POST', '/v1/billing_portal/sessions', { customer, return_url: 'javascript:alert(1)' }), 400, 'parameter_invalid', {
      param: 'return_url',
    });
    expectError(await call('POST', '/v1/billing_portal/sessions', { customer, locale: 'xx-YY' }), 400, 'parameter_invalid', { param: 'locale' });
    expectError(await call('POST', '/v1/billing_portal/sessions', { customer, flow_data: {} }), 400, 'parameter_unknown', { param: 'flow_data' });
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before);
  });

  it('an unknown or expired page says so, and acts on nothing', async () => {
    const { customer, sub } = await subscriber();
    const missing = await browse('/p/bpt_0000000000000000000000000000000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('This page does not exist');
    const session = await ok('POST', '/v1/billing_portal/sessions', { customer });
    ctx.h.clock.advance(61 * 60 * 1000);
    const expired = await browse(session.url);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This link has expired');
    const cancel = await browse(`${session.url}/subscriptions/${sub}/cancel`, { form: {} });
    expect(cancel.statusCode).toBe(410);
    expect((await ok('GET', `/v1/subscriptions/${sub}`)).cancel_at_period_end).toBe(false);
  });

  it('cancels at the end of the paid period after asking, and takes it back', async () => {
    const { customer, sub } = await subscriber();
    const { url } = await ok('POST', '/v1/billing_portal/sessions', { customer });
    const question = await browse(`${url}/subscriptions/${sub}/cancel`);
    expect(question.statusCode).toBe(200);
    expect(question.body).toContain('Cancel Coffee club?');
    expect(question.body).toContain('It stays active until March 8, 2027');

    const canceled = await browse(`${url}/subscriptions/${sub}/cancel`, { form: {} });
    expect(canceled.statusCode).toBe(303);
    expect(canceled.headers.location).toMatch(/\?notice=canceled$/);
    expect(await ok('GET', `/v1/subscriptions/${sub}`)).toMatchObject({ status: 'trialing', cancel_at_period_end: true });
    const page = await browse(canceled.headers.location!);
    expect(page.body).toContain('Cancels on March 8, 2027');
    expect(page.body).toContain('Your subscription is canceled');
    const updates = await rows(ctx.db, `SELECT count(*)::int AS n FROM events WHERE type = 'customer.subscription.updated'`);
    expect(updates[0]!.n).toBe(1);

    const renewed = await browse(`${url}/subscriptions/${sub}/renew`, { form: {} });
    expect(renewed.headers.location).toMatch(/\?notice=renewed$/);
    expect((await ok('GET', `/v1/subscriptions/${sub}`)).cancel_at_period_end).toBe(false);
  });

  it("another customer's subscription or card cannot be touched from a portal", async () => {
    const mine = await subscriber();
    const theirs = await subscriber();
    const [theirCard] = (await ok('GET', `/v1/customers/${theirs.customer}/payment_methods`)).data;
    const { url } = await ok('POST', '/v1/billing_portal/sessions', { customer: mine.customer });
    const cancel = await browse(`${url}/subscriptions/${theirs.sub}/cancel`, { form: {} });
    expect(cancel.headers.location).toMatch(/\?notice=error$/);
    const card = await browse(`${url}/card`, { form: { payment_method: theirCard.id } });
    expect(card.headers.location).toMatch(/\?notice=error$/);
    expect(await ok('GET', `/v1/subscriptions/${theirs.sub}`)).toMatchObject({ cancel_at_period_end: false });
    expect((await ok('GET', `/v1/subscriptions/${mine.sub}`)).default_payment_method).not.toBe(theirCard.id);
    expect((await browse(`${url}/card`, { form: { payment_method: 'nope' } })).statusCode).toBe(400);
    // Bytes that are no form at all: a 400 naming the problem, nothing changed.
    const garbled = await ctx.h.app.inject({
      method: 'POST',
      url: `${new URL(url).pathname}/card`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: Buffer.from([0x70, 0x61, 0x79, 0x3d, 0x25, 0xff, 0xfe]),
    });
    expectError(garbled, 400, 'parameter_invalid');
    const unknown = await browse(`${url}/card`, { form: { payment_method: theirCard.id, amount: '1' } });
    expectError(unknown, 400, 'parameter_unknown', { param: 'amount' });
  });

  it('a past-due customer adds a card on the checkout page: the subscription moves to it and the invoice owed is paid, once', async () => {
    const { clock, customer, sub } = await subscriber(DECLINES_AFTER_SAVE);
    await ok('POST', `/v1/test_helpers/test_clocks/${clock}/advance`, { frozen_time: START + 7 * DAY + 60 });
    expect((await ok('GET', `/v1/subscriptions/${sub}`)).status).toBe('past_due');
    const owed = (await ok('GET', `/v1/invoices?subscription=${sub}&status=open`)).data[0];
    expect(owed).toMatchObject({ attempt_count: 1, amount_due: 1500 });

    const { url } = await ok('POST', '/v1/billing_portal/sessions', { customer });
    const page = await browse(url);
    expect(page.body).toContain('Past due');
    expect(page.body).toContain('Pay what you owe');

    // "Add a card" opens a setup session of this customer's, which comes back to the portal.
    const add = await browse(`${url}/cards/new`, { form: {} });
    expect(add.statusCode).toBe(303);
    const sessionId = add.headers.location!.match(/\/c\/(cs_[A-Za-z0-9_]+)$/)![1]!;
    const setup = await ok('GET', `/v1/checkout/sessions/${sessionId}`);
    expect(setup).toMatchObject({ mode: 'setup', customer });
    expect(setup.success_url).toBe(`${url}?added={CHECKOUT_SESSION_ID}`);
    await saveCard(sessionId);

    const back = await browse(`${url}?added=${sessionId}`);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toMatch(/\?notice=card_updated&paid=1&declined=0$/);
    const [newest] = (await ok('GET', `/v1/customers/${customer}/payment_methods`)).data;
    expect(await ok('GET', `/v1/subscriptions/${sub}`)).toMatchObject({ status: 'active', default_payment_method: newest.id });
    expect(await ok('GET', `/v1/invoices/${owed.id}`)).toMatchObject({ status: 'paid', amount_paid: 1500, attempt_count: 2 });
    const after = await browse(back.headers.location!);
    expect(after.body).toContain('Your subscriptions are now billed to Visa ending in 1111');
    expect(after.body).toContain('1 invoice you owed is paid.');

    // Coming back again (a reload, the back button) charges nothing more.
    await browse(`${url}?added=${sessionId}`);
    expect(await rows(ctx.db, `SELECT status FROM payments WHERE invoice_id = $1 ORDER BY status`, [owed.id])).toEqual([
      { status: 'failed' },
      { status: 'succeeded' },
    ]);
  });

  it('the hosted invoice page shows what is owed and pays it with another card; a decline says so and changes nothing else', async () => {
    const { clock, sub } = await subscriber(DECLINES_AFTER_SAVE);
    await ok('POST', `/v1/test_helpers/test_clocks/${clock}/advance`, { frozen_time: START + 7 * DAY + 60 });
    const owed = (await ok('GET', `/v1/invoices?subscription=${sub}&status=open`)).data[0];
    expect(owed.hosted_invoice_url).toMatch(/\/i\/ih_[A-Za-z0-9]{32}$/);

    const page = await browse(owed.hosted_invoice_url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Invoice ${owed.id}`);
    expect(page.body).toContain('1 × Coffee club');
    expect(page.body).toContain('We will try your card again on March 9, 2027');
    expect(page.body).toMatch(/data-testid="amount-due">\$15\.00/);
    expect(page.body).toContain('Pay $15.00');

    // The saved card declines again: the page says so in the customer's words; one more attempt counted.
    const [declining] = (await ok('GET', `/v1/customers/${owed.customer}/payment_methods`)).data;
    const declined = await browse(`${owed.hosted_invoice_url}/pay`, { form: { payment_method: declining.id } });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card');
    expect(await ok('GET', `/v1/invoices/${owed.id}`)).toMatchObject({ status: 'open', attempt_count: 2 });
    expect((await ok('GET', `/v1/subscriptions/${sub}`)).default_payment_method).toBe(declining.id);

    const add = await browse(`${owed.hosted_invoice_url}/cards/new`, { form: {} });
    const sessionId = add.headers.location!.match(/\/c\/(cs_[A-Za-z0-9_]+)$/)![1]!;
    await saveCard(sessionId);
    const back = await browse(`${owed.hosted_invoice_url}?added=${sessionId}`);
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain('Card saved.');
    const [added] = (await ok('GET', `/v1/customers/${owed.customer}/payment_methods`)).data;
    expect(back.body).toMatch(new RegExp(`checked="" value="${added.id}"`));

    // Back with the new card, the page offers to bill the subscription to it from now on, ticked.
    expect(back.body).toMatch(
      /<input type="checkbox" name="use_for_subscription" checked="" value="yes"\/><span>Bill my subscription to this card from now on/,
    );
    const paid = await browse(`${owed.hosted_invoice_url}/pay`, { form: { payment_method: added.id, use_for_subscription: 'yes' } });
    expect(paid.statusCode).toBe(303);
    expect(await ok('GET', `/v1/invoices/${owed.id}`)).toMatchObject({ status: 'paid', amount_paid: 1500, attempt_count: 3 });
    expect(await ok('GET', `/v1/subscriptions/${sub}`)).toMatchObject({ status: 'active', default_payment_method: added.id });
    const receipt = await browse(paid.headers.location!);
    expect(receipt.body).toContain('Thank you! This invoice is paid.');
    expect(receipt.body).not.toContain('Pay $15.00');

    // Paid: posting again charges nothing.
    const again = await browse(`${owed.hosted_invoice_url}/pay`, { form: { payment_method: added.id } });
    expect(again.headers.location).toMatch(/notice=not_payable/);
    expect(await rows(ctx.db, `SELECT id FROM payments WHERE invoice_id = $1 AND status = 'succeeded'`, [owed.id])).toHaveLength(1);
  });

  it('an unknown hosted invoice is a 404 page', async () => {
    const res = await browse('/i/ih_00000000000000000000000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('This page does not exist');
  });
});
