import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, permissions, roles, type Role } from '../../src/domain/permissions';
import { dashboardEndpoints } from '../../src/http/dashboard/index';
import type { SqlClient } from '../../src/persistence/sql-client';
import { testDatabases } from '../support/databases';
import { addMember, dashboardCall, signUpOwner, type DashboardAgent } from '../support/dashboard';
import { startHarness, type Harness } from '../support/harness';
import { expectError, merchantCall, payCall, tokenize } from '../support/integration';

interface Fixtures {
  h: Harness;
  accountId: string;
  owner: DashboardAgent;
  members: Record<Role, DashboardAgent>;
  /** The owner of another account: a stranger to this one. */
  outsider: DashboardAgent;
  paymentId: string;
  sessionId: string;
  secretKey: string;
  priceId: string;
  webhookEndpointId: string;
  deliveryId: string;
  experimentId: string;
}

interface Sample {
  params?: Record<string, string>;
  body?: object;
}

async function ownerCall(fx: Fixtures, method: 'GET' | 'POST', path: string, body?: object) {
  const res = await dashboardCall(fx.h, fx.owner, method, `/dashboard/api/accounts/${fx.accountId}${path}`, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

/** A throwaway member to change or remove, so each role acts on its own target. */
async function targetMember(fx: Fixtures): Promise<string> {
  return (await addMember(fx.h, fx.owner, 'support')).userId;
}

/** A fresh authorized payment (capture_method manual), so each role captures or voids its own. */
async function authorizedPayment(fx: Fixtures): Promise<string> {
  const session = await merchantCall(fx.h, fx.secretKey, 'POST', '/v1/checkout/sessions', {
    currency: 'usd',
    capture_method: 'manual',
    line_items: [{ name: 'Held mug', unit_amount: 2500, quantity: 1 }],
  });
  const paid = await payCall(fx.h, session.json().id, await tokenize(fx.h, session.json().id));
  expect(paid.statusCode, paid.body).toBe(200);
  const list = await merchantCall(fx.h, fx.secretKey, 'GET', `/v1/payments?checkout_session=${session.json().id}`);
  return list.json().data[0].id;
}

const newLink = async (fx: Fixtures) => (await ownerCall(fx, 'POST', '/test/payment-links', { line_items: [{ price: fx.priceId, quantity: 1 }] })).id;
const newWebhookEndpoint = async (fx: Fixtures) =>
  (await ownerCall(fx, 'POST', '/test/webhook-endpoints', { url: 'http://localhost:9/hooks', enabled_events: ['*'] })).id;
const newExperiment = async (fx: Fixtures) =>
  (await ownerCall(fx, 'POST', '/test/experiments', { key: 'pay_button_wording', variants: [{ key: 'pay', weight: 1 }, { key: 'pay_now', weight: 1 }], planned_sample_size: 1000 })).id;

/**
 * A valid request for every dashboard endpoint, keyed by `METHOD url`. An endpoint missing here fails
 * the matrix test: a new endpoint must say how it is called and which permission guards it.
 */
const samples: Record<string, (fx: Fixtures) => Promise<Sample>> = {
  'GET /dashboard/api/accounts/:account_id/team': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/invites': async () => ({ body: { role: 'viewer' } }),
  'POST /dashboard/api/accounts/:account_id/invites/:id/revoke': async (fx) => ({
    params: { id: (await ownerCall(fx, 'POST', '/invites', { role: 'viewer' })).id },
  }),
  'POST /dashboard/api/accounts/:account_id/members/:user_id/role': async (fx) => ({
    params: { user_id: await targetMember(fx) },
    body: { role: 'viewer' },
  }),
  'DELETE /dashboard/api/accounts/:account_id/members/:user_id': async (fx) => ({ params: { user_id: await targetMember(fx) } }),
  'GET /dashboard/api/accounts/:account_id/settings': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/settings': async () => ({ body: { accent_color: '#225577' } }),
  'GET /dashboard/api/accounts/:account_id/audit-log': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/overview': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/payments': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/payments/export.csv': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/payments/:id': async (fx) => ({ params: { id: fx.paymentId } }),
  'GET /dashboard/api/accounts/:account_id/:mode/checkout-sessions': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/checkout-sessions/:id': async (fx) => ({ params: { id: fx.sessionId } }),
  'GET /dashboard/api/accounts/:account_id/:mode/api-keys': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/:mode/api-keys': async () => ({ body: { kind: 'publishable' } }),
  'POST /dashboard/api/accounts/:account_id/:mode/api-keys/:id/revoke': async (fx) => ({
    params: { id: (await ownerCall(fx, 'POST', '/test/api-keys', { kind: 'publishable' })).id },
  }),
  'GET /dashboard/api/accounts/:account_id/:mode/request-log': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/:mode/payments/:id/capture': async (fx) => ({ params: { id: await authorizedPayment(fx) }, body: { amount: 2000 } }),
  'POST /dashboard/api/accounts/:account_id/:mode/payments/:id/cancel': async (fx) => ({ params: { id: await authorizedPayment(fx) } }),
  'POST /dashboard/api/accounts/:account_id/:mode/payments/:id/refunds': async (fx) => ({
    params: { id: fx.paymentId },
    body: { amount: 100, reason: 'requested_by_customer' },
  }),
  'GET /dashboard/api/accounts/:account_id/:mode/products': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/:mode/products': async () => ({
    body: { name: 'Matrix beans', default_price_data: { currency: 'usd', unit_amount: 1200 } },
  }),
  'GET /dashboard/api/accounts/:account_id/:mode/payment-links': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/:mode/payment-links': async (fx) => ({ body: { line_items: [{ price: fx.priceId, quantity: 2 }] } }),
  'POST /dashboard/api/accounts/:account_id/:mode/payment-links/:id': async (fx) => ({ params: { id: await newLink(fx) }, body: { active: false } }),
  'GET /dashboard/api/accounts/:account_id/:mode/webhook-endpoints': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/:mode/webhook-endpoints': async () => ({
    body: { url: 'http://localhost:9/other', enabled_events: ['refund.succeeded'] },
  }),
  'POST /dashboard/api/accounts/:account_id/:mode/webhook-endpoints/:id': async (fx) => ({ params: { id: await newWebhookEndpoint(fx) }, body: { disabled: true } }),
  'DELETE /dashboard/api/accounts/:account_id/:mode/webhook-endpoints/:id': async (fx) => ({ params: { id: await newWebhookEndpoint(fx) } }),
  'POST /dashboard/api/accounts/:account_id/:mode/webhook-endpoints/:id/roll-secret': async (fx) => ({ params: { id: fx.webhookEndpointId } }),
  'GET /dashboard/api/accounts/:account_id/:mode/webhook-endpoints/:id/deliveries': async (fx) => ({ params: { id: fx.webhookEndpointId } }),
  'POST /dashboard/api/accounts/:account_id/:mode/webhook-endpoints/:id/deliveries/:delivery_id/resend': async (fx) => ({
    params: { id: fx.webhookEndpointId, delivery_id: fx.deliveryId },
  }),
  'GET /dashboard/api/accounts/:account_id/:mode/processor': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/:mode/processor': async () => ({ body: { processor: 'test' } }),
  'POST /dashboard/api/accounts/:account_id/:mode/processor/check': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/flags': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/:mode/flags/:key': async () => ({ params: { key: 'google_pay_enabled' }, body: { value: true } }),
  'GET /dashboard/api/accounts/:account_id/:mode/experiments': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/:mode/experiments': async () => ({
    body: { key: 'checkout_layout', variants: [{ key: 'wallet_first', weight: 1 }, { key: 'card_first', weight: 1 }], planned_sample_size: 1000 },
  }),
  'POST /dashboard/api/accounts/:account_id/:mode/experiments/:id': async (fx) => ({
    params: { id: await newExperiment(fx) },
    body: { description: 'Edited by the matrix test' },
  }),
  'GET /dashboard/api/accounts/:account_id/:mode/experiments/:id/results': async (fx) => ({ params: { id: fx.experimentId } }),
};

