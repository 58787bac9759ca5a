import { describe, expect, it } from 'vitest';
import { PUBLIC_URL } from '../support/harness';
import { testDatabases } from '../support/databases';
import {
  bearer,
  countRows,
  createSession,
  createSessionOf,
  expectError,
  merchantCall,
  payCall,
  rows,
  sampleSession,
  tokenize,
  tokenizeCall,
  useIntegration,
  type IntegrationContext,
} from '../support/integration';

const HOUR = 60 * 60 * 1000;
const unix = (date: Date) => Math.floor(date.getTime() / 1000);

describe.each(testDatabases)('POST /v1/checkout/sessions ($name)', (database) => {
  const ctx = useIntegration(database);

  it('opens a session and reads it back unchanged', async () => {
    const expiresAt = unix(ctx.h.clock.now()) + 2 * 60 * 60;
    const res = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', {
      currency: 'eur',
      line_items: [
        { name: 'Espresso beans', unit_amount: 1299, quantity: 2 },
        { name: 'Grinder brush', unit_amount: 450, quantity: 1 },
      ],
      success_url: 'https://shop.example/thanks?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.example/cart',
      capture_method: 'manual',
      metadata: { order_id: 'ord_1234', channel: 'web' },
      expires_at: expiresAt,
    });
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json();
    expect(session.id).toMatch(/^cs_[0-9A-Za-z]{22,}$/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      livemode: false,
      status: 'open',
      url: `${PUBLIC_URL}/c/${session.id}`,
      currency: 'eur',
      line_items: [
        { name: 'Espresso beans', unit_amount: 1299, quantity: 2, amount: 2598 },
        { name: 'Grinder brush', unit_amount: 450, quantity: 1, amount: 450 },
      ],
      amount_subtotal: 3048,
      amount_total: 3048,
      success_url: 'https://shop.example/thanks?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.example/cart',
      capture_method: 'manual',
      metadata: { order_id: 'ord_1234', channel: 'web' },
      expires_at: expiresAt,
      completed_at: null,
      payment: null,
    });

    const read = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(session);
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(1);
  });

  it('defaults to a 24-hour lifetime, automatic capture and both payment methods', async () => {
    const session = await createSession(ctx);
    expect(session.expires_at).toBe(unix(ctx.h.clock.now()) + 24 * 60 * 60);
    expect(session.capture_method).toBe('automatic');
    expect(session.payment_method_types).toEqual(['card', 'google_pay']);
    expect(session.amount_total).toBe(1450 * 2 + 600);
    expect(session.metadata).toEqual({});
  });

  /** Sends a bad request and checks it is refused and leaves the sessions table as it was. */
  async function refused(
    c: IntegrationContext,
    payload: unknown,
    status: number,
    code: string,
    extra: { param?: string } = {},
    raw?: { body: string; contentType?: string },
  ) {
    await createSession(c); // something in the table, so "unchanged" means something
    const before = await countRows(c.db, 'checkout_sessions');
    const res = raw
      ? await c.h.app.inject({
          method: 'POST',
          url: '/v1/checkout/sessions',
          headers: { ...bearer(c.key), 'content-type': raw.contentType ?? 'application/json' },
          payload: raw.body,
        })
      : await merchantCall(c.h, c.key, 'POST', '/v1/checkout/sessions', payload);
    const error = expectError(res, status, code, extra);
    expect(await countRows(c.db, 'checkout_sessions')).toBe(before);
    return error;
  }

  it('refuses an unknown top-level field, naming it', async () => {
    const error = await refused(ctx, { ...sampleSession, colour: 'red' }, 400, 'parameter_unknown', { param: 'colour' });
    expect(error.message).toContain('colour');
  });

  it('refuses an unknown nested field, naming it', async () => {
    const error = await refused(
      ctx,
      { ...sampleSession, line_items: [{ name: 'Mug', unit_amount: 900, quantity: 1, colour: 'blue' }] },
      400,
      'parameter_unknown',
      { param: 'line_items[0][colour]' },
    );
    expect(error.message).toContain('line_items[0][colour]');
  });

  it('refuses a missing currency with parameter_missing', async () => {
    await refused(ctx, { line_items: sampleSession.line_items }, 400, 'parameter_missing', { param: 'currency' });
  });

  it('refuses missing line_items with parameter_missing', async () => {
    await refused(ctx, { currency: 'usd' }, 400, 'parameter_missing', { param: 'line_items' });
  });

  it('calls a present currency of the wrong type invalid, not missing', async () => {
    await refused(ctx, { ...sampleSession, currency: 840 }, 400, 'parameter_invalid', { param: 'currency' });
  });

  it('refuses an unsupported locale with parameter_invalid on locale, listing what is supported', async () => {
    const error = await refused(ctx, { ...sampleSession, locale: 'tlh' }, 400, 'parameter_invalid', { param: 'locale' });
    expect(error.message).toContain("'tlh'");
    expect(error.message).toMatch(/auto.*en, ar, he, fa, ur, de.*zh-Hans, zh-Hant.*sr/);
  });

  it('stores locale auto by default and the serving locale for a regional tag', async () => {
    expect((await createSession(ctx)).locale).toBe('auto');
    expect((await createSession(ctx, { locale: 'es-MX' })).locale).toBe('es');
    expect((await createSession(ctx, { locale: 'zh-TW' })).locale).toBe('zh-Hant');
  });

  it("tells the page the negotiated locale: the session's, else the shopper's Accept-Language, else English", async () => {
    const view = async (id: string, acceptLanguage?: string) => {
      const res = await ctx.h.app.inject({
        method: 'GET',
        url: `/api/checkout/sessions/${id}`,
        headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().locale as string;
    };
    const auto = await createSession(ctx);
    expect(await view(auto.id, 'pt;q=0.9, sw')).toBe('pt-BR');
    expect(await view(auto.id, 'sw')).toBe('en');
    expect(await view(auto.id)).toBe('en');
    const japanese = await createSession(ctx, { locale: 'ja' });
    expect(await view(japanese.id, 'de-DE,de;q=0.9')).toBe('ja');
  });

  it('refuses a body that is not a JSON object with parameter_invalid', async () => {
    await refused(ctx, null, 400, 'parameter_invalid', {}, { body: '[1,2,3]' });
  });

  it('refuses an amount below the currency minimum with amount_too_small', async () => {
    await refused(ctx, { currency: 'usd', line_items: [{ name: 'Sticker', unit_amount: 49, quantity: 1 }] }, 400, 'amount_too_small', { param: 'line_items' });
  });

  it('refuses an amount above the maximum with amount_too_large', async () => {
    await refused(ctx, { currency: 'usd', line_items: [{ name: 'Yacht', unit_amount: 99_999_999, quantity: 2 }] }, 400, 'amount_too_large', {
      param: 'line_items',
    });
  });

  it('refuses an unsupported currency with currency_not_supported', async () => {
    await refused(ctx, { ...sampleSession, currency: 'xxx' }, 400, 'currency_not_supported', { param: 'currency' });
  });

  it('refuses expires_at only 10 minutes ahead', async () => {
    const expiresAt = unix(ctx.h.clock.now()) + 10 * 60;
    await refused(ctx, { ...sampleSession, expires_at: expiresAt }, 400, 'parameter_invalid', { param: 'expires_at' });
  });

  it('refuses expires_at more than 24 hours ahead', async () => {
    const expiresAt = unix(ctx.h.clock.now()) + 25 * 60 * 60;
    await refused(ctx, { ...sampleSession, expires_at: expiresAt }, 400, 'parameter_invalid', { param: 'expires_at' });
  });

  it('refuses a relative success_url', async () => {
    await refused(ctx, { ...sampleSession, success_url: '/thanks' }, 400, 'parameter_invalid', { param: 'success_url' });
  });

  it('refuses a quantity of 0, naming the line', async () => {
    await refused(ctx, { currency: 'usd', line_items: [{ name: 'Mug', unit_amount: 900, quantity: 0 }] }, 400, 'parameter_invalid', {
      param: 'line_items[0][quantity]',
    });
  });

  it('refuses a 5 MB body with 413 request_too_large, naming the limit', async () => {
    const body = JSON.stringify({ ...sampleSession, metadata: { note: 'x'.repeat(5 * 1024 * 1024) } });
    const error = await refused(ctx, null, 413, 'request_too_large', {}, { body });
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toBe('The request body is larger than the limit of 256 KB (262144 bytes)');
  });

  it('takes a body just under 256 KB to validation (a metadata value too long), not to the size limit', async () => {
    const body = JSON.stringify({ ...sampleSession, metadata: { note: 'x'.repeat(250 * 1024) } });
    await refused(ctx, null, 400, 'parameter_invalid', { param: 'metadata[note]' }, { body });
  });

  it.each([
    ['a string amount', { unit_amount: '1650' }, 'line_items[0][unit_amount]', "line_items[0][unit_amount] must be an integer (in the currency's minor unit)"],
    ['a decimal amount', { unit_amount: 16.5 }, 'line_items[0][unit_amount]', "line_items[0][unit_amount] must be an integer (in the currency's minor unit)"],
    ['a string quantity', { quantity: '2' }, 'line_items[0][quantity]', 'line_items[0][quantity] must be an integer'],
    ['a number as the name', { name: 42 }, 'line_items[0][name]', 'line_items[0][name] must be a string'],
  ])('words %s in its own terms, naming the parameter', async (_label, change, param, message) => {
    const payload = { ...sampleSession, line_items: [{ ...sampleSession.line_items[0], ...change }] };
    const error = await refused(ctx, payload, 400, 'parameter_invalid', { param });
    expect(error.message).toBe(message);
  });

  it('refuses invalid JSON with 400 parameter_invalid', async () => {
    await refused(ctx, null, 400, 'parameter_invalid', {}, { body: '{"currency": "usd", "line_items": [' });
  });

  it('refuses a body that is not JSON', async () => {
    await refused(ctx, null, 400, 'parameter_invalid', {}, { body: 'currency=usd', contentType: 'application/x-www-form-urlencoded' });
  });
});

