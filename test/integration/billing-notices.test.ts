import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJobOnce } from '../../src/runtime/scheduler';
import { testDatabases } from '../support/databases';
import { billingCalls, DAY, DECLINES_AFTER_SAVE, START } from '../support/billing';
import { expectError, rows, useIntegration } from '../support/integration';
import { readMail, startSmtpReceiver } from '../support/smtp-receiver';

const FROM = 'Tillpoint <no-reply@checkout.test>';

describe.each(testDatabases)('billing notices ($name)', (database) => {
  const ctx = useIntegration(database);
  const { call, ok, recurringPrice, customerWithCard, advance, eventsOf } = billingCalls(ctx);

  it('customer.subscription.trial_will_end is sent once, 3 days before the trial ends; at once for a 2-day trial', async () => {
    const price = await recurringPrice(900);
    const { clock, customer } = await customerWithCard();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], trial_period_days: 14 });
    expect(await eventsOf('customer.subscription.trial_will_end', sub.id)).toEqual([]);

    await advance(clock, START + 11 * DAY - 60);
    expect(await eventsOf('customer.subscription.trial_will_end', sub.id)).toEqual([]);
    await advance(clock, START + 12 * DAY);
    const [notice, ...more] = await eventsOf('customer.subscription.trial_will_end', sub.id);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ created: START + 11 * DAY, data: { object: { object: 'subscription', status: 'trialing', trial_end: START + 14 * DAY } } });

    // Through the trial's end and two renewals: still that one.
    await advance(clock, START + 80 * DAY);
    await runJobOnce(ctx.h.tillpoint.deps, 'billing');
    expect(await eventsOf('customer.subscription.trial_will_end', sub.id)).toHaveLength(1);
    expect((await ok('GET', `/v1/subscriptions/${sub.id}`)).status).toBe('active');

    // A trial shorter than 3 days: told at once, as of the subscription's start.
    const short = await customerWithCard();
    const brief = await ok('POST', '/v1/subscriptions', { customer: short.customer, items: [{ price }], trial_period_days: 2 });
    expect(await eventsOf('customer.subscription.trial_will_end', brief.id)).toMatchObject([{ created: START, data: { object: { id: brief.id } } }]);
    await advance(short.clock, START + 2 * DAY - 60);
    expect(await eventsOf('customer.subscription.trial_will_end', brief.id)).toHaveLength(1);
  });

  it('invoice.upcoming is sent once per period, 7 days before each renewal, carrying the invoice the renewal then makes', async () => {
    const price = await recurringPrice(2000);
    const { clock, customer } = await customerWithCard();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price, quantity: 2 }] });
    const renewals = [Date.UTC(2027, 1, 1, 9) / 1000, Date.UTC(2027, 2, 1, 9) / 1000, Date.UTC(2027, 3, 1, 9) / 1000];

    // To an hour before the third renewal: each renewal's notice came a week before it, and only once.
    await advance(clock, renewals[2]! - 3600);
    await advance(clock, renewals[2]! - 60);
    await runJobOnce(ctx.h.tillpoint.deps, 'billing');
    const notices = await eventsOf('invoice.upcoming', sub.id);
    expect(notices.map((event) => event.created)).toEqual(renewals.map((at) => at - 7 * DAY));
    expect(notices[0]!.data.object).toMatchObject({
      id: null,
      object: 'invoice',
      status: 'draft',
      customer,
      subscription: sub.id,
      billing_reason: 'subscription_cycle',
      amount_due: 4000,
      amount_paid: 0,
      period_start: renewals[0],
      period_end: renewals[1],
      next_payment_attempt: renewals[0],
      payment: null,
      hosted_invoice_url: null,
    });
    expect(notices[0]!.data.object.lines.data).toMatchObject([
      { amount: 4000, quantity: 2, proration: false, period: { start: renewals[0], end: renewals[1] } },
    ]);

    // What was announced is what the renewal billed.
    const made = (await ok('GET', `/v1/invoices?subscription=${sub.id}&limit=10`)).data.find((invoice: any) => invoice.period_start === renewals[0]);
    expect(made).toMatchObject({ status: 'paid', amount_due: 4000, period_end: renewals[1] });

    // A weekly subscription's period is no longer than the lead: its notice comes at once, each period.
    const weekly = await recurringPrice(500, { interval: 'week' });
    const other = await customerWithCard();
    const week = await ok('POST', '/v1/subscriptions', { customer: other.customer, items: [{ price: weekly }] });
    await advance(other.clock, START + 14 * DAY + 60);
    expect((await eventsOf('invoice.upcoming', week.id)).map((event) => [event.created, event.data.object.period_start])).toEqual([
      [START, START + 7 * DAY],
      [START + 7 * DAY, START + 14 * DAY],
      [START + 14 * DAY, START + 21 * DAY],
    ]);
  });

  it('no invoice.upcoming for a subscription that ends at its period end', async () => {
    const price = await recurringPrice(700);
    const { clock, customer } = await customerWithCard();
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }] });
    await ok('POST', `/v1/subscriptions/${sub.id}`, { cancel_at_period_end: true });
    await advance(clock, START + 40 * DAY);
    expect(await eventsOf('invoice.upcoming', sub.id)).toEqual([]);
  });

  it('billing jobs run at once in two places send each notice once (wall clock)', async () => {
    const price = await recurringPrice(1200);
    const { customer } = await customerWithCard({ wallClock: true });
    const subs = await Promise.all(Array.from({ length: 3 }, () => ok('POST', '/v1/subscriptions', { customer, items: [{ price }], trial_period_days: 14 })));
    // Twelve days on: each trial ends within 3 days, and its first renewal is within 7.
    ctx.h.clock.advance(12 * DAY * 1000);
    const deps = ctx.h.tillpoint.deps;
    await Promise.all([runJobOnce(deps, 'billing'), runJobOnce(deps, 'billing')]);
    await Promise.all([runJobOnce(deps, 'billing'), runJobOnce(deps, 'billing')]);
    for (const sub of subs) {
      expect(await eventsOf('customer.subscription.trial_will_end', sub.id)).toHaveLength(1);
      expect(await eventsOf('invoice.upcoming', sub.id)).toHaveLength(1);
    }
  });

  it('preferred_locales: kept as written canonically, refused when not a language tag, changing nothing', async () => {
    const customer = await ok('POST', '/v1/customers', { email: 'kim@example.com', preferred_locales: ['pt-br', 'EN'] });
    expect(customer.preferred_locales).toEqual(['pt-BR', 'en']);
    const refused = await call('POST', `/v1/customers/${customer.id}`, { preferred_locales: ['de', 'not a tag!'] });
    expectError(refused, 400, 'parameter_invalid', { param: 'preferred_locales' });
    expect((await ok('GET', `/v1/customers/${customer.id}`)).preferred_locales).toEqual(['pt-BR', 'en']);
    expect((await ok('POST', `/v1/customers/${customer.id}`, { preferred_locales: [] })).preferred_locales).toEqual([]);
  });
});

