import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { giveUpOnCardFrames, routeThirdParties } from './doubles/braintree-client-api';
import { createSession, checkScreen, fillCheckout, payButton } from './support';

/**
 * The checkout page with the real braintree-web 3.79.1, paying through our server, the real
 * braintree SDK and the gateway emulator. Braintree's client API and Google's pay.js are doubled
 * in the browser (e2e/doubles); Hosted Fields' frames cannot be served here, so they are blocked.
 */
const braintreeKey = () => process.env.E2E_BRAINTREE_SECRET_KEY!;

async function braintreeSession(request: APIRequestContext, body: Record<string, unknown> = {}) {
  const response = await request.post('/v1/checkout/sessions', {
    headers: { Authorization: `Bearer ${braintreeKey()}` },
    data: { currency: 'usd', line_items: [{ name: 'Colombia Huila, 250 g', unit_amount: 1800, quantity: 1 }], ...body },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { id: string; url: string };
}

async function braintreeGet(request: APIRequestContext, path: string) {
  const response = await request.get(path, { headers: { Authorization: `Bearer ${braintreeKey()}` } });
  expect(response.status(), await response.text()).toBe(200);
  return response.json();
}

/** The page benchmark's stand-in for a Hosted Fields frame: it says FRAME_READY and shows an input (tokenizes nothing). */
const hostedFieldsFrame = readFileSync(path.join(import.meta.dirname, '..', 'bench', 'doubles', 'hosted-fields-frame.html'), 'utf8');

const googlePayButton = (page: Page) => page.getByTestId('google-pay').getByRole('button', { name: 'Pay with Google Pay' });

test.describe('Braintree checkout', () => {
  test('Google Pay pays end to end: button → sheet → parseResponse → server → SDK → gateway → receipt @desktop', async ({ page, request }) => {
    await routeThirdParties(page);
    const session = await braintreeSession(request, { payment_method_types: ['google_pay'] });
    await page.goto(session.url);
    await expect(googlePayButton(page)).toBeVisible();
    await checkScreen(page);

    const paying = page.waitForRequest((r) => r.url().endsWith(`/api/checkout/sessions/${session.id}/payments`));
    await googlePayButton(page).click();
    const sheet = page.getByRole('dialog', { name: 'Google Pay payment sheet' });
    await expect(sheet).toContainText('Pay USD 18.00 with VISA •••• 1111');
    const requested = await page.evaluate(() => (window as any).__payJsDouble);
    await sheet.getByRole('button', { name: 'Continue' }).click();

    const body = (await paying).postDataJSON();
    expect(body).toMatchObject({ payment_method_type: 'google_pay', nonce: 'fake-android-pay-visa-nonce', email: 'wallet@example.com' });
    // Device data from data-collector goes with the payment (its PayPal correlation id).
    expect(JSON.parse(body.device_data)).toHaveProperty('correlation_id');

    await page.waitForURL(`**/c/${session.id}/done`);
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    await expect(page.getByText('Paid $18.00 with Visa ending in 1111')).toBeVisible();

    expect(requested.environment).toBe('TEST');
    expect(requested.requests[0].transactionInfo).toMatchObject({ totalPrice: '18.00', currencyCode: 'USD', totalPriceStatus: 'FINAL' });
    expect(requested.requests[0].allowedPaymentMethods[0].tokenizationSpecification.parameters.gateway).toBe('braintree');

    const paid = await braintreeGet(request, `/v1/checkout/sessions/${session.id}`);
    const payment = await braintreeGet(request, `/v1/payments/${paid.payment}`);
    expect(payment).toMatchObject({ status: 'succeeded', processor: 'braintree', payment_method: { type: 'google_pay', brand: 'visa', last4: '1111' } });
  });

  test('no Google Pay button when isReadyToPay says no', async ({ page, request }) => {
    await routeThirdParties(page, { googlePayReady: false });
    const session = await braintreeSession(request, { payment_method_types: ['google_pay'] });
    await page.goto(session.url);
    await expect.poll(() => page.evaluate(() => (window as any).__payJsDouble?.readyChecks.length ?? 0)).toBeGreaterThan(0);
    await expect(page.getByTestId('google-pay').getByRole('button')).toHaveCount(0);
  });

  test('Hosted Fields start before React loads, keep their frames through hydration, and the card form is ready', async ({ page, request }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await routeThirdParties(page);
    await page.route('https://assets.braintreegateway.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: hostedFieldsFrame }));
    const requested: string[] = [];
    page.on('request', (r) => {
      const name = /\/assets\/(hydrate|react|braintree-client|hosted-fields)-[\w-]{8}\.js$/.exec(new URL(r.url()).pathname)?.[1];
      if (name) requested.push(name);
    });
    // The first number frame, and whether React had hydrated the page when it appeared.
    await page.addInitScript(() => {
      const seen = window as unknown as { __firstFrame?: Element; __reactBeforeFrame?: boolean };
      new MutationObserver(() => {
        const frame = document.querySelector('[data-card-slot="number"] iframe');
        if (!frame || seen.__firstFrame) return;
        seen.__firstFrame = frame;
        const root = document.getElementById('root');
        seen.__reactBeforeFrame = Boolean(root && Object.keys(root).some((key) => key.startsWith('__reactContainer')));
      }).observe(document, { subtree: true, childList: true });
    });
    const session = await braintreeSession(request, { payment_method_types: ['card'] });
    await page.goto(session.url);

    await expect(page.getByText('Loading the secure card form…')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByRole('button', { name: 'Pay $18.00' })).toBeEnabled();
    await expect(page.locator('#form-notice')).toHaveText('');
    await expect(page.locator('html')).toHaveAttribute('data-card-frames', 'ready');
    for (const field of ['number', 'expiry', 'cvc', 'postalCode']) await expect(page.locator(`[data-card-slot="${field}"] iframe`)).toHaveCount(1);
    // The frame braintree-web put there before React is the one still there: hydration kept it.
    expect(
      await page.evaluate(() => {
        const seen = window as unknown as { __firstFrame?: Element; __reactBeforeFrame?: boolean };
        return { same: seen.__firstFrame === document.querySelector('[data-card-slot="number"] iframe'), reactFirst: seen.__reactBeforeFrame };
      }),
    ).toEqual({ same: true, reactFirst: false });
    // braintree-web's client and Hosted Fields are asked for before React's part of the page.
    expect(requested.indexOf('braintree-client')).toBeGreaterThanOrEqual(0);
    expect(requested.indexOf('braintree-client')).toBeLessThan(requested.indexOf('hydrate'));
    expect(requested.indexOf('hosted-fields')).toBeLessThan(requested.indexOf('hydrate'));
    // No axe run here: with frames that load, braintree-web adds its own aria-hidden focus-trap
    // inputs (#bt-number-before-…), which axe flags; the page's own markup is checked above and in
    // the other tests.
    expect(problems).toEqual([]);
  });

  test('before React arrives the frames take typing but the server-rendered Pay button does nothing', async ({ page, request }) => {
    await routeThirdParties(page);
    await page.route('https://assets.braintreegateway.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: hostedFieldsFrame }));
    // React's part of the page never arrives: the page stays as the server rendered it.
    await page.route(/\/assets\/hydrate-[\w-]{8}\.js$/, (route) => route.abort('blockedbyclient'));
    const paid: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') paid.push(new URL(r.url()).pathname);
    });
    const session = await braintreeSession(request, { payment_method_types: ['card'] });
    await page.goto(session.url);
    await expect(page.locator('html')).toHaveAttribute('data-card-frames', 'ready', { timeout: 20_000 });
    for (const field of ['number', 'expiry', 'cvc', 'postalCode']) await expect(page.locator(`[data-card-slot="${field}"] iframe`)).toHaveCount(1);
    await page.frameLocator('[data-card-slot="number"] iframe').locator('input').fill('4111 1111 1111 1111');
    await expect(page.getByText('Loading the secure card form…')).toBeHidden();
    const pay = page.getByRole('button', { name: 'Pay $18.00' });
    await expect(pay).toBeDisabled();
    // A click or an Enter that submitted the form would fire `submit` while it is handled, before
    // any navigation: the page counts them.
    await page.evaluate(() => {
      const counted = window as unknown as { submits: number };
      counted.submits = 0;
      window.addEventListener('submit', () => (counted.submits += 1), true);
    });
    await pay.click({ force: true });
    await page.getByLabel('Email').fill('shopper@example.com');
    await page.getByLabel('Email').press('Enter');
    expect(await page.evaluate(() => (window as unknown as { submits: number }).submits)).toBe(0);
    expect(new URL(page.url()).pathname).toBe(`/c/${session.id}`);
    expect(new URL(page.url()).search).toBe('');
    expect(paid.filter((p) => p.startsWith('/api/checkout/'))).toEqual([]);
  });

  test('Hosted Fields frames that fail to load: a clear message, card form disabled, Google Pay still pays', async ({ page, request }) => {
    await routeThirdParties(page, { assets: 'blocked' });
    const session = await braintreeSession(request);
    await page.clock.install();
    await page.goto(session.url);
    await expect(googlePayButton(page)).toBeVisible();
    await giveUpOnCardFrames(page);
    await expect(page.getByRole('alert')).toHaveText('Card payment could not be loaded. Nothing was charged; reload the page or use Google Pay.');
    await expect(page.getByRole('button', { name: 'Pay $18.00' })).toBeDisabled();
    await expect(page.getByText('Loading the secure card form…')).toHaveCount(0);
    await checkScreen(page);

    await googlePayButton(page).click();
    await page.getByRole('dialog', { name: 'Google Pay payment sheet' }).getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`**/c/${session.id}/done`);
  });
});

test.describe('Google Pay with the test processor', () => {
  test("pays through Google's test gateway; the page downloads no braintree-web component", async ({ page, request }) => {
    await routeThirdParties(page);
    const chunks: string[] = [];
    page.on('request', (r) => chunks.push(r.url()));
    const session = await createSession(request);
    await page.goto(session.url);
    await page.getByLabel('Email').fill('shopper@example.com');
    await googlePayButton(page).click();
    const sheet = page.getByRole('dialog', { name: 'Google Pay payment sheet' });
    await expect(sheet).toBeVisible();
    const requested = await page.evaluate(() => (window as any).__payJsDouble.requests[0]);
    await sheet.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`**/c/${session.id}/done`);
    await expect(page.getByText('Paid $18.00 with Visa ending in 1111')).toBeVisible();

    expect(requested.allowedPaymentMethods[0].tokenizationSpecification.parameters).toEqual({
      gateway: 'example',
      gatewayMerchantId: 'exampleGatewayMerchantId',
    });
    expect(chunks.filter((url) => /\/assets\/(client|hosted-fields|google-payment|data-collector|three-d-secure)-/.test(url))).toEqual([]);
  });

  test('when pay.js cannot load there is no wallet button and the card form still pays', async ({ page, request }) => {
    await routeThirdParties(page, { payJs: 'blocked' });
    const session = await createSession(request);
    await page.goto(session.url);
    await fillCheckout(page);
    await expect(page.getByTestId('google-pay').getByRole('button')).toHaveCount(0);
    await payButton(page).click();
    await page.waitForURL(`**/c/${session.id}/done`);
  });
});
