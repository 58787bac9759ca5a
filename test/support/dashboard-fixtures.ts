import { afterAll, beforeAll, expect } from 'vitest';
import { roles, type Role } from '../../src/domain/team/permissions';
import { addMember, dashboardCall, signUpOwner, type DashboardAgent } from './dashboard';
import type { SqlClient } from '../../src/persistence/sql-client';
import type { TestDatabase } from './databases';
import { startHarness, type Harness } from './harness';
import { merchantCall, payCall, tokenize } from './integration';
import { runJobOnce } from '../../src/runtime/scheduler';
import { startSmtpReceiver } from './smtp-receiver';

/**
 * An account with a member of every role, a payment, a webhook endpoint with a delivery, a product
 * and an experiment; and a valid request for every dashboard account endpoint. Shared by the role ×
 * action matrix, the CSRF walk and the fuzz of the dashboard.
 */
export interface Fixtures {
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
  /** An active subscription and its first (paid) invoice, made when a sample first asks (`sharedSubscription`). */
  subscription?: { id: string; invoiceId: string };
}

export interface Sample {
  params?: Record<string, string>;
  /** Query string, without `?`. */
  query?: string;
  body?: object;
}

export async function ownerCall(fx: Fixtures, method: 'GET' | 'POST', path: string, body?: object) {
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

/** A fresh dispute (the dispute test card, then the test processor's job), so each role acts on its own. */
export async function openDispute(fx: Fixtures): Promise<string> {
  // A fresh second of the test key's rate limit: the matrix has spent the last one.
  fx.h.clock.advance(1000);
  const session = await merchantCall(fx.h, fx.secretKey, 'POST', '/v1/checkout/sessions', {
    currency: 'usd',
    line_items: [{ name: 'Disputed mug', unit_amount: 2500, quantity: 1 }],
  });
  expect(session.statusCode, session.body).toBe(200);
  const card = { number: '4023 8984 9398 8028', exp_month: 12, exp_year: 2034, cvc: '123' };
  const paid = await payCall(fx.h, session.json().id, await tokenize(fx.h, session.json().id, card));
  expect(paid.statusCode, paid.body).toBe(200);
  fx.h.clock.advance(6000);
  await runJobOnce(fx.h.tillpoint.deps, 'test-processor-disputes');
  const payment = (await merchantCall(fx.h, fx.secretKey, 'GET', `/v1/payments?checkout_session=${session.json().id}`)).json().data[0].id;
  const list = await merchantCall(fx.h, fx.secretKey, 'GET', `/v1/disputes?payment=${payment}`);
  expect(list.json().data, list.body).toHaveLength(1);
  return list.json().data[0].id;
}

/** A fresh customer, so each role reads or deletes its own. */
async function newCustomer(fx: Fixtures): Promise<string> {
  // A fresh second of the test key's rate limit: the matrix has spent the last one.
  fx.h.clock.advance(1000);
  const made = await merchantCall(fx.h, fx.secretKey, 'POST', '/v1/customers', { email: 'matrix.customer@buyer.example' });
  expect(made.statusCode, made.body).toBe(200);
  return made.json().id;
}

/** A merchant API call that must succeed, on a fresh second of the test key's rate limit. */
export async function merchantOk(fx: Fixtures, method: 'GET' | 'POST', path: string, body?: object) {
  fx.h.clock.advance(1000);
  const res = await merchantCall(fx.h, fx.secretKey, method, path, body);
  expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
  return res.json();
}

/**
 * A fresh subscription through the merchant API: a recurring price of a new product, a customer whose
 * card a setup session saved, then `POST /v1/subscriptions` (charged at once unless on trial).
 */
export async function newSubscription(
  fx: Fixtures,
  options: { unitAmount?: number; currency?: string; interval?: string; intervalCount?: number; quantity?: number; email?: string; trialDays?: number } = {},
): Promise<{ id: string; customer: string; price: string }> {
  const product = await merchantOk(fx, 'POST', '/v1/products', { name: 'Coffee club' });
  const price = await merchantOk(fx, 'POST', '/v1/prices', {
    product: product.id,
    currency: options.currency ?? 'usd',
    unit_amount: options.unitAmount ?? 2000,
    recurring: { interval: options.interval ?? 'month', interval_count: options.intervalCount ?? 1 },
  });
  const email = options.email ?? 'subscriber@buyer.example';
  const customer = await merchantOk(fx, 'POST', '/v1/customers', { email });
  const session = await merchantOk(fx, 'POST', '/v1/checkout/sessions', { mode: 'setup', customer: customer.id });
  const saved = await payCall(fx.h, session.id, await tokenize(fx.h, session.id), email);
  expect(saved.statusCode, saved.body).toBe(200);
  const subscription = await merchantOk(fx, 'POST', '/v1/subscriptions', {
    customer: customer.id,
    items: [{ price: price.id, quantity: options.quantity ?? 1 }],
    ...(options.trialDays ? { trial_period_days: options.trialDays } : {}),
  });
  return { id: subscription.id, customer: customer.id, price: price.id };
}

/** One subscription the read samples share, made on first use. */
async function sharedSubscription(fx: Fixtures): Promise<{ id: string; invoiceId: string }> {
  if (!fx.subscription) {
    const { id } = await newSubscription(fx);
    fx.subscription = { id, invoiceId: (await merchantOk(fx, 'GET', `/v1/invoices?subscription=${id}`)).data[0].id };
  }
  return fx.subscription;
}

const newLink = async (fx: Fixtures) => (await ownerCall(fx, 'POST', '/test/payment-links', { line_items: [{ price: fx.priceId, quantity: 1 }] })).id;
const newWebhookEndpoint = async (fx: Fixtures) =>
  (await ownerCall(fx, 'POST', '/test/webhook-endpoints', { url: 'http://localhost:9/hooks', enabled_events: ['*'] })).id;
const newExperiment = async (fx: Fixtures) =>
  (
    await ownerCall(fx, 'POST', '/test/experiments', {
      key: 'pay_button_wording',
      variants: [
        { key: 'pay', weight: 1 },
        { key: 'pay_now', weight: 1 },
      ],
      planned_sample_size: 1000,
    })
  ).id;

/**
 * A valid request for every dashboard endpoint, keyed by `METHOD url`. An endpoint missing here fails
 * the matrix test: a new endpoint must say how it is called and which permission guards it.
 */
export const samples: Record<string, (fx: Fixtures) => Promise<Sample>> = {
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
  'GET /dashboard/api/accounts/:account_id/security': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/security': async () => ({ body: { require_second_factor: false } }),
  'POST /dashboard/api/accounts/:account_id/members/:user_id/password-reset-link': async (fx) => ({ params: { user_id: await targetMember(fx) } }),
  'GET /dashboard/api/accounts/:account_id/page-security': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/page-security/export.json': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/page-security/export.csv': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/page-security/changes': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/page-security/csp-reports': async () => ({}),
  'POST /dashboard/api/accounts/:account_id/page-security/baseline': async (fx) => ({
    body: { digest: (await ownerCall(fx, 'GET', '/page-security')).current.digest },
  }),
  'POST /dashboard/api/accounts/:account_id/page-security/scripts/:script_id/note': async () => ({
    params: { script_id: 'google-pay-js' },
    body: { note: 'Reviewed' },
  }),
  'GET /dashboard/api/accounts/:account_id/:mode/overview': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/analytics': async () => ({ query: 'from=2026-06-01&to=2026-06-30' }),
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
  'POST /dashboard/api/accounts/:account_id/:mode/api-keys/:id': async (fx) => ({
    params: { id: (await ownerCall(fx, 'POST', '/test/api-keys', { kind: 'publishable' })).id },
    body: { name: 'Storefront' },
  }),
  'POST /dashboard/api/accounts/:account_id/:mode/api-keys/:id/permissions': async (fx) => ({
    params: { id: (await ownerCall(fx, 'POST', '/test/api-keys', { kind: 'restricted', permissions: { payments: 'read' } })).id },
    body: { permissions: { payments: 'write' } },
  }),
  'POST /dashboard/api/accounts/:account_id/:mode/api-keys/:id/roll': async (fx) => ({
    params: { id: (await ownerCall(fx, 'POST', '/test/api-keys', { kind: 'restricted', permissions: { payments: 'read' } })).id },
    body: { expires_in: 3600 },
  }),
  'GET /dashboard/api/accounts/:account_id/:mode/request-log': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/disputes': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/disputes/:id': async (fx) => ({ params: { id: await openDispute(fx) } }),
  'POST /dashboard/api/accounts/:account_id/:mode/disputes/:id/evidence': async (fx) => ({
    params: { id: await openDispute(fx) },
    body: { text: 'Delivered' },
  }),
  'POST /dashboard/api/accounts/:account_id/:mode/disputes/:id/submit': async (fx) => ({ params: { id: await openDispute(fx) } }),
  'POST /dashboard/api/accounts/:account_id/:mode/disputes/:id/accept': async (fx) => ({ params: { id: await openDispute(fx) } }),
  'GET /dashboard/api/accounts/:account_id/:mode/customers': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/guest-customers': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/customers/:id': async (fx) => ({ params: { id: await newCustomer(fx) } }),
  'DELETE /dashboard/api/accounts/:account_id/:mode/customers/:id': async (fx) => ({ params: { id: await newCustomer(fx) } }),
  'GET /dashboard/api/accounts/:account_id/:mode/subscriptions': async () => ({ query: 'status=active' }),
  'GET /dashboard/api/accounts/:account_id/:mode/subscriptions/:id': async (fx) => ({ params: { id: (await sharedSubscription(fx)).id } }),
  'POST /dashboard/api/accounts/:account_id/:mode/subscriptions/:id': async (fx) => ({
    params: { id: (await newSubscription(fx)).id },
    body: { cancel_at_period_end: true },
  }),
  'POST /dashboard/api/accounts/:account_id/:mode/subscriptions/:id/cancel': async (fx) => ({ params: { id: (await newSubscription(fx)).id } }),
  'GET /dashboard/api/accounts/:account_id/:mode/invoices': async () => ({ query: 'status=paid' }),
  'GET /dashboard/api/accounts/:account_id/:mode/invoices/:id': async (fx) => ({ params: { id: (await sharedSubscription(fx)).invoiceId } }),
  'GET /dashboard/api/accounts/:account_id/:mode/recurring-revenue': async () => ({}),
  'GET /dashboard/api/accounts/:account_id/:mode/search': async (fx) => ({ query: `q=${fx.paymentId}` }),
  'POST /dashboard/api/accounts/:account_id/:mode/payments/:id/capture': async (fx) => ({
    params: { id: await authorizedPayment(fx) },
    body: { amount: 2000 },
  }),
  'POST /dashboard/api/accounts/:account_id/:mode/payments/:id/cancel': async (fx) => ({ params: { id: await authorizedPayment(fx) } }),
  'POST /dashboard/api/accounts/:account_id/:mode/payments/:id/send_receipt': async (fx) => ({ params: { id: fx.paymentId } }),
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
  'POST /dashboard/api/accounts/:account_id/:mode/webhook-endpoints/:id': async (fx) => ({
    params: { id: await newWebhookEndpoint(fx) },
    body: { disabled: true },
  }),
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
    body: {
      key: 'checkout_layout',
      variants: [
        { key: 'wallet_first', weight: 1 },
        { key: 'card_first', weight: 1 },
      ],
      planned_sample_size: 1000,
    },
  }),
  'POST /dashboard/api/accounts/:account_id/:mode/experiments/:id': async (fx) => ({
    params: { id: await newExperiment(fx) },
    body: { description: 'Edited by the matrix test' },
  }),
  'GET /dashboard/api/accounts/:account_id/:mode/experiments/:id/results': async (fx) => ({ params: { id: fx.experimentId } }),
};

