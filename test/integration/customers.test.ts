import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { countRows, createSession, expectError, merchantCall, payCall, rows, tokenize, useIntegration } from '../support/integration';
import { Tillpoint } from '../../sdk/node/src/index';

describe.each(testDatabases)('customers ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);
  const eventsOf = async (objectId: string) =>
    (await rows(ctx.db, 'SELECT type, data FROM events WHERE object_id = $1 ORDER BY created_at, id', [objectId])).map((r) => r.type);

  async function customer(body: Record<string, unknown> = {}) {
    const res = await call('POST', '/v1/customers', body);
    expect(res.statusCode, res.body).toBe(200);
    ctx.h.clock.advance(1000);
    return res.json();
  }

  it('creates, reads, updates and lists customers, firing customer.created and customer.updated', async () => {
    const ada = await customer({ email: 'ada@example.com', name: 'Ada Lovelace', metadata: { crm_id: '8812', tier: 'gold' } });
    expect(ada).toMatchObject({
      object: 'customer',
      livemode: false,
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      metadata: { crm_id: '8812', tier: 'gold' },
    });
    expect(ada.id).toMatch(/^cus_[0-9A-Za-z]{24}$/);
    expect((await call('GET', `/v1/customers/${ada.id}`)).json()).toEqual(ada);

    const updated = await call('POST', `/v1/customers/${ada.id}`, { name: 'Ada King', metadata: { tier: '' } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ email: 'ada@example.com', name: 'Ada King', metadata: { crm_id: '8812' } });
    expect(updated.json().metadata).not.toHaveProperty('tier');
    // Nothing changes: no event.
    expect((await call('POST', `/v1/customers/${ada.id}`, { name: 'Ada King' })).statusCode).toBe(200);
    expect(await eventsOf(ada.id)).toEqual(['customer.created', 'customer.updated']);

    const grace = await customer({ email: 'Grace@Example.com' });
    const other = await customer({ email: 'grace@example.com', name: 'Another Grace' });
    const all = (await call('GET', '/v1/customers?limit=2')).json();
    expect(all).toMatchObject({ object: 'list', url: '/v1/customers', has_more: true });
    expect(all.data.map((c: { id: string }) => c.id)).toEqual([other.id, grace.id]);
    const next = (await call('GET', `/v1/customers?limit=2&starting_after=${grace.id}`)).json();
    expect(next.data.map((c: { id: string }) => c.id)).toEqual([ada.id]);
    expect(next.has_more).toBe(false);
    const byEmail = (await call('GET', '/v1/customers?email=GRACE@example.com')).json();
    expect(byEmail.data.map((c: { id: string }) => c.id)).toEqual([other.id, grace.id]);
    expect((await call('GET', '/v1/customers?email=nobody@example.com')).json().data).toEqual([]);

    const audit = await rows(ctx.db, `SELECT action FROM audit_log WHERE target = $1 ORDER BY at`, [ada.id]);
    expect(audit.map((r) => r.action)).toEqual(['customer.create', 'customer.update']);
  });

  it('refuses bad input with catalogue codes, changing nothing', async () => {
    expectError(await call('POST', '/v1/customers', { email: 'not-an-email' }), 400, 'parameter_invalid', { param: 'email' });
    expectError(await call('POST', '/v1/customers', { name: 'x'.repeat(257) }), 400, 'parameter_invalid', { param: 'name' });
    expectError(await call('POST', '/v1/customers', { phone: '1' }), 400, 'parameter_unknown', { param: 'phone' });
    expectError(await call('POST', '/v1/customers', { metadata: { ['k'.repeat(41)]: 'v' } }), 400, 'parameter_invalid', {
      param: `metadata[${'k'.repeat(41)}]`,
    });
    expect(await countRows(ctx.db, 'customers')).toBe(0);
    expect(await countRows(ctx.db, 'events')).toBe(0);

    const ada = await customer({ email: 'ada@example.com' });
    expectError(await call('POST', `/v1/customers/${ada.id}`, { email: 'bad' }), 400, 'parameter_invalid', { param: 'email' });
    expect((await call('GET', `/v1/customers/${ada.id}`)).json().email).toBe('ada@example.com');
    expectError(await call('GET', '/v1/customers/cus_nope'), 404, 'resource_missing', { param: 'id' });
    expectError(await call('DELETE', '/v1/customers/cus_nope'), 404, 'resource_missing', { param: 'id' });
    expectError(await call('GET', '/v1/customers?limit=0'), 400, 'parameter_invalid', { param: 'limit' });
  });

  it("another account's customer reads as missing", async () => {
    const ada = await customer({ email: 'ada@example.com' });
    const { createAccount } = await import('../../src/domain/team/use-cases/create-account');
    const other = await createAccount(ctx.h.tillpoint.deps, { name: 'Other Shop' });
    const asOther = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => merchantCall(ctx.h, other.testSecretKey, method, url, body);
    expectError(await asOther('GET', `/v1/customers/${ada.id}`), 404, 'resource_missing', { param: 'id' });
    expectError(await asOther('POST', `/v1/customers/${ada.id}`, { name: 'x' }), 404, 'resource_missing', { param: 'id' });
    expectError(await asOther('DELETE', `/v1/customers/${ada.id}`), 404, 'resource_missing', { param: 'id' });
    expectError(
      await asOther('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'x', unit_amount: 500, quantity: 1 }], customer: ada.id }),
      404,
      'resource_missing',
      { param: 'customer' },
    );
    expect((await asOther('GET', '/v1/customers')).json().data).toEqual([]);
    expect(await countRows(ctx.db, 'customers')).toBe(1);
  });

  it('a session for a customer prefills its email; its payment points to the customer', async () => {
    const ada = await customer({ email: 'ada@example.com' });
    const session = await createSession(ctx, { customer: ada.id });
    expect(session).toMatchObject({ customer: ada.id, customer_email: 'ada@example.com', customer_creation: 'if_required' });
    const paid = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id), 'ada@example.com');
    expect(paid.statusCode, paid.body).toBe(200);
    const after = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json();
    const payment = (await call('GET', `/v1/payments/${after.payment}`)).json();
    expect(payment).toMatchObject({ status: 'succeeded', customer: ada.id });
    const [succeeded] = await rows(ctx.db, `SELECT data FROM events WHERE type = 'payment.succeeded' AND object_id = $1`, [payment.id]);
    expect(succeeded!.data.customer).toBe(ada.id);

    expectError(
      await call('POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'x', unit_amount: 500, quantity: 1 }], customer: 'cus_missing' }),
      404,
      'resource_missing',
      { param: 'customer' },
    );
    expectError(
      await call('POST', '/v1/checkout/sessions', {
        currency: 'usd',
        line_items: [{ name: 'x', unit_amount: 500, quantity: 1 }],
        customer: ada.id,
        customer_email: 'x@example.com',
      }),
      400,
      'parameter_invalid',
      { param: 'customer_email' },
    );
    expectError(
      await call('POST', '/v1/checkout/sessions', {
        currency: 'usd',
        line_items: [{ name: 'x', unit_amount: 500, quantity: 1 }],
        customer_creation: 'sometimes',
      }),
      400,
      'parameter_invalid',
      { param: 'customer_creation' },
    );
  });

  it('customer_creation "always" makes a customer of the shopper by the email they pay with; "if_required" does not', async () => {
    const always = await createSession(ctx, { customer_email: 'grace@example.com', customer_creation: 'always' });
    expect(always).toMatchObject({ customer: null, customer_creation: 'always' });
    expect((await payCall(ctx.h, always.id, 'fake-processor-declined-visa-nonce', 'grace@example.com')).statusCode).toBe(402);
    const afterDecline = (await call('GET', `/v1/checkout/sessions/${always.id}`)).json();
    expect(afterDecline.customer).toMatch(/^cus_/);
    // A second attempt keeps the customer the first one made.
    expect((await payCall(ctx.h, always.id, await tokenize(ctx.h, always.id), 'grace@example.com')).statusCode).toBe(200);
    const completed = (await call('GET', `/v1/checkout/sessions/${always.id}`)).json();
    expect(completed.customer).toBe(afterDecline.customer);
    const made = (await call('GET', `/v1/customers/${completed.customer}`)).json();
    expect(made).toMatchObject({ email: 'grace@example.com', name: null });
    expect((await call('GET', `/v1/payments/${completed.payment}`)).json().customer).toBe(made.id);
    expect(await countRows(ctx.db, 'customers')).toBe(1);
    expect(await eventsOf(made.id)).toEqual(['customer.created']);

    const ifRequired = await createSession(ctx, { customer_email: 'lin@example.com' });
    expect((await payCall(ctx.h, ifRequired.id, await tokenize(ctx.h, ifRequired.id), 'lin@example.com')).statusCode).toBe(200);
    expect((await call('GET', `/v1/checkout/sessions/${ifRequired.id}`)).json().customer).toBeNull();
    expect(await countRows(ctx.db, 'customers')).toBe(1);
  });

  it('deleting a customer keeps its payments and sessions, detached, and fires customer.deleted', async () => {
    const ada = await customer({ email: 'ada@example.com' });
    const session = await createSession(ctx, { customer: ada.id });
    expect((await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id), 'ada@example.com')).statusCode).toBe(200);
    const paymentId = (await call('GET', `/v1/checkout/sessions/${session.id}`)).json().payment;

    const deleted = await call('DELETE', `/v1/customers/${ada.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ id: ada.id, object: 'customer', deleted: true });
    expectError(await call('GET', `/v1/customers/${ada.id}`), 404, 'resource_missing', { param: 'id' });
    expectError(await call('DELETE', `/v1/customers/${ada.id}`), 404, 'resource_missing', { param: 'id' });

    const payment = (await call('GET', `/v1/payments/${paymentId}`)).json();
    expect(payment).toMatchObject({ status: 'succeeded', amount: 3500, customer: null });
    expect((await call('GET', `/v1/checkout/sessions/${session.id}`)).json()).toMatchObject({ status: 'complete', customer: null });
    expect(await countRows(ctx.db, 'customers')).toBe(0);
    expect(await eventsOf(ada.id)).toEqual(['customer.created', 'customer.deleted']);
    const audit = await rows(ctx.db, `SELECT action FROM audit_log WHERE target = $1 ORDER BY at`, [ada.id]);
    expect(audit.map((r) => r.action)).toEqual(['customer.create', 'customer.delete']);
  });

  describe('through the SDK', () => {
    let baseUrl: string;
    beforeAll(async () => {
      await ctx.h.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(ctx.h.app.server.address() as AddressInfo).port}`;
    });

    it('tp.customers creates, updates, lists by email and deletes', async () => {
      const tp = new Tillpoint(ctx.key, { baseUrl, initialRetryDelayMs: 10 });
      const made = await tp.customers.create({ email: 'ada@example.com', name: 'Ada' });
      expect(made.object).toBe('customer');
      expect((await tp.customers.update(made.id, { name: null })).name).toBeNull();
      expect((await tp.customers.retrieve(made.id)).email).toBe('ada@example.com');
      expect((await tp.customers.list({ email: 'ada@example.com' })).data.map((c) => c.id)).toEqual([made.id]);
      expect(await tp.customers.del(made.id)).toEqual({ id: made.id, object: 'customer', deleted: true });
      expect((await tp.customers.list()).data).toEqual([]);
    });
  });
});
