import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookWorker, WEBHOOK_PER_ENDPOINT, type WebhookWorker } from '../../src/runtime/webhook-worker';
import type { Store } from '../../src/domain/deps';
import { httpWebhookSender } from '../../src/adapters/webhooks/http-sender';
import { testDatabases } from '../support/databases';
import { createSession, merchantCall, rows, useIntegration } from '../support/integration';
import { WebhookReceiver } from '../support/webhook-receiver';
import type { WebhookSender } from '../../src/domain/webhooks/ports';

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

  it('sends that finish while the worker claims wake it: a backlog beyond one claim goes out without waiting for the poll', { timeout: 60_000 }, async () => {
    await endpoint(urls.healthy, healthy);
    // Three times what one endpoint may have in flight: the worker must claim again as sends finish.
    const events = WEBHOOK_PER_ENDPOINT * 3;
    for (let i = 0; i < events; i++) {
      ctx.h.clock.advance(1000);
      const session = await createSession(ctx);
      expect((await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${session.id}/expire`)).statusCode).toBe(200);
    }
    // A receiver that answers at once: its sends finish while the worker's next claim is under way.
    const sent = new Set<string>();
    const instant: WebhookSender = {
      async send({ body }) {
        sent.add((JSON.parse(body) as { id: string }).id);
        return { ok: true, status: 200, body: '', durationMs: 0 };
      },
    };
    // A database slower than the receiver: every claim is still under way when the sends before it
    // have finished, so their wake-ups come while the worker is not waiting for them.
    const deps = ctx.h.tillpoint.deps;
    const slowStore: Store = {
      ...deps.store,
      transaction: async (work) => {
        const result = await deps.store.transaction(work);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return result;
      },
    };
    // A poll far longer than the deadline: only wake-ups by finished sends can meet it.
    worker = startWebhookWorker({ deps: { ...deps, store: slowStore }, sender: instant, log: console, pollMs: 60_000 });
    expect(await until(() => sent.size === events, 10_000)).toBe(true);
  });

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

  it("an endpoint's backlog, older than everything else, delays no other endpoint: not while it hangs, not once it is disabled", {
    timeout: 60_000,
  }, async () => {
    hanging.received.length = 0;
    healthy.received.length = 0;
    const backlogged = await endpoint(urls.hanging, hanging);
    // 1,500 due deliveries for it, all older than anything else (as after an outage of the
    // receiver), written as the outbox writes them.
    const backlog = 1500;
    const at = new Date(ctx.h.clock.now().getTime() - 3_600_000);
    await rows(
      ctx.db,
      `INSERT INTO events (id, account_id, mode, type, object_id, data, created_at)
       SELECT 'evt_backlog' || g, e.account_id, e.mode, 'checkout.session.expired', 'cs_backlog' || g, '{}'::jsonb, $2
       FROM webhook_endpoints e, generate_series(1, $3::int) AS g WHERE e.id = $1`,
      [backlogged, at, backlog],
    );
    await rows(
      ctx.db,
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, account_id, mode, status, attempts, next_attempt_at, created_at, updated_at)
       SELECT 'whd_backlog' || g, e.id, 'evt_backlog' || g, e.account_id, e.mode, 'pending', 0, $2, $2, $2
       FROM webhook_endpoints e, generate_series(1, $3::int) AS g WHERE e.id = $1`,
      [backlogged, at, backlog],
    );
    worker = startWebhookWorker({ deps: ctx.h.tillpoint.deps, sender: httpWebhookSender(), log: console, pollMs: 50 });
    // While it hangs: it holds its slots, and another endpoint's event still goes out at once.
    expect(await until(() => hanging.received.length === WEBHOOK_PER_ENDPOINT, 10_000)).toBe(true);
    ctx.h.clock.advance(1000);
    await endpoint(urls.healthy, healthy);
    const first = await createSession(ctx);
    await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${first.id}/expire`);
    expect(await until(() => healthy.received.length === 1, 5_000)).toBe(true);
    expect(healthy.received[0]!.event.data.object.id).toBe(first.id);

    // Disabled (by its merchant, or after 3 days of failures), its due deliveries stay in the
    // outbox, still the oldest; they are not sent, and they hold up no one.
    ctx.h.clock.advance(1000);
    const disable = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/webhook_endpoints/${backlogged}`, { disabled: true });
    expect(disable.statusCode, disable.body).toBe(200);
    await hanging.stop(); // its sends under way end; the worker records them
    urls.hanging = await hanging.start();
    ctx.h.clock.advance(1000);
    const second = await createSession(ctx);
    await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${second.id}/expire`);
    expect(await until(() => healthy.received.length === 2, 5_000)).toBe(true);
    expect(healthy.received[1]!.event.data.object.id).toBe(second.id);
    expect(hanging.received).toHaveLength(WEBHOOK_PER_ENDPOINT);
  });
});