export function urlFor(template: string, params: Record<string, string>): string {
  return template.replace(/:([a-z_]+)/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${template}`);
    return value;
  });
}

/**
 * For a suite: opens `database`, starts a harness over it and builds the fixtures once before the
 * suite's tests; closes both after them.
 */
export function useDashboardFixtures(database: TestDatabase): Fixtures & { db: SqlClient } {
  const fx = {} as Fixtures & { db: SqlClient };
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>> | undefined;
  beforeAll(async () => {
    fx.db = await database.openMigrated();
    // A mail server, so "Resend receipt" has somewhere to send.
    smtp = await startSmtpReceiver();
    fx.h = await startHarness(fx.db, { smtp: { url: smtp.url, from: 'Tillpoint <no-reply@checkout.test>' } });
    Object.assign(fx, await setUpFixtures(fx.h));
  });
  afterAll(async () => {
    await fx.h?.app.close();
    await fx.db?.close();
    await smtp?.close();
  });
  return fx;
}

/** Builds the fixtures on a running harness. */
export async function setUpFixtures(h: Harness): Promise<Fixtures> {
  const fx = { h } as Fixtures;
  fx.owner = await signUpOwner(fx.h, 'Matrix Shop');
  fx.accountId = fx.owner.accountId;
  fx.outsider = await signUpOwner(fx.h, 'Someone Else');
  fx.members = { owner: fx.owner } as Record<Role, DashboardAgent>;
  for (const role of roles.filter((r) => r !== 'owner')) fx.members[role] = await addMember(fx.h, fx.owner, role);

  const key = (await ownerCall(fx, 'POST', '/test/api-keys', { kind: 'secret' })).secret;
  fx.secretKey = key;
  fx.webhookEndpointId = await newWebhookEndpoint(fx);
  fx.priceId = (
    await ownerCall(fx, 'POST', '/test/products', { name: 'Matrix mug', default_price_data: { currency: 'usd', unit_amount: 1500 } })
  ).default_price.id;
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
  return fx;
}
