import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../../src/domain/webhooks/use-cases/deliver-due-webhooks';
import { httpWebhookSender } from '../../src/adapters/webhooks/http-sender';
import { testDatabases } from '../support/databases';
import { addMember, dashboardCall, signUpOwner, type DashboardAgent } from '../support/dashboard';
import { expectError, merchantCall, payCall, tokenize, useIntegration } from '../support/integration';
import { WebhookReceiver } from '../support/webhook-receiver';

interface StoryEvent {
  id: string;
  type: string;
  object: string;
  deliveries: Array<{
    id: string;
    webhook_endpoint: string;
    endpoint_url: string;
    status: string;
    attempts: number;
    last_response_status: number | null;
  }> | null;
}

describe.each(testDatabases)("a payment's whole story on the dashboard ($name)", (database) => {
  const ctx = useIntegration(database);
  const receiver = new WebhookReceiver();
  let receiverUrl = '';
  const sender = httpWebhookSender();
  beforeAll(async () => {
    receiverUrl = await receiver.start();
  });
  afterAll(() => receiver.stop());

  /** A shop with a webhook endpoint, a paid payment of two line items with metadata, and a partial refund. */
  async function storyShop(): Promise<{
    owner: DashboardAgent;
    base: string;
    key: string;
    paymentId: string;
    sessionId: string;
    refundId: string;
    endpointId: string;
  }> {
    const owner = await signUpOwner(ctx.h, 'Story Shop');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    const key = (await dashboardCall(ctx.h, owner, 'POST', `${base}/api-keys`, { kind: 'secret' })).json().secret;
    const endpoint = (
      await dashboardCall(ctx.h, owner, 'POST', `${base}/webhook-endpoints`, { url: receiverUrl, enabled_events: ['payment.succeeded', 'refund.succeeded'] })
    ).json();
    receiver.secret = endpoint.secret;
    receiver.script = [500];
    const session = (
      await merchantCall(ctx.h, key, 'POST', '/v1/checkout/sessions', {
        currency: 'eur',
        line_items: [
          { name: 'Blue mug', unit_amount: 1200, quantity: 2 },
          { name: 'Saucer', unit_amount: 600, quantity: 1 },
        ],
        metadata: { order_id: 'ord_778' },
        client_reference_id: 'cart-42',
      })
    ).json();
    const paid = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id), 'jane.doe@buyer.example');
    expect(paid.statusCode, paid.body).toBe(200);
    await deliverDueWebhooks(ctx.h.tillpoint.deps, { sender }); // answered 500: retried later
    ctx.h.clock.advance(1000);
    const paymentId = (await merchantCall(ctx.h, key, 'GET', `/v1/payments?checkout_session=${session.id}`)).json().data[0].id as string;
    const refund = await merchantCall(ctx.h, key, 'POST', '/v1/refunds', { payment: paymentId, amount: 1000, reason: 'requested_by_customer' });
    expect(refund.statusCode, refund.body).toBe(200);
    await deliverDueWebhooks(ctx.h.tillpoint.deps, { sender });
    return { owner, base, key, paymentId, sessionId: session.id, refundId: refund.json().id, endpointId: endpoint.id };
  }

  it('tells line items, metadata, customer, method, refunds, events with their deliveries and the request-log lines, in one answer', async () => {
    const { owner, base, paymentId, sessionId, refundId, endpointId } = await storyShop();
    const story = (await dashboardCall(ctx.h, owner, 'GET', `${base}/payments/${paymentId}`)).json();
    expect(story).toMatchObject({
      id: paymentId,
      amount: 3000,
      amount_refunded: 1000,
      status_badge: 'partially_refunded',
      customer_email: 'jane.doe@buyer.example',
      checkout_session: sessionId,
      payment_method: { type: 'card', brand: 'visa', last4: '1111' },
      line_items: [
        { name: 'Blue mug', unit_amount: 1200, quantity: 2, amount: 2400 },
        { name: 'Saucer', unit_amount: 600, quantity: 1, amount: 600 },
      ],
      metadata: { order_id: 'ord_778' },
      client_reference_id: 'cart-42',
      refunds: [{ id: refundId, amount: 1000, status: 'succeeded' }],
      disputes: [],
    });
    const timeline = story.timeline as StoryEvent[];
    expect(timeline.map((e) => [e.type, e.object])).toEqual([
      ['payment.succeeded', paymentId],
      ['refund.succeeded', refundId],
    ]);
    // Each event's delivery to the endpoint: the first answered 500 (retrying), the second 200.
    expect(timeline[0]!.deliveries).toEqual([
      expect.objectContaining({ webhook_endpoint: endpointId, endpoint_url: receiverUrl, status: 'retrying', attempts: 1, last_response_status: 500 }),
    ]);
    expect(timeline[1]!.deliveries).toEqual([expect.objectContaining({ status: 'delivered', last_response_status: 200 })]);

    // The request log is written in batches just after the answer: the calls that made the
    // session and the refund appear shortly, newest first; the list call named no object.
    await expect
      .poll(async () =>
        (await dashboardCall(ctx.h, owner, 'GET', `${base}/payments/${paymentId}`))
          .json()
          .request_log.map((r: { method: string; path: string; status: number }) => `${r.method} ${r.path} ${r.status}`),
      )
      .toEqual(['POST /v1/refunds 200', 'POST /v1/checkout/sessions 200']);
  });

  it('resends a delivery from the story: due again at once, and the next pass sends it', async () => {
    const { owner, base, paymentId, endpointId } = await storyShop();
    const story = (await dashboardCall(ctx.h, owner, 'GET', `${base}/payments/${paymentId}`)).json();
    const failed = (story.timeline as StoryEvent[])[0]!.deliveries![0]!;
    const before = receiver.received.length;
    const resend = await dashboardCall(ctx.h, owner, 'POST', `${base}/webhook-endpoints/${endpointId}/deliveries/${failed.id}/resend`);
    expect(resend.statusCode, resend.body).toBe(202);
    await deliverDueWebhooks(ctx.h.tillpoint.deps, { sender });
    expect(receiver.received.length).toBe(before + 1);
    const after = (await dashboardCall(ctx.h, owner, 'GET', `${base}/payments/${paymentId}`)).json();
    expect((after.timeline as StoryEvent[])[0]!.deliveries![0]).toMatchObject({ id: failed.id, status: 'delivered', attempts: 2, last_response_status: 200 });
  });

  it('leaves out what a role may not read: a viewer sees masked emails, no deliveries and no request log', async () => {
    const { owner, base, paymentId } = await storyShop();
    const viewer = await addMember(ctx.h, owner, 'viewer');
    const story = (await dashboardCall(ctx.h, viewer, 'GET', `${base}/payments/${paymentId}`)).json();
    expect(story.customer_email).toBe('j•••@buyer.example');
    expect(JSON.stringify(story)).not.toContain('jane.doe');
    expect(story.request_log).toBeNull();
    expect((story.timeline as StoryEvent[]).map((e) => e.deliveries)).toEqual([null, null]);
    expect(story.line_items).toHaveLength(2);

    const support = await addMember(ctx.h, owner, 'support');
    const seen = (await dashboardCall(ctx.h, support, 'GET', `${base}/payments/${paymentId}`)).json();
    expect(seen.customer_email).toBe('jane.doe@buyer.example');
    expect(seen.request_log).toBeNull();
  });

  it('answers resource_missing for a payment of another mode or account, and refuses a malformed id', async () => {
    const { owner, paymentId } = await storyShop();
    expectError(await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/live/payments/${paymentId}`), 404, 'resource_missing', {
      param: 'id',
    });
    const stranger = await signUpOwner(ctx.h, 'Other Shop');
    const other = await dashboardCall(ctx.h, stranger, 'GET', `/dashboard/api/accounts/${stranger.accountId}/test/payments/${paymentId}`);
    expectError(other, 404, 'resource_missing', { param: 'id' });
    expectError(await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/test/payments/pay-1%20x`), 400, 'parameter_invalid', {
      param: 'id',
    });
  });
});