describe.each(testDatabases)('payment failed emails ($name)', (database) => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(async () => smtp?.close());
  const ctx = useIntegration(database, {
    get smtp() {
      return { url: smtp.url, from: FROM };
    },
  });
  const { ok, recurringPrice, customerWithCard, advance } = billingCalls(ctx);
  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address)).map(readMail);

  it("a renewal declined with 0341 emails the customer once per failed charge, in the customer's language, with the invoice's page and the next try", async () => {
    const email = 'kunde@example.de';
    const price = await recurringPrice(1500);
    const { clock, customer } = await customerWithCard({ card: DECLINES_AFTER_SAVE, preferredLocales: ['gsw', 'de-AT', 'en'], email });
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], trial_period_days: 3 });

    // The trial ends on 4 January; its renewal is declined and retried 1 day later.
    await advance(clock, START + 3 * DAY + 60);
    const [renewal] = (await ok('GET', `/v1/invoices?subscription=${sub.id}&status=open`)).data;
    expect(renewal).toMatchObject({ attempt_count: 1, next_payment_attempt: START + 4 * DAY });
    const [first, ...others] = mailsTo(email);
    expect(others).toEqual([]);
    expect(first!.subject).toBe('Ihre Zahlung an Test Shop ist fehlgeschlagen');
    expect(first!.text).toContain('Ihre Zahlung von 15,00\u00a0$ an Test Shop ist fehlgeschlagen.');
    expect(first!.text).toContain(`Rechnungsnummer: ${renewal.id}`);
    expect(first!.text).toContain('Wir versuchen es am 5. Januar 2027 erneut.');
    expect(renewal.hosted_invoice_url).toMatch(/^http:\/\/checkout\.test\/i\/ih_/);
    expect(first!.text).toContain(`Jetzt bezahlen, auch mit einer anderen Karte: ${renewal.hosted_invoice_url}`);
    expect(first!.text).toContain('Testmodus');
    expect(first!.text.replace(/\s/g, '')).not.toContain('4000000000000341');

    // The four retries fail too: one email each, the last saying so; the billing job sends none again.
    await advance(clock, START + 30 * DAY);
    await runJobOnce(ctx.h.tillpoint.deps, 'billing');
    const mails = mailsTo(email);
    expect(mails).toHaveLength(5);
    const german = (seconds: number) => new Intl.DateTimeFormat('de', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(seconds * 1000));
    expect(mails.slice(1, 4).map((mail) => /Wir versuchen es am (.+) erneut\./.exec(mail.text)?.[1])).toEqual(
      [6, 8, 10].map((days) => german(START + days * DAY)),
    );
    expect(mails[4]!.text).toContain('Das war der letzte Versuch: Die Zahlung wird nicht erneut versucht.');
    expect(mails[4]!.text).not.toContain('Wir versuchen es');
    expect(await ok('GET', `/v1/invoices/${renewal.id}`)).toMatchObject({ status: 'uncollectible', attempt_count: 5 });
  });

  it('a customer without preferred languages is emailed in English; two billing jobs at once email each failure once', async () => {
    const email = 'wall@example.com';
    const price = await recurringPrice(2500);
    const { customer } = await customerWithCard({ card: DECLINES_AFTER_SAVE, wallClock: true, email });
    await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], trial_period_days: 3 });
    const deps = ctx.h.tillpoint.deps;
    // The renewal at the trial's end, then the first retry a day later, each run by two instances at once.
    for (const days of [3, 4]) {
      ctx.h.clock.advance((days === 3 ? 3 * DAY + 60 : DAY) * 1000);
      await Promise.all([runJobOnce(deps, 'billing'), runJobOnce(deps, 'billing')]);
    }
    const mails = mailsTo(email);
    expect(mails.map((mail) => mail.subject)).toEqual(['Your payment to Test Shop failed', 'Your payment to Test Shop failed']);
    expect(mails[0]!.text).toContain('Your payment of $25.00 to Test Shop failed.');
    expect(mails[0]!.text).toMatch(/We will try again on \w+ \d+, \d{4}\./);
    const failures = await rows(ctx.db, `SELECT count(*)::int AS n FROM events WHERE type = 'invoice.payment_failed'`);
    expect(failures[0]!.n).toBe(2);

    // As if the instance that recorded the second failure stopped before emailing it: the next runs,
    // two at once, both find it, and one sends it.
    await ctx.db.query('UPDATE invoices SET failure_emailed_attempts = 1 WHERE failure_emailed_attempts = 2');
    await Promise.all([runJobOnce(deps, 'billing'), runJobOnce(deps, 'billing')]);
    expect(mailsTo(email)).toHaveLength(3);
    await runJobOnce(deps, 'billing');
    expect(mailsTo(email)).toHaveLength(3);
  });
});

