import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../../src/domain/webhooks/use-cases/deliver-due-webhooks';
import { httpWebhookSender } from '../../src/adapters/webhooks/http-sender';
import { testDatabases } from '../support/databases';
import { countRows, createSession, expectError, merchantCall, rows, useIntegration } from '../support/integration';
import { liveKey } from '../support/keys';
import { WebhookReceiver } from '../support/webhook-receiver';

const MINUTE = 60_000;

describe.each(testDatabases)('webhooks ($name)', (database) => {
  const ctx = useIntegration(database);
  const receiver = new WebhookReceiver();
  let receiverUrl = '';
  const sender = httpWebhookSender();

  beforeAll(async () => {
    receiverUrl = await receiver.start();
  });
  afterAll(() => receiver.stop());
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.script = [];
    receiver.hold = false;
  });

  const pass = () => deliverDueWebhooks(ctx.h.tillpoint.deps, { sender });

  async function createEndpoint(enabled_events: string[] = ['*'], key = ctx.key, url = receiverUrl) {
    const res = await merchantCall(ctx.h, key, 'POST', '/v1/webhook_endpoints', { url, enabled_events, description: 'orders' });
    expect(res.statusCode, res.body).toBe(200);
    const endpoint = res.json();
    receiver.secret = endpoint.secret;
    return endpoint;
  }

  /** Makes a `checkout.session.expired` event by expiring a fresh session through the API. */
  async function expireSession(): Promise<string> {
    const session = await createSession(ctx);
    const res = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${session.id}/expire`);
    expect(res.statusCode, res.body).toBe(200);
    return session.id;
  }

  const deliveries = async (endpointId: string) => {
    const res = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/webhook_endpoints/${endpointId}/deliveries`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Array<Record<string, any>>;
  };

  describe('endpoints', () => {
    it('shows the secret only on create and roll; reads, lists and deletes', async () => {
      const endpoint = await createEndpoint(['checkout.session.expired', 'payment.succeeded']);
      expect(endpoint).toMatchObject({
        object: 'webhook_endpoint',
        livemode: false,
        url: receiverUrl,
        description: 'orders',
        enabled_events: ['checkout.session.expired', 'payment.succeeded'],
        status: 'enabled',
      });
      expect(endpoint.id).toMatch(/^we_[0-9A-Za-z]{24}$/);
      expect(endpoint.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);

      const read = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/webhook_endpoints/${endpoint.id}`);
      const { secret: _secret, ...withoutSecret } = endpoint;
      expect(read.json()).toEqual(withoutSecret);
      const list = await merchantCall(ctx.h, ctx.key, 'GET', '/v1/webhook_endpoints');
      expect(list.json()).toMatchObject({ object: 'list', has_more: false, data: [withoutSecret] });

      const rolled = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/webhook_endpoints/${endpoint.id}/roll_secret`);
      expect(rolled.statusCode).toBe(200);
      expect(rolled.json().secret).toMatch(/^whsec_/);
      expect(rolled.json().secret).not.toBe(endpoint.secret);

      const deleted = await merchantCall(ctx.h, ctx.key, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`);
      expect(deleted.json()).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
      expectError(await merchantCall(ctx.h, ctx.key, 'GET', `/v1/webhook_endpoints/${endpoint.id}`), 404, 'resource_missing', { param: 'id' });
    });

    it("answers another account's endpoint as missing and leaves it alone", async () => {
      const endpoint = await createEndpoint();
      const other = await ctx.h.newAccountKey('Other');
      for (const [method, url] of [
        ['GET', `/v1/webhook_endpoints/${endpoint.id}`],
        ['DELETE', `/v1/webhook_endpoints/${endpoint.id}`],
        ['POST', `/v1/webhook_endpoints/${endpoint.id}/roll_secret`],
        ['GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`],
      ] as const) {
        expectError(await merchantCall(ctx.h, other, method, url), 404, 'resource_missing', { param: 'id' });
      }
      expect((await rows(ctx.db, 'SELECT secret FROM webhook_endpoints'))[0]!.secret).toBe(endpoint.secret);
    });

    it.each([
      [{ url: 'https://example.com/h', enabled_events: ['payment.exploded'] }, 'parameter_invalid', 'enabled_events[0]'],
      [{ url: 'https://example.com/h', enabled_events: [] }, 'parameter_invalid', 'enabled_events'],
      [{ url: 'ftp://example.com/h', enabled_events: ['*'] }, 'parameter_invalid', 'url'],
      [{ enabled_events: ['*'] }, 'parameter_missing', 'url'],
      [{ url: 'https://example.com/h', enabled_events: ['*'], secret: 'mine' }, 'parameter_unknown', 'secret'],
    ])('refuses %j', async (body, code, param) => {
      expectError(await merchantCall(ctx.h, ctx.key, 'POST', '/v1/webhook_endpoints', body), 400, code, { param });
      expect(await countRows(ctx.db, 'webhook_endpoints')).toBe(0);
    });

    it.each([
      'http://shop.example.com/hooks',
      'https://localhost/hooks',
      'https://127.0.0.1/hooks',
      'https://10.1.2.3/hooks',
      'https://172.20.0.1/hooks',
      'https://192.168.1.1/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://[fd00::1]/hooks',
    ])('refuses %s in live mode (https only, no private addresses)', async (url) => {
      const live = await liveKey(ctx);
      const res = await merchantCall(ctx.h, live, 'POST', '/v1/webhook_endpoints', { url, enabled_events: ['*'] });
      expectError(res, 400, 'parameter_invalid', { param: 'url' });
      expect(await countRows(ctx.db, 'webhook_endpoints')).toBe(0);
    });

    it('accepts a public https URL in live mode and http://localhost in test mode', async () => {
      const live = await liveKey(ctx);
      const res = await merchantCall(ctx.h, live, 'POST', '/v1/webhook_endpoints', { url: 'https://93.184.215.14/hooks', enabled_events: ['*'] });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().livemode).toBe(true);
      await createEndpoint(['*'], ctx.key, receiverUrl);
    });
  });

  describe('delivery', () => {
    it('writes deliveries in the event transaction and posts the signed event', async () => {
      const endpoint = await createEndpoint(['checkout.session.expired']);
      const paymentsOnly = await createEndpoint(['payment.succeeded']);
      receiver.secret = endpoint.secret;
      const sessionId = await expireSession();
      // Fan-out is in the same transaction as the event: the delivery exists before any worker runs.
      expect(await countRows(ctx.db, 'webhook_deliveries')).toBe(1);

      expect(await pass()).toBe(1);
      expect(receiver.received).toHaveLength(1);
      const [hook] = receiver.received;
      expect(hook!.signatureValid).toBe(true);
      expect(Math.abs(hook!.timestamp - ctx.h.clock.now().getTime() / 1000)).toBeLessThanOrEqual(300);
      expect(hook!.event).toMatchObject({
        object: 'event',
        type: 'checkout.session.expired',
        livemode: false,
        data: { object: { id: sessionId, object: 'checkout.session', status: 'expired' } },
      });
      expect(hook!.event.id).toMatch(/^evt_/);
      const [event] = await rows(ctx.db, 'SELECT id FROM events');
      expect(hook!.event.id).toBe(event!.id);

      const [delivery] = await deliveries(endpoint.id);
      expect(delivery).toMatchObject({
        object: 'webhook_delivery',
        event: hook!.event.id,
        event_type: 'checkout.session.expired',
        status: 'delivered',
        attempts: 1,
        next_attempt_at: null,
        last_response_status: 200,
        log: [{ attempt: 1, outcome: 'succeeded', response_status: 200, response_body: 'ok', error: null }],
      });
      expect(await deliveries(paymentsOnly.id)).toEqual([]);
      expect(await pass()).toBe(0);
    });

    it('a signature made with another secret does not verify (the receiver really checks)', async () => {
      await createEndpoint();
      receiver.secret = 'whsec_not_the_right_one';
      await expireSession();
      await pass();
      expect(receiver.received[0]!.signatureValid).toBe(false);
    });

    it('retries a failing receiver on the schedule (1 m, 5 m, 30 m…) and logs every attempt', async () => {
      const endpoint = await createEndpoint();
      receiver.script = [500, 503, 500];
      const t0 = ctx.h.clock.now().getTime();
      await expireSession();
      const at = (ms: number) => {
        ctx.h.clock.current = new Date(t0 + ms);
      };

      await pass();
      at(MINUTE - 1000);
      expect(await pass()).toBe(0);
      at(MINUTE);
      expect(await pass()).toBe(1);
      at(6 * MINUTE - 1000);
      expect(await pass()).toBe(0);
      at(6 * MINUTE);
      expect(await pass()).toBe(1);
      at(36 * MINUTE - 1000);
      expect(await pass()).toBe(0);
      at(36 * MINUTE);
      expect(await pass()).toBe(1);

      expect(receiver.received.map((r) => r.answeredStatus)).toEqual([500, 503, 500, 200]);
      expect(new Set(receiver.received.map((r) => r.event.id)).size).toBe(1);
      expect(receiver.received.every((r) => r.signatureValid)).toBe(true);
      const [delivery] = await deliveries(endpoint.id);
      expect(delivery!.status).toBe('delivered');
      expect(delivery!.log.map((a: any) => [a.attempt, a.outcome, a.response_status])).toEqual([
        [1, 'failed', 500],
        [2, 'failed', 503],
        [3, 'failed', 500],
        [4, 'succeeded', 200],
      ]);
      expect(delivery!.log[0].response_body).toHaveLength(1024);
      expect(delivery!.log[0].error).toContain('500');
      expect(delivery!.log.map((a: any) => a.started_at - Math.floor(t0 / 1000))).toEqual([0, 60, 360, 2160]);
    });

    it('abandons after 3 days of failures, disables the endpoint, and resumes once re-enabled', async () => {
      const endpoint = await createEndpoint();
      receiver.script = Array(50).fill(500);
      const t0 = ctx.h.clock.now().getTime();
      await expireSession();
      const offsets: number[] = [];
      for (let guard = 0; guard < 20; guard++) {
        const [row] = await rows(ctx.db, 'SELECT status, next_attempt_at FROM webhook_deliveries');
        if (row!.status === 'abandoned') break;
        ctx.h.clock.current = new Date(row!.next_attempt_at);
        offsets.push((ctx.h.clock.now().getTime() - t0) / MINUTE);
        expect(await pass()).toBe(1);
      }
      expect(offsets).toEqual([0, 1, 6, 36, 156, 456, 1056, 1776, 2496, 3216, 3936]);
      const [delivery] = await deliveries(endpoint.id);
      expect(delivery!.status).toBe('abandoned');
      expect(delivery!.attempts).toBe(11);
      const read = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/webhook_endpoints/${endpoint.id}`);
      expect(read.json().status).toBe('disabled');

      // A disabled endpoint gets no new deliveries…
      await expireSession();
      expect(await deliveries(endpoint.id)).toHaveLength(1);
      // …until re-enabled; a manual resend then gets through.
      receiver.script = [];
      const enabled = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/webhook_endpoints/${endpoint.id}`, { disabled: false });
      expect(enabled.json().status).toBe('enabled');
      const resend = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/webhook_endpoints/${endpoint.id}/deliveries/${delivery!.id}/resend`);
      expect(resend.statusCode, resend.body).toBe(202);
      expect(resend.json().status).toBe('pending');
      expect(await pass()).toBe(1);
      expect((await deliveries(endpoint.id))[0]).toMatchObject({ status: 'delivered', attempts: 12 });
    });

    it('resends a delivered event with the same event id', async () => {
      const endpoint = await createEndpoint();
      await expireSession();
      await pass();
      const [delivery] = await deliveries(endpoint.id);
      const resend = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/webhook_endpoints/${endpoint.id}/deliveries/${delivery!.id}/resend`);
      expect(resend.statusCode).toBe(202);
      await pass();
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1]!.event.id).toBe(receiver.received[0]!.event.id);
      expect((await deliveries(endpoint.id))[0]!.log.map((a: any) => a.attempt)).toEqual([1, 2]);
      const missing = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/webhook_endpoints/${endpoint.id}/deliveries/whd_nope/resend`);
      expectError(missing, 404, 'resource_missing', { param: 'id' });
    });

    it('a claim is leased: a worker that dies mid-delivery has the delivery redelivered once the lease ends', async () => {
      const endpoint = await createEndpoint();
      await expireSession();
      // A worker claims the delivery and dies before recording anything.
      const claimed = await ctx.h.tillpoint.deps.store.transaction((tx) =>
        tx.webhookDeliveries.claimDue({
          now: ctx.h.clock.now(),
          leaseUntil: new Date(ctx.h.clock.now().getTime() + 15_000),
          leaseToken: 'lease_dead_worker',
          limit: 10,
        }),
      );
      expect(claimed.deliveries).toHaveLength(1);
      expect(await pass()).toBe(0);
      ctx.h.clock.advance(15_000);
      expect(await pass()).toBe(1);
      expect(receiver.received).toHaveLength(1);
      expect((await deliveries(endpoint.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    });

    it('endpoints whose due deliveries are all being sent (leased) take no place from an endpoint with one waiting', async () => {
      // 20 endpoints, each with one delivery that another worker is sending (more endpoints than
      // one claim serves at 16 each), all older than a 21st endpoint's one delivery.
      const busy = [];
      for (let i = 0; i < 20; i++) busy.push(await createEndpoint());
      ctx.h.clock.advance(1000);
      await expireSession();
      const claim = (leaseToken: string, perEndpoint: number) =>
        ctx.h.tillpoint.deps.store.transaction((tx) =>
          tx.webhookDeliveries.claimDue({
            now: ctx.h.clock.now(),
            leaseUntil: new Date(ctx.h.clock.now().getTime() + 15_000),
            leaseToken,
            limit: 250,
            perEndpoint,
          }),
        );
      expect((await claim('lease_other_worker', 1)).deliveries).toHaveLength(20);
      ctx.h.clock.advance(1000);
      const waiting = await createEndpoint();
      await expireSession();
      await rows(ctx.db, `DELETE FROM webhook_deliveries WHERE endpoint_id = ANY($1) AND lease_token IS NULL`, [busy.map((e) => e.id)]);
      // This worker sends to none of them: the busy endpoints have room here, but nothing to take.
      const mine = await claim('lease_this_worker', 16);
      expect(mine.deliveries.map((d) => d.endpoint.id)).toEqual([waiting.id]);
    });

    it('concurrent workers never send the same attempt twice', async () => {
      await createEndpoint();
      for (let i = 0; i < 8; i++) await expireSession();
      const passes = await Promise.all([pass(), pass(), pass(), pass()]);
      expect(passes.reduce((a, b) => a + b, 0)).toBe(8);
      expect(receiver.received).toHaveLength(8);
      expect(new Set(receiver.received.map((r) => r.event.id)).size).toBe(8);
    });
  });
});
