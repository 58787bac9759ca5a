import { cliBundle } from '../support/cli-bundle';
import { runJobOnce } from '../../src/runtime/scheduler';
import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabases } from '../support/databases';
import { runJob } from '../support/disputes';
import { useIntegration } from '../support/integration';
import { cleanEnv, cli, root } from '../support/processes';
import { WebhookReceiver } from '../support/webhook-receiver';

/** `tillpoint listen` and `tillpoint trigger` as a developer runs them, against a real listening server. */
describe.each(testDatabases.slice(0, 1))('tillpoint listen and trigger ($name)', (database) => {
  const ctx = useIntegration(database);
  const receiver = new WebhookReceiver();
  let baseUrl = '';
  let receiverUrl = '';
  let listener: ChildProcess | null = null;

  beforeAll(async () => {
    // Events made by separate requests of another process must get the times they happened at, so
    // "in the order they happened" is decided by time, not by two random ids of one frozen instant.
    ctx.h.clock.followRealTime();
    await ctx.h.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(ctx.h.app.server.address() as AddressInfo).port}`;
    receiverUrl = await receiver.start();
  });
  afterAll(async () => {
    listener?.kill('SIGTERM');
    await receiver.stop();
  });

  const env = () => ({ TILLPOINT_API_KEY: ctx.key, TILLPOINT_URL: baseUrl });

  it('listen forwards the events trigger makes, signed with the secret it printed', async () => {
    let output = '';
    listener = spawn(process.execPath, [cliBundle, 'listen', '--forward-to', receiverUrl, '--events', 'payment.succeeded,refund.succeeded'], {
      cwd: root,
      env: cleanEnv(env()),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    listener.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    listener.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const secret = await vi.waitFor(
      () => {
        const found = /signing secret for this session is (whsec_[0-9a-f]+)/.exec(output)?.[1];
        if (!found) throw new Error(`listen is not ready yet: ${output}`);
        return found;
      },
      { timeout: 30_000, interval: 100 },
    );
    receiver.secret = secret;

    const triggered = await cli(['trigger', 'refund.succeeded'], env());
    expect(triggered.code, triggered.stderr).toBe(0);
    expect(triggered.stdout).toMatch(/^Triggered refund\.succeeded in test mode: made checkout session cs_\w+, payment pay_\w+, refund re_\w+\.$/m);

    await vi.waitFor(() => expect(receiver.received).toHaveLength(2), { timeout: 30_000, interval: 100 });
    // Only the asked-for types, in the order they happened, each signed with this session's secret.
    expect(receiver.received.map((w) => w.event.type)).toEqual(['payment.succeeded', 'refund.succeeded']);
    expect(receiver.received.every((w) => w.signatureValid)).toBe(true);
    const refundId = /refund (re_\w+)/.exec(triggered.stdout)![1];
    expect(receiver.received[1]!.event.data.object.id).toBe(refundId);
    // The events are the API's own, byte for byte what GET /v1/events/:id answers.
    const apiEvent = await fetch(`${baseUrl}/v1/events/${receiver.received[1]!.event.id}`, { headers: { authorization: `Bearer ${ctx.key}` } });
    expect(JSON.parse(receiver.received[1]!.body)).toEqual(await apiEvent.json());
    // One line per delivery: time, type, event id, where, status.
    await vi.waitFor(() => expect(output).toMatch(new RegExp(`refund\\.succeeded\\s+${receiver.received[1]!.event.id}  → POST ${receiverUrl} \\[200\\]`)), {
      timeout: 10_000,
    });
    expect(output).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}payment\.succeeded\s+evt_\w+ {2}→ POST \S+ \[200\]$/m);
    expect(output).not.toContain('checkout.session.completed');
  }, 120_000);

  it('trigger invoice.payment_failed makes a subscription whose renewal is declined, through the real API', async () => {
    const triggered = await cli(['trigger', 'invoice.payment_failed'], env());
    expect(triggered.code, triggered.stderr).toBe(0);
    const subscription = /subscription (sub_\w+)/.exec(triggered.stdout)?.[1];
    expect(subscription, triggered.stdout).toBeDefined();
    const failed = await ctx.db.query<{ data: { subscription: string } }>(`SELECT data FROM events WHERE type = 'invoice.payment_failed'`);
    expect(failed.rows.map((row) => row.data.subscription)).toEqual([subscription]);
  }, 60_000);

  it.each([
    ['customer.subscription.trial_will_end', (data: Record<string, any>) => ({ id: data.id, status: data.status })],
    ['invoice.upcoming', (data: Record<string, any>) => ({ id: data.subscription, status: data.status })],
  ])(
    'trigger %s makes a subscription on a test clock whose notice is sent, through the real API',
    async (type, about) => {
      const triggered = await cli(['trigger', type], env());
      expect(triggered.code, triggered.stderr).toBe(0);
      const subscription = /subscription (sub_\w+)/.exec(triggered.stdout)?.[1];
      expect(subscription, triggered.stdout).toBeDefined();
      const sent = await ctx.db.query<{ data: Record<string, any> }>('SELECT data FROM events WHERE type = $1', [type]);
      expect(sent.rows.map((row) => about(row.data))).toEqual([{ id: subscription, status: type === 'invoice.upcoming' ? 'draft' : 'trialing' }]);
    },
    60_000,
  );

  it('trigger payment.processing makes an iDEAL payment approved in the test window, waiting for its bank, which then confirms it', async () => {
    const triggered = await cli(['trigger', 'payment.processing'], env());
    expect(triggered.code, triggered.stderr).toBe(0);
    const payment = /iDEAL payment (pay_\w+)/.exec(triggered.stdout)?.[1];
    expect(payment, triggered.stdout).toBeDefined();
    const types = async () =>
      (await ctx.db.query<{ type: string }>('SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id', [payment])).rows.map((row) => row.type);
    expect(await types()).toEqual(['payment.processing']);
    // Its bank confirms it once the test delay (3 s, on the wall clock here) has passed: the job that takes the
    // bank's confirmations, run until it has.
    await expect
      .poll(
        async () => {
          await runJobOnce(ctx.h.tillpoint.deps, 'test-processor-local-payments');
          return types();
        },
        { timeout: 15_000, interval: 500 },
      )
      .toEqual(['payment.processing', 'payment.succeeded']);
  }, 60_000);

  it('trigger payment.returned makes an ACH payment from the test account its bank returns: processing, settled, then returned R01', async () => {
    const triggered = await cli(['trigger', 'payment.returned'], env());
    expect(triggered.code, triggered.stderr).toBe(0);
    const payment = /ACH payment (pay_\w+)/.exec(triggered.stdout)?.[1];
    expect(payment, triggered.stdout).toBeDefined();
    const types = async () =>
      (await ctx.db.query<{ type: string }>('SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id', [payment])).rows.map((row) => row.type);
    expect(await types()).toEqual(['payment.processing']);
    // It settles once the test delay (5 s, on the wall clock here) has passed, and is returned as long after.
    await expect
      .poll(
        async () => {
          await runJobOnce(ctx.h.tillpoint.deps, 'test-processor-bank-debits');
          return types();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toEqual(['payment.processing', 'payment.succeeded', 'payment.returned']);
    const [row] = (await ctx.db.query<{ ach_return: { code: string } }>('SELECT ach_return FROM payments WHERE id = $1', [payment])).rows;
    expect(row!.ach_return.code).toBe('R01');
  }, 60_000);

  it('refuses to trigger with a live key: it makes real objects', async () => {
    const live = await cli(['trigger', 'payment.succeeded'], { ...env(), TILLPOINT_API_KEY: 'sk_live_abc' });
    expect(live.code).toBe(2);
    expect(live.stderr).toContain('only runs with a test secret key');
  }, 60_000);
});

/**
 * `tillpoint trigger dispute.created` against a real listening server, on both databases: the
 * server's job records the dispute the test processor opens, and the developer then reads it.
 */
describe.each(testDatabases)('tillpoint trigger dispute.created ($name)', (database) => {
  const ctx = useIntegration(database);
  let baseUrl = '';

  beforeAll(async () => {
    ctx.h.clock.followRealTime();
    await ctx.h.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(ctx.h.app.server.address() as AddressInfo).port}`;
  });

  it('pays with the dispute test card and prints the dispute, which GET /v1/disputes then lists', async () => {
    let exited = false;
    const triggered = cli(['trigger', 'dispute.created'], { TILLPOINT_API_KEY: ctx.key, TILLPOINT_URL: baseUrl }).finally(() => {
      exited = true;
    });
    // The server's scheduler, as `serve` runs it: the test processor's disputes are read every few seconds.
    while (!exited) {
      await runJob(ctx, 'test-processor-disputes');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const { code, stdout, stderr } = await triggered;
    expect(code, stderr).toBe(0);
    const printed = /^Triggered dispute\.created in test mode: made checkout session cs_\w+, payment (pay_\w+), dispute (dp_\w+)\.$/m.exec(stdout);
    expect(printed, stdout).not.toBeNull();
    const [, paymentId, disputeId] = printed!;

    const listed = await fetch(`${baseUrl}/v1/disputes`, { headers: { authorization: `Bearer ${ctx.key}` } });
    expect(listed.status).toBe(200);
    const { data } = (await listed.json()) as { data: Array<Record<string, unknown>> };
    expect(data).toEqual([
      expect.objectContaining({ id: disputeId, payment: paymentId, status: 'needs_response', processor: 'test', livemode: false, evidence: [] }),
    ]);
    const events = await fetch(`${baseUrl}/v1/events?type=dispute.created`, { headers: { authorization: `Bearer ${ctx.key}` } });
    expect(((await events.json()) as { data: Array<{ data: { object: { id: string } } }> }).data.map((e) => e.data.object.id)).toEqual([disputeId]);
  }, 90_000);
});
