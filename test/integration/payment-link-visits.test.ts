import { describe, expect, it } from 'vitest';
import { createPaymentLink } from '../../src/domain/sessions/use-cases/create-payment-link';
import { PAYMENT_LINK_VISITS_PER_IP_PER_MINUTE } from '../../src/http/routes/payment-link-visits';
import { setCookie } from '../support/dashboard';
import { testDatabases } from '../support/databases';
import { countRows, expectError, merchantCall, useIntegration } from '../support/integration';

/**
 * `GET /l/:slug` is public: it made a checkout session on every request, from anyone, without limit,
 * and took any query. Now a visit is limited per client address, a returning browser is sent back to
 * the session it opened while that session is open, and unknown or malformed parameters are refused
 * (docs/payment-links.md).
 */
describe.each(testDatabases)('payment link visits ($name)', (database) => {
  const ctx = useIntegration(database);

  const makeLink = (name = 'Gift card') =>
    createPaymentLink(ctx.h.tillpoint.deps, {
      scope: { accountId: ctx.accountId, mode: 'test' },
      actor: null,
      currency: 'GBP',
      lineItems: [{ name, unitAmount: 2500, quantity: 1 }],
    });
  let address = 0;
  const visit = (slug: string, options: { query?: string; cookie?: string; ip?: string } = {}) =>
    ctx.h.app.inject({
      method: 'GET',
      url: `/l/${slug}${options.query ? `?${options.query}` : ''}`,
      remoteAddress: options.ip ?? `192.0.2.${++address % 250}`,
      headers: options.cookie ? { cookie: options.cookie } : {},
    });
  const sessionOf = (res: { headers: Record<string, unknown> }) => String(res.headers.location).slice('/c/'.length);

  it.each([
    ['an unknown parameter', 'zz_unknown=1', 'parameter_unknown', 'zz_unknown'],
    ['a malformed one', 'q=%ff', 'parameter_invalid', 'q'],
    ['2,000 parameters', Array.from({ length: 2000 }, (_, i) => `p${i}=1`).join('&'), 'parameter_unknown', 'p0'],
    ['a campaign parameter given twice', 'utm_source=a&utm_source=b', 'parameter_invalid', 'utm_source'],
    ['NUL in a campaign parameter', 'utm_source=a%00', 'parameter_invalid', 'utm_source'],
  ])('refuses %s in the query: 400 naming it, no session', async (_label, query, code, param) => {
    const link = await makeLink();
    expectError(await visit(link.slug, { query }), 400, code, { param });
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(0);
  });

  it('takes the campaign parameters links are shared with, and ad click ids', async () => {
    const link = await makeLink();
    const res = await visit(link.slug, { query: 'utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_term=tea&utm_content=a&fbclid=x1&gclid=y2' });
    expect(res.statusCode, res.body).toBe(303);
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(1);
  });

  it(`opens at most ${PAYMENT_LINK_VISITS_PER_IP_PER_MINUTE} sessions a minute for one address: then 429 rate_limited with Retry-After`, async () => {
    const link = await makeLink();
    const ip = '203.0.113.50';
    for (let i = 0; i < PAYMENT_LINK_VISITS_PER_IP_PER_MINUTE; i++) {
      const res = await visit(link.slug, { ip });
      expect(res.statusCode, res.body).toBe(303);
    }
    const limited = await visit(link.slug, { ip });
    expectError(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(PAYMENT_LINK_VISITS_PER_IP_PER_MINUTE);
    // Another address is not held back.
    expect((await visit(link.slug, { ip: '203.0.113.51' })).statusCode).toBe(303);
  });

  it('sends a returning browser back to the session it opened while that session is open', async () => {
    const link = await makeLink();
    const first = await visit(link.slug);
    expect(first.statusCode).toBe(303);
    const sessionId = sessionOf(first);
    const cookie = setCookie(first, 'tp_link_session')!;
    expect(cookie).toContain(`tp_link_session=${sessionId}`);
    expect(cookie).toContain(`Path=/l/${link.slug}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(Number(/Max-Age=(\d+)/.exec(cookie)![1])).toBeGreaterThan(23 * 3600);
    expect(first.headers['cache-control']).toBe('no-store');

    const jar = cookie.split(';')[0]!;
    const again = await visit(link.slug, { cookie: jar });
    expect(again.statusCode).toBe(303);
    expect(sessionOf(again)).toBe(sessionId);
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(1);

    // A browser without the cookie (another shopper) gets its own.
    expect(sessionOf(await visit(link.slug))).not.toBe(sessionId);
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(2);
  });

  it('opens a fresh session once the remembered one is expired, out of time, or of another link', async () => {
    const link = await makeLink();
    const first = await visit(link.slug);
    const jar = setCookie(first, 'tp_link_session')!.split(';')[0]!;

    expect((await merchantCall(ctx.h, ctx.key, 'POST', `/v1/checkout/sessions/${sessionOf(first)}/expire`)).statusCode).toBe(200);
    const afterExpiry = await visit(link.slug, { cookie: jar });
    expect(sessionOf(afterExpiry)).not.toBe(sessionOf(first));
    const renewed = setCookie(afterExpiry, 'tp_link_session')!.split(';')[0]!;
    expect(renewed).toBe(`tp_link_session=${sessionOf(afterExpiry)}`);

    ctx.h.clock.advance(24 * 3600 * 1000 + 1000);
    const outOfTime = await visit(link.slug, { cookie: renewed });
    expect(sessionOf(outOfTime)).not.toBe(sessionOf(afterExpiry));

    const other = await makeLink('Other');
    const elsewhere = await visit(other.slug, { cookie: `tp_link_session=${sessionOf(outOfTime)}` });
    expect(sessionOf(elsewhere)).not.toBe(sessionOf(outOfTime));
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(4);

    // A cookie that is not a session id, or one of no session, is no reason to refuse the visit.
    for (const bad of ['tp_link_session=%00', 'tp_link_session=cs_nosuchsession', 'tp_link_session=x; tp_link_session=y']) {
      expect((await visit(link.slug, { cookie: bad })).statusCode, bad).toBe(303);
    }
  });
});
