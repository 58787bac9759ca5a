import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpServer } from '../../src/http/server';
import { testDatabases } from '../support/databases';
import { createSession, merchantCall, payCall, tokenize, useIntegration } from '../support/integration';
import { holdProcessorAnswers } from '../support/payments';

/**
 * The checkout page as the server sends it: rendered HTML with its data inlined (no request for the
 * session or the flags), a CSP nonce, and every byte compressed the way the browser asked. Needs
 * `npm run build` (dist/web) like the bundle budget.
 */
const webRoot = path.resolve(import.meta.dirname, '../../dist/web');

function decoded(res: { rawPayload: Buffer; headers: Record<string, unknown> }): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  return res.rawPayload.toString('utf8');
}

/** The page's inlined data, parsed as the browser does. */
function pageData(html: string) {
  const match = /<script type="application\/json" id="tillpoint-page" nonce="([^"]+)">([\s\S]*?)<\/script>/.exec(html);
  expect(match, 'the page data element').not.toBeNull();
  return { nonce: match![1]!, data: JSON.parse(match![2]!) };
}

describe.each(testDatabases)('checkout page ($name)', (database) => {
  const ctx = useIntegration(database);
  let app: FastifyInstance;
  beforeAll(async () => {
    expect(existsSync(path.join(webRoot, '.vite', 'manifest.json')), 'run npm run build first').toBe(true);
    app = await buildHttpServer({ deps: ctx.h.tillpoint.deps, webRoot });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string, acceptEncoding = 'br, gzip') => app.inject({ method: 'GET', url, headers: { 'accept-encoding': acceptEncoding } });

  it('renders the order, the total and the form on the server, with the data inlined under the CSP nonce', async () => {
    const session = await createSession(ctx, {
      line_items: [{ name: 'Beans </script><script>alert(1)</script>', unit_amount: 1450, quantity: 2 }],
    });
    const res = await get(`/c/${session.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-store');
    const html = decoded(res);
    expect(html).toContain('<title>Checkout · Test Shop</title>');
    expect(html).toContain('<strong data-testid="total">$29.00</strong>');
    expect(html).toContain('Beans &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toMatch(/<input[^>]+id="email"/);
    expect(html).toContain('Your browser has JavaScript turned off. Turn it on to pay; your order is shown above.');

    const { nonce, data } = pageData(html);
    // The line item's markup cannot close the data element: `<` is escaped inside the JSON.
    expect(html).not.toContain('</script><script>alert(1)');
    expect(data).toMatchObject({
      sessionId: session.id,
      receipt: false,
      locale: 'en',
      view: { kind: 'ready', session: { id: session.id, amount_total: 2900 } },
    });
    expect(data.flags).toMatchObject({ cardEnabled: true, googlePayEnabled: true, layout: { value: 'wallet_first', experiment: null } });
    // The catalogue is inlined precompiled (ASTs: the page's runtime has no parser), for primeMessages.
    expect(data.messages.locale).toBe('en');
    expect(data.messages.catalogue['page.title']).toEqual([{ type: 0, value: 'Checkout' }]);

    const policy = String(res.headers['content-security-policy']);
    const scriptSrc = policy.split('; ').find((d) => d.startsWith('script-src '))!;
    expect(scriptSrc).toContain(`'nonce-${nonce}'`);
    expect(scriptSrc).not.toContain('unsafe-inline');
    // The integrity import map comes before every module script, allowed by its hash.
    const importMap = /<script type="importmap">([^<]*)<\/script>/.exec(html)![1]!;
    expect(html.indexOf('<script type="importmap">')).toBeLessThan(html.indexOf('<script type="module"'));
    expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(importMap).digest('base64')}'`);
    expect(res.headers['reporting-endpoints']).toBe('csp="/csp-reports"');
    // A fresh nonce per response.
    expect(pageData(decoded(await get(`/c/${session.id}`))).nonce).not.toBe(nonce);

    // The test processor's card form is preloaded; no braintree-web component is.
    expect(html).toMatch(/<link rel="modulepreload" href="\/assets\/builtin-engine-[\w-]+\.js" integrity="sha384-[^"]+" crossorigin>/);
    // (The integrity import map names every chunk; only what the head loads counts here.)
    expect(html).not.toMatch(/(src|href)="\/assets\/(hosted-fields|braintree-components)/);
  });

  it('renders every state: expired, already paid, the receipt, not found', async () => {
    const expired = await createSession(ctx);
    await ctx.db.query(`UPDATE checkout_sessions SET expires_at = now() - interval '1 minute' WHERE id = $1`, [expired.id]);
    const expiredHtml = decoded(await get(`/c/${expired.id}`));
    expect(expiredHtml).toContain('This checkout has expired');
    expect(expiredHtml).not.toContain('modulepreload" href="/assets/builtin-engine');

    const paid = await createSession(ctx);
    const token = await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${paid.id}/card-tokens`,
      payload: { number: '4111111111111111', exp_month: 12, exp_year: 2034, cvc: '123', postal_code: '94107' },
    });
    const pay = await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${paid.id}/payments`,
      payload: { payment_method_type: 'card', nonce: token.json().nonce, email: 'shopper@example.com' },
    });
    expect(pay.statusCode, pay.body).toBe(200);
    expect(decoded(await get(`/c/${paid.id}`))).toContain('This order is already paid');
    const receipt = decoded(await get(`/c/${paid.id}/done`));
    expect(receipt).toContain('Payment successful');
    expect(receipt).toContain('Paid $35.00 with Visa ending in 1111');

    const missing = await get('/c/cs_doesnotexist');
    expect(missing.statusCode).toBe(404);
    expect(decoded(missing)).toContain('Checkout not found');
    expect((await get(`/c/${'x'.repeat(500)}`)).statusCode).toBe(404);
  });

  it('shows a payment whose outcome is not recorded yet as being confirmed, never the form, on the page and its receipt', async () => {
    const session = await createSession(ctx);
    // The processor holds its answer: the payment is `processing` meanwhile, as when its outcome
    // could not be recorded and waits for the background retry or reconciliation.
    const { asked: processorAsked, answer, restore } = holdProcessorAnswers(ctx.h);
    try {
      const token = await ctx.h.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${session.id}/card-tokens`,
        payload: { number: '4111111111111111', exp_month: 12, exp_year: 2034, cvc: '123', postal_code: '94107' },
      });
      const paying = ctx.h.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${session.id}/payments`,
        payload: { payment_method_type: 'card', nonce: token.json().nonce, email: 'shopper@example.com' },
      });
      await processorAsked;
      for (const url of [`/c/${session.id}/done`, `/c/${session.id}`]) {
        const res = await get(url);
        expect(res.statusCode).toBe(200);
        const html = decoded(res);
        expect(html).toContain('Confirming your payment');
        expect(html).toContain('We are confirming your payment to Test Shop. This page updates by itself; do not pay again.');
        expect(html).toContain('data-testid="confirming"');
        expect(html).toMatch(/<section[^>]+role="status"[^>]+aria-live="polite"/);
        // No form to pay a second time, nor its scripts.
        expect(html).not.toMatch(/<input[^>]+id="email"/);
        expect(html).not.toContain('class="pay-button"');
        expect(html).not.toContain('modulepreload" href="/assets/builtin-engine');
        expect(html).not.toContain('<noscript>');
        expect(pageData(html).data.view).toMatchObject({ kind: 'confirming', session: { id: session.id, status: 'open', payment: { status: 'processing' } } });
      }
      // In the shopper's language.
      const german = decoded(await app.inject({ method: 'GET', url: `/c/${session.id}/done`, headers: { 'accept-language': 'de' } }));
      expect(german).toContain('Ihre Zahlung wird bestätigt');

      answer();
      expect((await paying).statusCode).toBe(200);
      // Final: the receipt, which the page polling the session shows too.
      expect(decoded(await get(`/c/${session.id}/done`))).toContain('Payment successful');
    } finally {
      restore();
    }
  });

  it("speaks the session's locale, else the shopper's Accept-Language, with <html lang dir> and the catalogue inlined", async () => {
    const auto = await createSession(ctx);
    const arabic = await app.inject({ method: 'GET', url: `/c/${auto.id}`, headers: { 'accept-language': 'ar-EG,ar;q=0.9,en;q=0.5' } });
    const arabicHtml = decoded(arabic);
    expect(arabicHtml).toContain('<html lang="ar" dir="rtl">');
    expect(pageData(arabicHtml).data).toMatchObject({ locale: 'ar', messages: { locale: 'ar' } });
    const german = await createSession(ctx, { locale: 'de' });
    const germanHtml = decoded(await app.inject({ method: 'GET', url: `/c/${german.id}`, headers: { 'accept-language': 'ar' } }));
    expect(germanHtml).toContain('<html lang="de" dir="ltr">');
    expect(pageData(germanHtml).data.messages.locale).toBe('de');
    const missing = decoded(await app.inject({ method: 'GET', url: '/c/cs_doesnotexist', headers: { 'accept-language': 'fr-CA' } }));
    expect(missing).toContain('<html lang="fr" dir="ltr">');
  });

  it('says what a subscription charges today and what it charges next, in the page’s words and language', async () => {
    const price = async (unitAmount: number, recurring: Record<string, unknown>) => {
      const product = (await merchantCall(ctx.h, ctx.key, 'POST', '/v1/products', { name: 'Coffee club' })).json();
      const made = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/prices', { product: product.id, currency: 'usd', unit_amount: unitAmount, recurring });
      expect(made.statusCode, made.body).toBe(200);
      return made.json().id as string;
    };
    const subscription = (line: { price: string; quantity: number }, more: Record<string, unknown> = {}) =>
      createSession(ctx, { mode: 'subscription', line_items: [line], currency: undefined, ...more });

    const monthly = await subscription({ price: await price(2000, { interval: 'month' }), quantity: 2 });
    const html = decoded(await get(`/c/${monthly.id}`));
    expect(html).toContain('<strong data-testid="total">$40.00</strong>');
    expect(html).toContain('Due today');
    expect(html).toContain('>Then $40.00 every month</p>');
    expect(html).toContain('>Your card will be saved and charged for each renewal.</p>');
    expect(html).not.toContain('>This card will be saved for your next purchase.</p>');
    expect(html).toMatch(/<button type="submit" class="pay-button"[^>]*>Subscribe<\/button>/);
    expect(html).not.toContain('Pay $40.00');
    expect(pageData(html).data.view.session.subscription).toEqual({ interval: 'month', interval_count: 1, trial_period_days: null, amount: 4000 });
    const german = decoded(
      await get(`/c/${(await subscription({ price: await price(2000, { interval: 'month', interval_count: 3 }), quantity: 1 }, { locale: 'de' })).id}`),
    );
    expect(german).toMatch(/>Danach 20,00\s\$ alle 3 Monate<\/p>/);
    expect(german).toMatch(/>Abonnieren<\/button>/);

    const trial = await subscription(
      { price: await price(1500, { interval: 'week', interval_count: 2 }), quantity: 1 },
      { subscription_data: { trial_period_days: 14 } },
    );
    const trialHtml = decoded(await get(`/c/${trial.id}`));
    expect(trialHtml).toContain('<strong data-testid="total">$0.00</strong>');
    expect(trialHtml).toContain('>14 days free · Then $15.00 every 2 weeks after the trial</p>');
    expect(trialHtml).toMatch(/>Start trial<\/button>/);
    // Nothing charged: the receipt says the card is saved, as for a setup session.
    expect((await payCall(ctx.h, trial.id, await tokenize(ctx.h, trial.id))).statusCode).toBe(200);
    const receipt = decoded(await get(`/c/${trial.id}/done`));
    expect(receipt).toContain('<h2 id="status-title">Card saved</h2>');
    expect(receipt).toContain('Your card is saved with Test Shop. Nothing was charged.');

    // A payment session has no renewal to speak of.
    const once = decoded(await get(`/c/${(await createSession(ctx)).id}`));
    expect(pageData(once).data.view.session.subscription).toBeNull();
    expect(once).not.toContain('>Due today</span>');
    expect(once).toContain('>Total due</span>');
  });

  it('sends the HTML as brotli, gzip or identity by Accept-Encoding', async () => {
    const session = await createSession(ctx);
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip, deflate', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const res = await get(`/c/${session.id}`, accept);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers.vary).toContain('accept-encoding');
      expect(decoded(res)).toContain('data-testid="total"');
    }
  });

  it('serves the build’s precompressed assets by Accept-Encoding, cached immutably', async () => {
    const name = readdirSync(path.join(webRoot, 'assets')).find((f) => /^checkout-[\w-]+\.js$/.test(f))!;
    const original = readFileSync(path.join(webRoot, 'assets', name));
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const res = await get(`/assets/${name}`, accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(String(res.headers['content-type'])).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decoded(res)).toBe(original.toString('utf8'));
      if (encoding) {
        expect(res.rawPayload.length).toBeLessThan(original.length / 2);
        expect(res.headers.vary).toContain('accept-encoding');
      }
    }
  });
});
