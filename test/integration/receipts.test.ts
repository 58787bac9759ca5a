import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { addMember, dashboardCall, signUpOwner, type DashboardAgent } from '../support/dashboard';
import { dumpDatabase, expectError, merchantCall, rows, tokenize, useIntegration, withoutBookkeeping, type IntegrationContext } from '../support/integration';
import { readMail, startSmtpReceiver } from '../support/smtp-receiver';

const FROM = 'Tillpoint <no-reply@checkout.test>';

/** An owner's account, with receipts on or off, a support email and a test secret key. */
async function shop(ctx: IntegrationContext, sendReceipts: boolean) {
  const owner = await signUpOwner(ctx.h, 'Kaffeerösterei');
  const accountUrl = `/dashboard/api/accounts/${owner.accountId}`;
  const base = `${accountUrl}/test`;
  const settings = await dashboardCall(ctx.h, owner, 'POST', `${accountUrl}/settings`, {
    display_name: 'Kaffee & Co',
    support_email: 'help@kaffee.example',
    send_receipts: sendReceipts,
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const key = (await dashboardCall(ctx.h, owner, 'POST', `${base}/api-keys`, { kind: 'secret' })).json().secret as string;
  return { owner, accountUrl, base, key };
}

/** A shopper pays a session; answers the payment's id. */
async function pay(
  ctx: IntegrationContext,
  key: string,
  session: Record<string, unknown>,
  options: { email?: string; acceptLanguage?: string } = {},
): Promise<string> {
  const created = await merchantCall(ctx.h, key, 'POST', '/v1/checkout/sessions', session);
  expect(created.statusCode, created.body).toBe(200);
  const id = created.json().id as string;
  const nonce = await tokenize(ctx.h, id);
  const paid = await ctx.h.app.inject({
    method: 'POST',
    url: `/api/checkout/sessions/${id}/payments`,
    headers: options.acceptLanguage ? { 'accept-language': options.acceptLanguage } : {},
    payload: { payment_method_type: 'card', nonce, email: options.email ?? 'shopper@example.com' },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  return (await merchantCall(ctx.h, key, 'GET', `/v1/checkout/sessions/${id}`)).json().payment as string;
}

const coffee = {
  line_items: [
    { name: 'Bohnen, 250 g', unit_amount: 1450, quantity: 2 },
    { name: 'Filterpapier', unit_amount: 600, quantity: 1 },
  ],
};

describe.each(testDatabases)('receipts by email ($name)', (database) => {
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

  it('is off until the merchant turns it on in the settings; a bad value changes nothing', async () => {
    const owner = await signUpOwner(ctx.h, 'Quiet Shop');
    const url = `/dashboard/api/accounts/${owner.accountId}/settings`;
    expect((await dashboardCall(ctx.h, owner, 'GET', url)).json().send_receipts).toBe(false);
    expectError(await dashboardCall(ctx.h, owner, 'POST', url, { send_receipts: 'yes' }), 400, 'parameter_invalid', { param: 'send_receipts' });
    expect((await dashboardCall(ctx.h, owner, 'GET', url)).json().send_receipts).toBe(false);
    const key = (await dashboardCall(ctx.h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/test/api-keys`, { kind: 'secret' })).json().secret;

    const before = smtp.received.length;
    await pay(ctx, key, { currency: 'usd', ...coffee });
    await ctx.h.tillpoint.deps.background.idle();
    expect(smtp.received.length).toBe(before);

    const on = await dashboardCall(ctx.h, owner, 'POST', url, { send_receipts: true });
    expect(on.json().send_receipts).toBe(true);
    expect((await dashboardCall(ctx.h, owner, 'GET', url)).json().send_receipts).toBe(true);
  });

  it('emails a German receipt with the items, totals, merchant and support contact, and no card number', async () => {
    const { key } = await shop(ctx, true);
    const arriving = smtp.next();
    const paymentId = await pay(ctx, key, { currency: 'eur', locale: 'de', ...coffee }, { email: 'kunde@example.de' });
    const mail = await arriving;
    expect(mail.to).toEqual(['kunde@example.de']);
    expect(mail.from).toBe('no-reply@checkout.test');
    const { subject, text } = readMail(mail);
    expect(subject).toBe('Ihre Quittung von Kaffee & Co');
    expect(text).toContain('Vielen Dank für Ihre Zahlung an Kaffee & Co.');
    expect(text).toContain(`Belegnummer: ${paymentId}`);
    expect(text).toContain('Bohnen, 250 g × 2  29,00\u00a0€');
    expect(text).toContain('Filterpapier × 1  6,00\u00a0€');
    expect(text).toContain('Zwischensumme: 35,00\u00a0€');
    expect(text).toContain('Bezahlt: 35,00\u00a0€');
    expect(text).toContain('Bezahlt mit Visa mit Endziffern 1111');
    expect(text).toContain('help@kaffee.example');
    expect(text).toContain('Testmodus');
    expect(mail.raw.replace(/\s/g, '')).not.toContain('4111111111111111');
    expect(ctx.h.logLines.join('\n').replace(/\s/g, '')).not.toContain('4111111111111111');
  });

  it("emails a French receipt with discount, shipping and tax (by its rate's name) as the session has them", async () => {
    const { key } = await shop(ctx, true);
    const coupon = await merchantCall(ctx.h, key, 'POST', '/v1/coupons', { percent_off: 10, duration: 'once' });
    expect(coupon.statusCode, coupon.body).toBe(200);
    const tax = await merchantCall(ctx.h, key, 'POST', '/v1/tax_rates', { display_name: 'TVA', percentage: 20, inclusive: false });
    expect(tax.statusCode, tax.body).toBe(200);
    const session = {
      currency: 'usd',
      locale: 'fr',
      line_items: [{ name: 'Moulin', unit_amount: 10000, quantity: 1, tax_rates: [tax.json().id] }],
      discounts: [{ coupon: coupon.json().id }],
      shipping_options: [{ shipping_rate_data: { display_name: 'Colissimo', fixed_amount: { amount: 500, currency: 'usd' } } }],
    };
    const arriving = smtp.next();
    const paymentId = await pay(ctx, key, session);
    const payment = (await merchantCall(ctx.h, key, 'GET', `/v1/payments/${paymentId}`)).json();
    const { subject, text } = readMail(await arriving);
    const usd = (minor: number) => new Intl.NumberFormat('fr', { style: 'currency', currency: 'USD' }).format(minor / 100);
    expect(subject).toBe('Votre reçu de Kaffee & Co');
    expect(text).toContain(`Sous-total: ${usd(10000)}`);
    expect(text).toContain(`Remise: −${usd(1000)}`);
    expect(text).toContain(`Livraison (Colissimo): ${usd(500)}`);
    // Each tax by its rate's name, as the merchant named it.
    expect(text).toContain(`TVA: ${usd(1800)}`);
    expect(payment.amount).toBe(10000 - 1000 + 500 + 1800);
    expect(text).toContain(`Total payé: ${usd(payment.amount)}`);
  });

  it("uses the shopper's browser language when the session's locale is auto, and the session's locale otherwise", async () => {
    const { key } = await shop(ctx, true);
    let arriving = smtp.next();
    await pay(ctx, key, { currency: 'eur', ...coffee }, { acceptLanguage: 'de-AT,de;q=0.9,en;q=0.5' });
    expect(readMail(await arriving).subject).toBe('Ihre Quittung von Kaffee & Co');
    arriving = smtp.next();
    await pay(ctx, key, { currency: 'usd', locale: 'fi', ...coffee });
    const finnish = readMail(await arriving);
    expect(finnish.subject).toBe('Kuittisi – Kaffee & Co');
    expect(finnish.text).toMatch(/Välisumma: 35,00\s\$/);
  });

  it('POST /v1/payments/:id/send_receipt sends it again, writes the audit log, and a replayed Idempotency-Key sends nothing', async () => {
    const { owner, accountUrl, key } = await shop(ctx, false);
    const paymentId = await pay(ctx, key, { currency: 'usd', ...coffee }, { email: 'again@example.com' });
    await ctx.h.tillpoint.deps.background.idle();
    const before = smtp.received.length;
    const arriving = smtp.next();
    const headers = { authorization: `Bearer ${key}`, 'idempotency-key': 'receipt-1' };
    const sent = await ctx.h.app.inject({ method: 'POST', url: `/v1/payments/${paymentId}/send_receipt`, headers });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ object: 'receipt', payment: paymentId, email: 'again@example.com', locale: 'en' });
    const { subject, text } = readMail(await arriving);
    expect(subject).toBe('Your receipt from Kaffee & Co');
    expect(text).toContain('Total paid: $35.00');
    const replay = await ctx.h.app.inject({ method: 'POST', url: `/v1/payments/${paymentId}/send_receipt`, headers });
    expect(replay.json()).toEqual(sent.json());
    await ctx.h.tillpoint.deps.background.idle();
    expect(smtp.received.length).toBe(before + 1);
    const audit = (await dashboardCall(ctx.h, owner, 'GET', `${accountUrl}/audit-log`)).json().data;
    expect(audit.filter((e: { action: string }) => e.action === 'payment.send_receipt')).toHaveLength(1);
  });

  it('refuses a payment not succeeded, one without an email and an unknown id, sending and changing nothing', async () => {
    const { key } = await shop(ctx, false);
    const authorized = await pay(ctx, key, { currency: 'usd', capture_method: 'manual', ...coffee });
    const noEmail = await pay(ctx, key, { currency: 'usd', ...coffee });
    // A payment whose email is not on file (its session and payment keep none).
    await rows(ctx.db, 'UPDATE payments SET customer_email = NULL WHERE id = $1', [noEmail]);
    await rows(ctx.db, 'UPDATE checkout_sessions SET customer_email = NULL WHERE payment_id = $1', [noEmail]);
    await ctx.h.tillpoint.deps.background.idle();
    const before = smtp.received.length;
    const dump = withoutBookkeeping(await dumpDatabase(ctx.db));
    expectError(await merchantCall(ctx.h, key, 'POST', `/v1/payments/${authorized}/send_receipt`), 409, 'payment_not_succeeded');
    expectError(await merchantCall(ctx.h, key, 'POST', `/v1/payments/${noEmail}/send_receipt`), 400, 'receipt_email_missing', { param: 'id' });
    expectError(await merchantCall(ctx.h, key, 'POST', '/v1/payments/pay_doesnotexist/send_receipt'), 404, 'resource_missing', { param: 'id' });
    expectError(await merchantCall(ctx.h, key, 'POST', `/v1/payments/${authorized}/send_receipt`, { email: 'x@example.com' }), 400, 'parameter_unknown', {
      param: 'email',
    });
    await ctx.h.tillpoint.deps.background.idle();
    expect(smtp.received.length).toBe(before);
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(dump);
  });

  it('"Resend receipt" in the dashboard: support and owner may, developer and viewer may not', async () => {
    const { owner, base, key } = await shop(ctx, false);
    const paymentId = await pay(ctx, key, { currency: 'usd', ...coffee });
    await ctx.h.tillpoint.deps.background.idle();
    const members: Record<string, DashboardAgent> = { owner };
    for (const role of ['support', 'developer', 'viewer']) members[role] = await addMember(ctx.h, owner, role);
    for (const role of ['developer', 'viewer']) {
      const before = smtp.received.length;
      expectError(await dashboardCall(ctx.h, members[role]!, 'POST', `${base}/payments/${paymentId}/send_receipt`), 403, 'insufficient_role');
      await ctx.h.tillpoint.deps.background.idle();
      expect(smtp.received.length).toBe(before);
    }
    for (const role of ['support', 'owner']) {
      const arriving = smtp.next();
      const res = await dashboardCall(ctx.h, members[role]!, 'POST', `${base}/payments/${paymentId}/send_receipt`);
      expect(res.statusCode, res.body).toBe(200);
      expect((await arriving).to).toEqual(['shopper@example.com']);
    }
  });
});

describe.each(testDatabases)('receipts without SMTP_URL ($name)', (database) => {
  const ctx = useIntegration(database);
  it('send_receipt says the install sends no email, and changes nothing; paying still works', async () => {
    const created = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', { currency: 'usd', ...coffee });
    const id = created.json().id;
    const paid = await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${id}/payments`,
      payload: { payment_method_type: 'card', nonce: await tokenize(ctx.h, id), email: 'shopper@example.com' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const paymentId = (await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${id}`)).json().payment;
    const dump = withoutBookkeeping(await dumpDatabase(ctx.db));
    const res = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/payments/${paymentId}/send_receipt`);
    expect(expectError(res, 409, 'email_not_configured').message).toContain('SMTP_URL');
    expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(dump);
  });
});