describe.each(testDatabases)('expiring checkout sessions ($name)', (database) => {
  const ctx = useIntegration(database);

  const expiredEvents = (id: string) => rows(ctx.db, `SELECT * FROM events WHERE object_id = $1 AND type = 'checkout.session.expired'`, [id]);

  it('POST /expire expires the session, writes one event, and is idempotent', async () => {
    const session = await createSession(ctx);
    const res = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${session.id}/expire`);
    expect(res.statusCode, res.body).toBe(200);
    expect(session.expired_at).toBeNull();
    expect(res.json()).toMatchObject({ id: session.id, status: 'expired', url: null, expired_at: unix(ctx.h.clock.now()) });

    const events = await expiredEvents(session.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ account_id: ctx.accountId, mode: 'test' });
    expect(events[0]!.data).toMatchObject({ id: session.id, status: 'expired', expired_at: unix(ctx.h.clock.now()) });

    const again = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${session.id}/expire`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().status).toBe('expired');
    expect(await expiredEvents(session.id)).toHaveLength(1);

    const read = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`);
    expect(read.json().status).toBe('expired');
  });

  it('refuses to pay or tokenize for an expired session with 410 checkout_session_expired', async () => {
    const session = await createSession(ctx);
    const nonce = await tokenize(ctx.h, session.id);
    await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${session.id}/expire`);

    expectError(await payCall(ctx.h, session.id, nonce), 410, 'checkout_session_expired');
    expectError(await payCall(ctx.h, session.id, 'fake-valid-nonce'), 410, 'checkout_session_expired');
    expectError(await tokenizeCall(ctx.h, session.id), 410, 'checkout_session_expired');
    expect(await countRows(ctx.db, 'payments')).toBe(0);
  });

  it('refuses to expire a completed session with 409 checkout_session_completed', async () => {
    const session = await createSessionOf(ctx, 1000);
    expect((await payCall(ctx.h, session.id, 'fake-valid-nonce')).statusCode).toBe(200);
    const res = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${session.id}/expire`);
    expectError(res, 409, 'checkout_session_completed');
    expect(await expiredEvents(session.id)).toHaveLength(0);
  });

  it('reads a session past its expires_at as expired, writing exactly one event', async () => {
    const session = await createSession(ctx, { expires_at: unix(ctx.h.clock.now()) + 60 * 60 });
    ctx.h.clock.advance(HOUR - 1000);
    let read = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`);
    expect(read.json().status).toBe('open');
    expect(await expiredEvents(session.id)).toHaveLength(0);

    expect(read.json().expired_at).toBeNull();

    ctx.h.clock.advance(1000);
    read = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ status: 'expired', url: null, expired_at: session.expires_at });
    // Read again, from both APIs and concurrently: still one event.
    const more = await Promise.all([
      merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`),
      merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`),
      ctx.h.app.inject({ method: 'GET', url: `/api/checkout/sessions/${session.id}` }),
    ]);
    for (const res of more) {
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('expired');
    }
    expect(await expiredEvents(session.id)).toHaveLength(1);
    const [row] = await rows(ctx.db, 'SELECT status FROM checkout_sessions WHERE id = $1', [session.id]);
    expect(row!.status).toBe('expired');
  });

  it('refuses to pay a session whose time is up, expiring it once', async () => {
    const session = await createSession(ctx);
    ctx.h.clock.advance(24 * HOUR + 1);
    expectError(await payCall(ctx.h, session.id, 'fake-valid-nonce'), 410, 'checkout_session_expired');
    expect(await expiredEvents(session.id)).toHaveLength(1);
    expect(await countRows(ctx.db, 'payments')).toBe(0);
  });
});