function urlFor(template: string, params: Record<string, string>): string {
  return template.replace(/:([a-z_]+)/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${template}`);
    return value;
  });
}

describe.each(testDatabases)('dashboard role × action matrix ($name)', (database) => {
  let db: SqlClient;
  const fx = {} as Fixtures;

  beforeAll(async () => {
    db = await database.open();
    fx.h = await startHarness(db);
    fx.owner = await signUpOwner(fx.h, 'Matrix Shop');
    fx.accountId = fx.owner.accountId;
    fx.outsider = await signUpOwner(fx.h, 'Someone Else');
    fx.members = { owner: fx.owner } as Record<Role, DashboardAgent>;
    for (const role of roles.filter((r) => r !== 'owner')) fx.members[role] = await addMember(fx.h, fx.owner, role);

    const key = (await ownerCall(fx, 'POST', '/test/api-keys', { kind: 'secret' })).secret;
    fx.secretKey = key;
    fx.webhookEndpointId = await newWebhookEndpoint(fx);
    fx.priceId = (await ownerCall(fx, 'POST', '/test/products', { name: 'Matrix mug', default_price_data: { currency: 'usd', unit_amount: 1500 } }))
      .default_price.id;
    fx.experimentId = await newExperiment(fx);
    const session = await merchantCall(fx.h, key, 'POST', '/v1/checkout/sessions', {
      currency: 'usd',
      line_items: [{ name: 'Matrix mug', unit_amount: 1500, quantity: 1 }],
    });
    fx.sessionId = session.json().id;
    const paid = await payCall(fx.h, fx.sessionId, await tokenize(fx.h, fx.sessionId));
    expect(paid.statusCode, paid.body).toBe(200);
    fx.paymentId = (await ownerCall(fx, 'GET', '/test/payments')).data[0].id;
    fx.deliveryId = (await ownerCall(fx, 'GET', `/test/webhook-endpoints/${fx.webhookEndpointId}/deliveries`)).data[0].id;
  });

  afterAll(async () => {
    await fx.h?.app.close();
    await db?.close();
  });

  const endpoints = dashboardEndpoints({ publicUrl: 'http://checkout.test' } as never, {} as never).filter(
    (e) => e.contract.access.kind === 'account' || e.contract.access.kind === 'mode',
  );

  it('has a sample request for every account endpoint, and every endpoint names a permission of the table', () => {
    const names = endpoints.map((e) => `${e.contract.method} ${e.contract.url}`);
    expect(names.sort()).toEqual(Object.keys(samples).sort());
    for (const { contract } of endpoints) {
      const access = contract.access as { permission: string };
      expect(permissions as readonly string[]).toContain(access.permission);
    }
  });

  it.each(endpoints.map((e) => [`${e.contract.method} ${e.contract.url}`, e] as const))('%s', async (name, endpoint) => {
    const { contract } = endpoint;
    const permission = (contract.access as { permission: (typeof permissions)[number] }).permission;
    const sample = samples[name];
    expect(sample, `no sample request for ${name}`).toBeDefined();

    for (const role of roles) {
      const { params = {}, body } = await sample!(fx);
      const url = urlFor(contract.url, { account_id: fx.accountId, mode: 'test', ...params });
      const res = await dashboardCall(fx.h, fx.members[role], contract.method, url, body);
      if (can(role, permission)) {
        expect(res.statusCode, `${role} ${name}: ${res.body}`).toBe(contract.status ?? 200);
      } else {
        expect(res.statusCode, `${role} ${name}: ${res.body}`).toBe(403);
        expectError(res, 403, 'insufficient_role');
      }
    }

    // A member of another account, calling this account's URLs the way an attacker would.
    const { params = {}, body } = await sample!(fx);
    const url = urlFor(contract.url, { account_id: fx.accountId, mode: 'test', ...params });
    expectError(await dashboardCall(fx.h, fx.outsider, contract.method, url, body), 404, 'resource_missing', { param: 'id' });
    // Nobody signed in.
    const anonymous = await fx.h.app.inject({ method: contract.method, url, ...(body ? { payload: body } : {}) });
    expectError(anonymous, 401, 'not_signed_in');
  });

  it.each([
    ['payments/:id', (fx: Fixtures) => `/test/payments/${fx.paymentId}`, 'GET'],
    ['checkout-sessions/:id', (fx: Fixtures) => `/test/checkout-sessions/${fx.sessionId}`, 'GET'],
  ] as const)("answers another account's %s under the caller's own account with 404", async (_label, path, method) => {
    const res = await dashboardCall(fx.h, fx.outsider, method, `/dashboard/api/accounts/${fx.outsider.accountId}${path(fx)}`);
    expectError(res, 404, 'resource_missing', { param: 'id' });
  });

  it("cannot revoke another account's key or invite, or touch its members, from the caller's own account", async () => {
    const key = await ownerCall(fx, 'POST', '/test/api-keys', { kind: 'publishable' });
    const invite = await ownerCall(fx, 'POST', '/invites', { role: 'viewer' });
    const own = `/dashboard/api/accounts/${fx.outsider.accountId}`;
    expectError(await dashboardCall(fx.h, fx.outsider, 'POST', `${own}/test/api-keys/${key.id}/revoke`), 404, 'resource_missing', { param: 'id' });
    expectError(await dashboardCall(fx.h, fx.outsider, 'POST', `${own}/invites/${invite.id}/revoke`), 404, 'resource_missing', { param: 'id' });
    expectError(
      await dashboardCall(fx.h, fx.outsider, 'DELETE', `${own}/members/${fx.members.viewer.userId}`),
      404,
      'resource_missing',
      { param: 'id' },
    );
    const keys = await ownerCall(fx, 'GET', '/test/api-keys');
    expect(keys.data.find((k: { id: string }) => k.id === key.id).revoked_at).toBeNull();
  });

  it('shows test data only in test mode: the live payments list is empty', async () => {
    const live = await ownerCall(fx, 'GET', '/live/payments');
    expect(live.data).toEqual([]);
    expectError(
      await dashboardCall(fx.h, fx.owner, 'GET', `/dashboard/api/accounts/${fx.accountId}/live/payments/${fx.paymentId}`),
      404,
      'resource_missing',
      { param: 'id' },
    );
  });
});
