import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { buildHttpServer } from '../../src/http/server';
import type { SqlClient } from '../../src/persistence/sql-client';
import { openTillpoint, type Tillpoint } from '../../src/runtime/open-tillpoint';
import { startServerReporting, type ErrorReporter } from '../../src/adapters/telemetry/server-reporting';
import { testDatabases } from '../support/databases';
import { startSentryReceiver } from '../support/sentry-receiver';

/**
 * The server's error reporting against a Sentry stand-in: 5xx answers and our-side declines arrive
 * as events tagged with the checkout session, scrubbed; ordinary declines send nothing.
 */
describe.each(testDatabases)('server error reporting ($name)', (database) => {
  let receiver: Awaited<ReturnType<typeof startSentryReceiver>>;
  let reporter: ErrorReporter;
  let db: SqlClient;
  let tillpoint: Tillpoint;
  let app: FastifyInstance;
  let key: string;

  beforeAll(async () => {
    receiver = await startSentryReceiver();
    reporter = await startServerReporting({
      dsn: `${receiver.url.replace('//', '//serverkey@')}/7`,
      browserDsn: null,
      environment: 'integration',
      release: 'tillpoint@9.9.9',
      sampleRate: 1,
    });
    db = await database.openMigrated();
    tillpoint = await openTillpoint({ db, publicUrl: 'http://checkout.test' });
    app = await buildHttpServer({ deps: tillpoint.deps, webRoot: '/nonexistent', reporter });
    // A bug, as a route would have one: it throws with shopper data in its message.
    app.get('/api/checkout/sessions/:id/explode', async () => {
      throw new Error('lookup failed for 4111 1111 1111 1111 / shopper@example.com with Bearer sk_test_abcdef');
    });
    await app.ready();
    key = (await createAccount(tillpoint.deps, { name: 'Reporting Shop' })).testSecretKey;
  });

  afterAll(async () => {
    await app?.close();
    await tillpoint?.close();
    await receiver?.close();
  });

  const events = () => receiver.envelopes.flatMap((e) => e.items.filter((i) => i.type === 'event').map((i) => i.payload));

  async function payAmount(amount: number) {
    const session = await app.inject({
      method: 'POST',
      url: '/v1/checkout/sessions',
      headers: { authorization: `Bearer ${key}` },
      payload: { currency: 'usd', line_items: [{ name: 'Thing', unit_amount: amount, quantity: 1 }] },
    });
    const id = session.json().id as string;
    const token = await app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${id}/card-tokens`,
      payload: { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' },
    });
    const paid = await app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${id}/payments`,
      payload: { payment_method_type: 'card', nonce: token.json().nonce, email: 'shopper@example.com' },
    });
    return { id, paid };
  }

  it('reports a 500 with release, environment and session tag, scrubbed', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/checkout/sessions/cs_reporting1/explode' });
    expect(res.statusCode).toBe(500);
    await reporter.flush(5000);
    const event = events().find((e) => JSON.stringify(e).includes('lookup failed'));
    expect(event).toBeDefined();
    expect(event).toMatchObject({ release: 'tillpoint@9.9.9', environment: 'integration', tags: { checkout_session: 'cs_reporting1' } });
    const raw = receiver.envelopes.map((e) => e.raw).join('\n');
    expect(raw).not.toContain('4111 1111 1111 1111');
    expect(raw).not.toContain('shopper@example.com');
    expect(raw).not.toContain('sk_test_abcdef');
  });

  it('reports a processing_error decline (our set-up) and not an ordinary decline', async () => {
    const ordinary = await payAmount(200100); // 2001.00: insufficient funds, the shopper's card
    expect(ordinary.paid.json().error.decline_code).toBe('insufficient_funds');
    const ours = await payAmount(202500); // 2025.00: "Set Up Error - Merchant"
    expect(ours.paid.json().error.decline_code).toBe('processing_error');
    await reporter.flush(5000);
    const tagged = (id: string) => events().filter((e) => e.tags?.checkout_session === id);
    expect(tagged(ours.id)).toHaveLength(1);
    expect(tagged(ours.id)[0]).toMatchObject({ level: 'error', tags: { decline_code: 'processing_error' } });
    expect(tagged(ordinary.id)).toHaveLength(0);
  });
});