describe.each(testDatabases)('payment failed emails without a mail server ($name)', (database) => {
  const ctx = useIntegration(database);
  const { ok, recurringPrice, customerWithCard, advance } = billingCalls(ctx);

  it('with no SMTP_URL nothing is sent and nothing fails: the renewal fails, is retried and ends as it would with emails', async () => {
    const price = await recurringPrice(1500);
    const { clock, customer } = await customerWithCard({ card: DECLINES_AFTER_SAVE });
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], trial_period_days: 3 });
    await advance(clock, START + 30 * DAY);
    expect((await ok('GET', `/v1/subscriptions/${sub.id}`)).status).toBe('canceled');
    const [renewal] = (await ok('GET', `/v1/invoices?subscription=${sub.id}&status=uncollectible`)).data;
    expect(renewal).toMatchObject({ attempt_count: 5 });
    const failures = await rows(ctx.db, `SELECT count(*)::int AS n FROM events WHERE type = 'invoice.payment_failed'`);
    expect(failures[0]!.n).toBe(5);
  });
});

describe.each(testDatabases)('payment failed emails the mail server refuses ($name)', (database) => {
  let refusing: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    refusing = await startSmtpReceiver({ refuse: true });
  });
  afterAll(async () => refusing?.close());
  const ctx = useIntegration(database, {
    get smtp() {
      return { url: refusing.url, from: FROM };
    },
  });
  const { ok, recurringPrice, customerWithCard, advance } = billingCalls(ctx);

  it('each failure is offered to the mail server once and not again, and billing goes on', async () => {
    const price = await recurringPrice(1500);
    const { clock, customer } = await customerWithCard({ card: DECLINES_AFTER_SAVE, email: 'bounce@example.com' });
    const sub = await ok('POST', '/v1/subscriptions', { customer, items: [{ price }], trial_period_days: 3 });
    await advance(clock, START + 3 * DAY + 60);
    expect(refusing.refused).toEqual(['bounce@example.com']);
    await runJobOnce(ctx.h.tillpoint.deps, 'billing');
    await advance(clock, START + 3 * DAY + 120);
    expect(refusing.refused).toEqual(['bounce@example.com']);
    await advance(clock, START + 30 * DAY);
    expect(refusing.refused).toHaveLength(5);
    expect((await ok('GET', `/v1/subscriptions/${sub.id}`)).status).toBe('canceled');
  });
});
