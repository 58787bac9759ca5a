import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../../../src/domain/webhooks/use-cases/deliver-due-webhooks';
import { httpWebhookSender } from '../../../src/adapters/webhooks/http-sender';
import { testDatabases } from '../../../test/support/databases';
import { useIntegration } from '../../../test/support/integration';
import { WebhookReceiver } from '../../../test/support/webhook-receiver';
import { disputedPayment, runJob } from '../../../test/support/disputes';
import { AuthenticationError, InvalidRequestError, Tillpoint, WebhookSignatureError, type CheckoutSession } from '../src/index';

/**
 * A TCP proxy in front of the server that cuts the connection carrying the first answer, after
 * the server has acted: what a client sees when the network drops at the worst moment.
 */
async function startCuttingProxy(target: number): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  let cut = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    connections++;
    const upstream = connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk) => {
      if (!cut) {
        cut = true;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const beans = { currency: 'usd', line_items: [{ name: 'Kenya AA, 250 g', unit_amount: 1650, quantity: 2 }] };

// The SDK talks HTTP; the database under the server does not change what it sees.
describe.each(testDatabases.slice(0, 1))('@tillpoint/node against a real server ($name)', (database) => {
  const ctx = useIntegration(database);
  let baseUrl = '';
  let tp: Tillpoint;

  beforeAll(async () => {
    await ctx.h.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(ctx.h.app.server.address() as AddressInfo).port}`;
  });

  const client = () => (tp = new Tillpoint(ctx.key, { baseUrl, initialRetryDelayMs: 10 }));

  /** The shopper pays on the checkout page with a test nonce, through the page's own endpoint. */
  async function pay(session: CheckoutSession, nonce = 'fake-valid-nonce') {
    const res = await fetch(`${baseUrl}/api/checkout/sessions/${session.id}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ payment_method_type: 'card', nonce, email: 'shopper@example.com' }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  }

  it('tp.disputes: lists, adds evidence, submits and reads the decision; a refusal is a typed error', async () => {
    client();
    const { paymentId, dispute } = await disputedPayment(ctx, 4200);
    const listed = await tp.disputes.list({ payment: paymentId });
    expect(listed.data.map((d) => d.id)).toEqual([dispute.id]);
    const answered = await tp.disputes.addEvidence(dispute.id, { text: 'compelling_evidence' });
    expect(answered.evidence.map((e) => e.text)).toEqual(['compelling_evidence']);
    expect((await tp.disputes.submit(dispute.id)).status).toBe('under_review');
    ctx.h.clock.advance(6000);
    await runJob(ctx, 'test-processor-disputes');
    expect((await tp.disputes.retrieve(dispute.id)).status).toBe('won');
    const refused = await tp.disputes.accept(dispute.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect(refused).toMatchObject({ code: 'dispute_not_open', statusCode: 409 });
  });

  it('creates a session, sees it paid and refunds part of it', async () => {
    client();
    const created = await tp.checkout.sessions.create({ ...beans, metadata: { order_id: '1042' } });
    expect(created).toMatchObject({ object: 'checkout.session', status: 'open', amount_total: 3300, metadata: { order_id: '1042' } });
    expect(created.url).toContain(`/c/${created.id}`);
    await pay(created);

    const paid = await tp.checkout.sessions.retrieve(created.id);
    expect(paid.status).toBe('complete');
    const payment = await tp.payments.retrieve(paid.payment!);
    expect(payment).toMatchObject({ status: 'succeeded', amount: 3300, checkout_session: created.id });

    const refund = await tp.refunds.create({ payment: payment.id, amount: 1000, reason: 'requested_by_customer' });
    expect(refund).toMatchObject({ object: 'refund', status: 'succeeded', amount: 1000, payment: payment.id });
    expect((await tp.payments.retrieve(payment.id)).amount_refunded).toBe(1000);
    expect((await tp.refunds.list({ payment: payment.id })).data.map((r) => r.id)).toEqual([refund.id]);

    const other = await tp.checkout.sessions.create(beans);
    expect((await tp.checkout.sessions.expire(other.id)).status).toBe('expired');
  });

  it('tp.payments.sendReceipt reaches the API: on an install without a mail server it is a typed error', async () => {
    client();
    const created = await tp.checkout.sessions.create(beans);
    await pay(created);
    const paymentId = (await tp.checkout.sessions.retrieve(created.id)).payment!;
    const refused = await tp.payments.sendReceipt(paymentId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect(refused).toMatchObject({ code: 'email_not_configured', statusCode: 409 });
    const unknown = await tp.payments.sendReceipt('pay_nope').catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: 'resource_missing', statusCode: 404 });
  });

  it('creates a coupon and a promotion code and opens a discounted session with them', async () => {
    client();
    const coupon = await tp.coupons.create({ percent_off: 10, max_redemptions: 5 });
    const code = await tp.promotionCodes.create({ coupon: coupon.id, code: 'BEANS10' });
    expect(code).toMatchObject({ object: 'promotion_code', code: 'BEANS10', coupon: { id: coupon.id, percent_off: 10 } });
    expect((await tp.promotionCodes.list({ code: 'beans10' })).data.map((c) => c.id)).toEqual([code.id]);
    expect((await tp.coupons.retrieve(coupon.id)).valid).toBe(true);
    const session = await tp.checkout.sessions.create({ ...beans, discounts: [{ promotion_code: code.id }] });
    expect(session).toMatchObject({ amount_subtotal: 3300, amount_total: 2970, total_details: { amount_discount: 330, amount_shipping: 0, amount_tax: 0 } });
    const tax = await tp.taxRates.create({ display_name: 'Sales tax', percentage: 10, inclusive: false });
    expect((await tp.taxRates.retrieve(tax.id)).percentage).toBe(10);
    const taxed = await tp.checkout.sessions.create({ currency: 'usd', line_items: [{ ...beans.line_items[0]!, tax_rates: [tax.id] }] });
    expect(taxed.total_details).toEqual({ amount_discount: 0, amount_shipping: 0, amount_tax: 330 });
  });

  it('tp.prices and tp.products.update: a monthly price, archived, filtered, and a product edited', async () => {
    client();
    const product = await tp.products.create({ name: 'Coffee club' });
    const monthly = await tp.prices.create({ product: product.id, currency: 'usd', unit_amount: 2000, recurring: { interval: 'month' }, nickname: 'Monthly' });
    expect(monthly).toMatchObject({
      object: 'price',
      type: 'recurring',
      recurring: { interval: 'month', interval_count: 1 },
      unit_amount: 2000,
      nickname: 'Monthly',
    });
    ctx.h.clock.advance(1000);
    const once = await tp.prices.create({ product: product.id, currency: 'usd', unit_amount: 500 });
    expect(once).toMatchObject({ type: 'one_time', recurring: null });
    expect((await tp.prices.list({ product: product.id, type: 'recurring' })).data.map((p) => p.id)).toEqual([monthly.id]);
    expect(await tp.prices.retrieve(monthly.id)).toEqual(monthly);
    expect(await tp.prices.update(monthly.id, { active: false, metadata: { tier: 'gold' } })).toMatchObject({ active: false, metadata: { tier: 'gold' } });
    const edited = await tp.products.update(product.id, { name: 'Coffee club+', default_price: once.id });
    expect(edited).toMatchObject({ name: 'Coffee club+', default_price: { id: once.id } });
    const refused = await tp.prices.update(once.id, { unit_amount: 1 } as never).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect(refused).toMatchObject({ code: 'parameter_unknown', param: 'unit_amount' });
  });

  it('tp.subscriptions, tp.invoices and tp.testHelpers.testClocks: a subscription checked out, billed a month on, canceled', async () => {
    client();
    const product = await tp.products.create({ name: 'Coffee club' });
    const price = await tp.prices.create({ product: product.id, currency: 'usd', unit_amount: 2000, recurring: { interval: 'month' } });
    const start = Date.UTC(2027, 0, 1) / 1000;
    const clock = await tp.testHelpers.testClocks.create({ frozen_time: start });
    const customer = await tp.customers.create({ email: 'ada@example.com', test_clock: clock.id });
    const checkout = await tp.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: price.id, quantity: 1 }] });
    await pay(checkout);
    const subscriptionId = (await tp.checkout.sessions.retrieve(checkout.id)).subscription!;
    expect(await tp.subscriptions.retrieve(subscriptionId)).toMatchObject({ status: 'active', customer: customer.id, current_period_start: start });
    expect((await tp.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 40 * 86400 })).status).toBe('ready');
    const invoices = await tp.invoices.list({ subscription: subscriptionId });
    expect(invoices.data.map((invoice) => invoice.status)).toEqual(['paid', 'paid']);
    expect((await tp.subscriptions.list({ customer: customer.id })).data.map((sub) => sub.id)).toEqual([subscriptionId]);
    expect((await tp.subscriptions.update(subscriptionId, { cancel_at_period_end: true })).cancel_at_period_end).toBe(true);
    expect((await tp.subscriptions.cancel(subscriptionId)).status).toBe('canceled');
    const refused = await tp.invoices.pay(invoices.data[0]!.id).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'invoice_not_payable', statusCode: 409 });
    expect(invoices.data[0]!.hosted_invoice_url).toMatch(/\/i\/ih_/);
  });

  it('tp.billingPortal.sessions: a page of the customer, which opens without a key', async () => {
    client();
    const customer = await tp.customers.create({ email: 'ada@example.com' });
    const portal = await tp.billingPortal.sessions.create({ customer: customer.id, return_url: 'https://shop.example/account', locale: 'fr' });
    expect(portal).toMatchObject({ object: 'billing_portal.session', customer: customer.id, return_url: 'https://shop.example/account', locale: 'fr' });
    const page = await ctx.h.app.inject({ method: 'GET', url: new URL(portal.url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="fr"');
    const refused = await tp.billingPortal.sessions.create({ customer: 'cus_nobody' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'resource_missing', param: 'customer' });
  });

  it('walks a list across pages with for await, newest first, each object once', async () => {
    client();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push((await tp.checkout.sessions.create(beans)).id);
      ctx.h.clock.advance(1000);
    }
    const first = await tp.checkout.sessions.list({ limit: 2 });
    expect(first.data.map((s) => s.id)).toEqual([made[4], made[3]]);
    expect(first.has_more).toBe(true);

    const seen: string[] = [];
    for await (const session of tp.checkout.sessions.list({ limit: 2 })) seen.push(session.id);
    expect(seen).toEqual([...made].reverse());
    expect(await tp.checkout.sessions.list({ limit: 2 }).toArray({ limit: 3 })).toHaveLength(3);
  });

  it('throws typed errors carrying code, param and request id', async () => {
    client();
    const missing = await tp.checkout.sessions.create({ line_items: beans.line_items } as never).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(InvalidRequestError);
    expect(missing).toMatchObject({ code: 'parameter_missing', param: 'currency', statusCode: 400, type: 'invalid_request_error' });
    expect((missing as InvalidRequestError).requestId).toMatch(/^req_/);

    const unknown = await tp.payments.retrieve('pay_nope').catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: 'resource_missing', statusCode: 404 });

    const badKey = await new Tillpoint('sk_test_nope', { baseUrl }).payments.list().catch((error: unknown) => error);
    expect(badKey).toBeInstanceOf(AuthenticationError);
    expect(badKey).toMatchObject({ code: 'api_key_invalid', statusCode: 401 });
  });

  it('retries a refund whose answer was cut with the same Idempotency-Key: exactly one refund', async () => {
    client();
    const session = await tp.checkout.sessions.create(beans);
    await pay(session);
    const paymentId = (await tp.checkout.sessions.retrieve(session.id)).payment!;

    const proxy = await startCuttingProxy(Number(new URL(baseUrl).port));
    try {
      const behindProxy = new Tillpoint(ctx.key, { baseUrl: proxy.url, maxNetworkRetries: 2, initialRetryDelayMs: 10 });
      const refund = await behindProxy.refunds.create({ payment: paymentId, amount: 500 });
      expect(refund).toMatchObject({ status: 'succeeded', amount: 500 });
      // The first connection carried the refund and lost its answer; the retry got the replay.
      expect(proxy.connections()).toBe(2);
    } finally {
      await proxy.close();
    }
    const refunds = await tp.refunds.list({ payment: paymentId });
    expect(refunds.data).toHaveLength(1);
    expect((await tp.payments.retrieve(paymentId)).amount_refunded).toBe(500);
  });

  it('constructEvent accepts real deliveries and rejects a tampered body, a wrong secret, a stale timestamp, a bad header', async () => {
    client();
    const receiver = new WebhookReceiver();
    try {
      const endpoint = await tp.webhookEndpoints.create({ url: await receiver.start(), enabled_events: ['*'] });
      receiver.secret = endpoint.secret!;
      const session = await tp.checkout.sessions.create(beans);
      await pay(session);
      await deliverDueWebhooks(ctx.h.tillpoint.deps, { sender: httpWebhookSender() });
      expect(receiver.received.map((w) => w.event.type).sort()).toEqual(['checkout.session.completed', 'payment.succeeded']);

      const now = () => ctx.h.clock.now().getTime();
      for (const delivery of receiver.received) {
        const event = tp.webhooks.constructEvent(delivery.body, delivery.signature, endpoint.secret!, 300, now);
        expect(event).toEqual(await tp.events.retrieve(delivery.event.id));
        expect(tp.webhooks.constructEvent(Buffer.from(delivery.body), delivery.signature, endpoint.secret!, 300, now).id).toBe(event.id);
      }

      const { body, signature } = receiver.received[0]!;
      const rejection = (run: () => unknown) => {
        try {
          run();
        } catch (error) {
          expect(error).toBeInstanceOf(WebhookSignatureError);
          return (error as WebhookSignatureError).reason;
        }
        return 'accepted';
      };
      const tampered = body.replace('"livemode":false', '"livemode":true');
      expect(tampered).not.toBe(body);
      expect(rejection(() => tp.webhooks.constructEvent(tampered, signature, endpoint.secret!, 300, now))).toBe('bad_signature');
      expect(rejection(() => tp.webhooks.constructEvent(body, signature, 'whsec_wrong', 300, now))).toBe('bad_signature');
      expect(rejection(() => tp.webhooks.constructEvent(body, signature, endpoint.secret!, 300, () => now() + 301_000))).toBe('stale_timestamp');
      expect(rejection(() => tp.webhooks.constructEvent(body, 'v1=abc', endpoint.secret!, 300, now))).toBe('bad_header');
      expect(rejection(() => tp.webhooks.constructEvent(body, undefined, endpoint.secret!, 300, now))).toBe('bad_header');
    } finally {
      await receiver.stop();
    }
  });
});
