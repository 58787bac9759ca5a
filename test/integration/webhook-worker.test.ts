import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookWorker, WEBHOOK_PER_ENDPOINT, type WebhookWorker } from '../../src/runtime/webhook-worker';
import { httpWebhookSender } from '../../src/webhooks/http-sender';
import { testDatabases } from '../support/databases';
import { createSession, merchantCall, rows, useIntegration } from '../support/integration';
import { WebhookReceiver } from '../support/webhook-receiver';

/** The worker `tillpoint serve` runs, against real receivers on loopback. */
describe.each(testDatabases)('webhook worker ($name)', (database) => {
  const ctx = useIntegration(database);
  const hanging = new WebhookReceiver();
  const healthy = new WebhookReceiver();
  const urls = { hanging: '', healthy: '' };
  let worker: WebhookWorker | null = null;

  beforeAll(async () => {
    hanging.hold = true;
    urls.hanging = await hanging.start();
    urls.healthy = await healthy.start();
  });
  afterEach(async () => {
    // The hanging receiver lets go, so its sends fail at once and the worker can stop.
    await hanging.stop();
    urls.hanging = await hanging.start();
    await worker?.stop();
    worker = null;
  });
  afterAll(async () => {
    await hanging.stop();
    await healthy.stop();
  });

  async function endpoint(url: string, receiver: WebhookReceiver) {
    const res = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/webhook_endpoints', { url, enabled_events: ['*'] });
    expect(res.statusCode, res.body).toBe(200);
    receiver.secret = res.json().secret;
    return res.json().id as string;
  }

  async function until(condition: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!condition()) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return true;
  }

  it('an endpoint that never answers does not hold up another endpoint', { timeout: 60_000 }, async () => {
    hanging.received.length = 0;
    healthy.received.length = 0;
    await endpoint(urls.hanging, hanging);
    // More events than the hanging endpoint has slots, all due before the healthy endpoint's.
    const events = WEBHOOK_PER_ENDPOINT + 4;
    for (let i = 0; i < events; i++) {
      ctx.h.clock.advance(1000); // a new rate-limit window: the test clock does not move by itself
      const session = await createSession(ctx);
      expect((await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${session.id}/expire`)).statusCode).toBe(200);
    }
    worker = startWebhookWorker({ deps: ctx.h.tillpoint.deps, sender: httpWebhookSender(), log: console, pollMs: 50 });
    // The hanging endpoint has every slot it may have, and keeps them (10 s timeout).
    expect(await until(() => hanging.received.length === WEBHOOK_PER_ENDPOINT, 10_000)).toBe(true);

    ctx.h.clock.advance(1000);
    const healthyId = await endpoint(urls.healthy, healthy);
    const session = await createSession(ctx);
    await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${session.id}/expire`);
    // Well inside the hanging sends' 10 s timeout, the healthy endpoint has its event, recorded.
    expect(await until(() => healthy.received.length === 1, 5_000)).toBe(true);
    expect(healthy.received[0]!.event.data.object.id).toBe(session.id);
    expect(healthy.received[0]!.signatureValid).toBe(true);
    expect(hanging.received).toHaveLength(WEBHOOK_PER_ENDPOINT);
    await expect
      .poll(async () => (await rows(ctx.db, 'SELECT status FROM webhook_deliveries WHERE endpoint_id = $1', [healthyId])).map((r) => r.status))
      .toEqual(['delivered']);
  });
});
