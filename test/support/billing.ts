import { expect } from 'vitest';
import { eventSchema } from '../../src/http/response-schemas';
import { type IntegrationContext, merchantCall, tokenize } from './integration';

export const DAY = 24 * 60 * 60;
/** 1 January 2027, 09:00 UTC: where the billing suites' test clocks start. */
export const START = Date.UTC(2027, 0, 1, 9) / 1000;
/** Saves, then every charge of it is declined (docs/test-processor.md). */
export const DECLINES_AFTER_SAVE = { number: '4000 0000 0000 0341', exp_month: 12, exp_year: 2034, cvc: '123' };

type Json = Record<string, any>;

/**
 * The calls a billing suite makes as a merchant, and the prices, customers and cards its tests
 * start from: one place for what subscriptions, discounts, notices and the portal suites share.
 */
export function billingCalls(ctx: IntegrationContext) {
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);
  const ok = async (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => {
    const res = await call(method, url, body);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json() as Json;
  };

  /** A recurring price (monthly, in USD unless said) of a new product, "Coffee club". */
  const recurringPrice = async (unitAmount: number, options: { currency?: string; interval?: string } = {}) => {
    const product = await ok('POST', '/v1/products', { name: 'Coffee club' });
    const price = await ok('POST', '/v1/prices', {
      product: product.id,
      currency: options.currency ?? 'usd',
      unit_amount: unitAmount,
      recurring: { interval: options.interval ?? 'month' },
    });
    return price.id as string;
  };

  /**
   * Pays a session's page with `card` through the checkout page's own API, as the shopper would (a
   * setup session: saves it), a moment later than what came before.
   */
  const payPage = async (sessionId: string, card?: Record<string, unknown>, email = 'ada@example.com') => {
    ctx.h.clock.advance(1000);
    const saved = await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${sessionId}/payments`,
      payload: { payment_method_type: 'card', email, nonce: await tokenize(ctx.h, sessionId, card) },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  };

  /**
   * A customer on a new test clock at `start` (or on the wall clock), with `card` saved by a setup
   * session (nothing charged): the clock, the customer and the saved method.
   */
  const customerWithCard = async (
    options: { card?: Record<string, unknown>; start?: number; wallClock?: boolean; email?: string; preferredLocales?: string[] } = {},
  ) => {
    const clock = options.wallClock ? null : await ok('POST', '/v1/test_helpers/test_clocks', { frozen_time: options.start ?? START });
    const email = options.email ?? 'ada@example.com';
    const customer = await ok('POST', '/v1/customers', {
      email,
      ...(clock ? { test_clock: clock.id } : {}),
      ...(options.preferredLocales ? { preferred_locales: options.preferredLocales } : {}),
    });
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'setup', customer: customer.id });
    await payPage(session.id, options.card, email);
    const [method] = (await ok('GET', `/v1/customers/${customer.id}/payment_methods`)).data;
    return { clock: (clock?.id ?? null) as string, customer: customer.id as string, method: method.id as string };
  };

  /** A subscription's invoices, oldest period first. */
  const invoicesOf = async (subscription: string) =>
    ((await ok('GET', `/v1/invoices?subscription=${subscription}&limit=100`)).data as Json[]).sort((a, b) => a.period_start - b.period_start);

  const advance = (clock: string, to: number) => ok('POST', `/v1/test_helpers/test_clocks/${clock}/advance`, { frozen_time: to });

  /** The events of `type` about `objectId`, oldest first, as the API lists them (each checked against its documented schema). */
  const eventsOf = async (type: string, objectId: string) => {
    const listed = (await ok('GET', `/v1/events?type=${type}&limit=100`)).data as Json[];
    for (const event of listed) expect(eventSchema.safeParse(event).error).toBeUndefined();
    return listed.filter((event) => event.data.object.id === objectId || event.data.object.subscription === objectId).reverse();
  };

  return { call, ok, recurringPrice, payPage, customerWithCard, invoicesOf, advance, eventsOf };
}
