import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { deliverDueWebhooks } from '../../src/domain/webhooks/use-cases/deliver-due-webhooks';
import { buildHttpServer } from '../../src/http/server';
import type { SqlClient } from '../../src/persistence/sql-client';
import { createMetrics } from '../../src/runtime/metrics';
import { openTillpoint } from '../../src/runtime/open-tillpoint';
import { createReadiness, type Readiness } from '../../src/runtime/readiness';
import { httpWebhookSender } from '../../src/adapters/webhooks/http-sender';
import { testDatabases } from '../support/databases';
import { TestClock, PUBLIC_URL, type Harness } from '../support/harness';
import { createSessionOf, expectError, merchantCall, payCall, tokenize, type IntegrationContext } from '../support/integration';
import { paidPayment } from '../support/payments';
import { WebhookReceiver } from '../support/webhook-receiver';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one series in a Prometheus text exposition (undefined when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe.each(testDatabases)('health, readiness and metrics ($name)', (database) => {
  const ctx = {} as IntegrationContext;
  let readiness: Readiness;
  const receiver = new WebhookReceiver();
  let receiverUrl = '';

  const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => {
    const res = await ctx.h.app.inject({ method: 'GET', url: '/metrics', headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    const db: SqlClient = await database.openMigrated();
    const clock = new TestClock(new Date());
    const metrics = createMetrics({ db, now: clock.now });
    const tillpoint = await openTillpoint({ db, publicUrl: PUBLIC_URL, now: clock.now, observer: metrics.observer, rateLimitPerSecond: { test: 3 } });
    readiness = createReadiness(db);
    const app = await buildHttpServer({
      deps: tillpoint.deps,
      webRoot: '/nonexistent',
      operations: { readiness, metrics, metricsToken: TOKEN },
    });
    await app.ready();
    const h: Harness = {
      app,
      tillpoint,
      clock,
      logLines: [],
      replyProblems: [],
      newAccountKey: async (name = 'Shop') => (await createAccount(tillpoint.deps, { name })).testSecretKey,
    };
    const created = await createAccount(tillpoint.deps, { name: 'Metrics Shop' });
    Object.assign(ctx, { db, h, accountId: created.account.id, key: created.testSecretKey });
    receiverUrl = await receiver.start();
  });

  afterAll(async () => {
    await receiver.stop();
    await ctx.h?.app.close();
    await ctx.db?.close();
  });

  it('/healthz and /readyz answer 200 with a database that answers and a current schema', async () => {
    expect((await ctx.h.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const ready = await ctx.h.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'current', shutting_down: false } });
  });

  it('/readyz answers 503 while the schema lacks a migration this version needs', async () => {
    const [latest] = (await ctx.db.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1')).rows;
    await ctx.db.query('DELETE FROM schema_migrations WHERE version = $1', [latest!.version]);
    try {
      const res = await ctx.h.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.migrations).toBe('behind');
    } finally {
      await ctx.db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [latest!.version, latest!.name]);
    }
    expect((await ctx.h.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('/metrics wants the METRICS_TOKEN as a bearer token', async () => {
    expectError(await ctx.h.app.inject({ method: 'GET', url: '/metrics' }), 401, 'api_key_missing');
    const wrong = await ctx.h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
    expectError(wrong, 401, 'api_key_invalid');
    expect(wrong.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(await scrape()).toContain('# TYPE tillpoint_http_request_duration_seconds histogram');
  });

  it('counts payments by outcome and processor, refunds, webhook deliveries, and reads the queue at scrape time', { timeout: 60_000 }, async () => {
    const endpoint = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/webhook_endpoints', { url: receiverUrl, enabled_events: ['payment.succeeded'] });
    expect(endpoint.statusCode, endpoint.body).toBe(200);
    receiver.secret = endpoint.json().secret;
    ctx.h.clock.advance(1000);
    const before = await scrape();
    const count = (text: string, name: string, labels: Record<string, string>) => sample(text, name, labels) ?? 0;

    const payment = await paidPayment(ctx, 5000);
    // paidPayment makes 3 API calls, then moves the clock a second on: inside the limit of 3 a second.
    const declined = await createSessionOf(ctx, 200100); // 2001.00: declined, insufficient funds
    expect((await payCall(ctx.h, declined.id, await tokenize(ctx.h, declined.id))).statusCode).toBe(402);
    ctx.h.clock.advance(1000);
    const refund = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: payment.id, amount: 1000 });
    expect(refund.statusCode, refund.body).toBe(200);

    // One delivery is due (payment.succeeded), and has waited a minute.
    ctx.h.clock.advance(60_000);
    const queued = await scrape();
    expect(sample(queued, 'tillpoint_webhook_queue_depth')).toBe(1);
    expect(sample(queued, 'tillpoint_webhook_oldest_due_age_seconds')).toBeGreaterThanOrEqual(60);
    expect(sample(queued, 'tillpoint_database_up')).toBe(1);

    expect(await deliverDueWebhooks(ctx.h.tillpoint.deps, { sender: httpWebhookSender() })).toBe(1);
    const after = await scrape();
    const grew = (name: string, labels: Record<string, string>) => count(after, name, labels) - count(before, name, labels);
    expect(grew('tillpoint_payments_total', { outcome: 'succeeded', processor: 'test', mode: 'test' })).toBe(1);
    expect(grew('tillpoint_payments_total', { outcome: 'failed', processor: 'test', mode: 'test' })).toBe(1);
    expect(grew('tillpoint_payment_failures_total', { failure_code: 'card_declined', processor: 'test', mode: 'test' })).toBe(1);
    expect(grew('tillpoint_refunds_total', { outcome: 'succeeded', mode: 'test' })).toBe(1);
    expect(grew('tillpoint_webhook_deliveries_total', { outcome: 'delivered' })).toBe(1);
    expect(sample(after, 'tillpoint_webhook_queue_depth')).toBe(0);
    expect(sample(after, 'tillpoint_webhook_oldest_due_age_seconds')).toBe(0);

    // Requests are timed by route template, never by the raw URL with its ids.
    expect(grew('tillpoint_http_request_duration_seconds_count', { method: 'POST', route: '/v1/refunds', status_code: '200' })).toBe(1);
    expect(count(after, 'tillpoint_http_request_duration_seconds_count', { method: 'GET', route: '/v1/payments/:id', status_code: '200' })).toBeGreaterThan(0);
    expect(after).not.toContain(payment.id);
    // The pool, the event loop and the process.
    for (const name of ['tillpoint_db_pool_in_use', 'tillpoint_db_pool_waiting', 'nodejs_eventloop_lag_seconds', 'process_resident_memory_bytes']) {
      expect(sample(after, name), name).toBeGreaterThanOrEqual(0);
    }
  });

  it('/metrics is off the merchant API rate limit (3 a second here)', async () => {
    for (let i = 0; i < 8; i++) await scrape();
  });

  it('/readyz answers 503 at once when a shutdown begins', async () => {
    readiness.beginShutdown();
    const res = await ctx.h.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'unavailable', checks: { shutting_down: true } });
    expect((await ctx.h.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
