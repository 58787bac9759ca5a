import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { routeThirdParties } from './doubles/braintree-client-api';
import { apiGet, createSession, checkScreen, merchantApi, paymentsOf } from './support';

/** Safari's Apple Pay JS, played by a double (e2e/doubles/apple-pay-session-double.js). */
const applePayDouble = readFileSync(path.join(import.meta.dirname, 'doubles/apple-pay-session-double.js'), 'utf8');

async function withApplePay(page: Page, config: { canMakePayments?: boolean; throwOnCreate?: boolean; email?: string } = {}) {
  await page.addInitScript((c) => {
    (window as unknown as { __applePayDoubleConfig: unknown }).__applePayDoubleConfig = c;
  }, config);
  await page.addInitScript({ content: applePayDouble });
  await routeThirdParties(page); // Google's pay.js, played by its double
}

const everyMethod = { payment_method_types: ['card', 'google_pay', 'apple_pay'] };
const applePayButton = (page: Page) => page.getByRole('button', { name: 'Pay with Apple Pay' });
const sheet = (page: Page) => page.getByRole('dialog', { name: 'Apple Pay payment sheet' });

test.describe('Apple Pay on the checkout page (test processor)', () => {
  test('approve: Apple’s sheet shows the session’s order; the payment is an apple_pay payment, paid', async ({ page, request }) => {
    await withApplePay(page, { email: 'apple.shopper@example.com' });
    const session = await createSession(request, {
      ...everyMethod,
      line_items: [{ name: 'Ethiopia Guji, 250 g', unit_amount: 1800, quantity: 2 }],
    });
    await page.goto(session.url);
    await applePayButton(page).click();
    await expect(sheet(page)).toBeVisible();
    const requested = await page.evaluate(() => (window as any).__applePayDouble);
    expect(requested.requests[0]).toMatchObject({
      currencyCode: 'USD',
      countryCode: 'US',
      total: { label: expect.any(String), amount: '36.00' },
      lineItems: [{ label: 'Ethiopia Guji, 250 g × 2', amount: '36.00' }],
      requiredShippingContactFields: ['email'],
    });
    await sheet(page).getByRole('button', { name: 'Pay with Touch ID' }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();

    const [payment] = await paymentsOf(request, session.id);
    expect(payment!.status).toBe('succeeded');
    const details = await apiGet(request, `/v1/payments/${payment!.id}`);
    expect(details.payment_method.type).toBe('apple_pay');
    expect(details.amount).toBe(3600);
  });

  test('cancel: nothing is charged and the button works again', async ({ page, request }) => {
    await withApplePay(page);
    const session = await createSession(request, everyMethod);
    await page.goto(session.url);
    await applePayButton(page).click();
    await sheet(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(sheet(page)).toHaveCount(0);
    await expect(page.locator('#form-notice')).toHaveText('');
    expect(await paymentsOf(request, session.id)).toEqual([]);

    // Usable again: a second try goes through.
    await expect(applePayButton(page)).toBeEnabled();
    await applePayButton(page).click();
    await sheet(page).getByRole('button', { name: 'Pay with Touch ID' }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  });

  test('error: Apple Pay refusing the request shows a clear message, nothing is charged, the card form still works', async ({ page, request }) => {
    await withApplePay(page, { throwOnCreate: true });
    const session = await createSession(request, everyMethod);
    await page.goto(session.url);
    await applePayButton(page).click();
    await expect(page.getByRole('alert')).toHaveText('Apple Pay did not work this time. Nothing was charged; try again or pay another way.');
    expect(await paymentsOf(request, session.id)).toEqual([]);
    await expect(page.getByLabel('Card number', { exact: true })).toBeVisible();
  });

  test('hidden where canMakePayments() says no, and where there is no ApplePaySession at all', async ({ page, request }) => {
    await withApplePay(page, { canMakePayments: false });
    const session = await createSession(request, everyMethod);
    await page.goto(session.url);
    await expect(page.getByTestId('google-pay').getByRole('button')).toBeVisible();
    await expect.poll(() => page.evaluate(() => (window as any).__applePayDouble.canMakePaymentsCalls)).toBeGreaterThan(0);
    await expect(page.getByTestId('apple-pay')).toHaveCount(0);

    const plain = await page.context().newPage();
    await routeThirdParties(plain);
    await plain.goto(session.url);
    await expect(plain.getByTestId('google-pay').getByRole('button')).toBeVisible();
    await expect(plain.getByTestId('apple-pay')).toHaveCount(0);
  });

  test('an Apple Pay only session: pays where Apple Pay can, and says there is no way to pay where it cannot', async ({ page, request }) => {
    await withApplePay(page, { canMakePayments: false });
    const session = await createSession(request, { payment_method_types: ['apple_pay'] });
    await page.goto(session.url);
    await expect(page.getByText('Payment is not available right now. Try again later or contact the shop.')).toBeVisible();
    await expect(page.getByTestId('apple-pay')).toHaveCount(0);

    const safari = await page.context().newPage();
    await withApplePay(safari);
    await safari.goto(session.url);
    await safari.getByRole('button', { name: 'Pay with Apple Pay' }).click();
    await safari.getByRole('dialog', { name: 'Apple Pay payment sheet' }).getByRole('button', { name: 'Pay with Touch ID' }).click();
    await expect(safari.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  });

  test('hidden when the session does not offer Apple Pay', async ({ page, request }) => {
    await withApplePay(page);
    const session = await createSession(request, { payment_method_types: ['card', 'google_pay'] });
    await page.goto(session.url);
    await expect(page.getByTestId('google-pay').getByRole('button')).toBeVisible();
    await expect(page.getByTestId('apple-pay')).toHaveCount(0);
  });

  test('the button is reached by keyboard and has its name; axe finds nothing with every method shown', async ({ page, request }) => {
    await withApplePay(page);
    const session = await createSession(request, everyMethod);
    await page.goto(session.url);
    await expect(applePayButton(page)).toBeVisible();
    await expect(page.getByTestId('google-pay').getByRole('button')).toBeVisible();
    await expect(page.getByLabel('Card number', { exact: true })).toBeVisible();
    await applePayButton(page).focus();
    await expect(applePayButton(page)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(sheet(page)).toBeVisible();
    await sheet(page).getByRole('button', { name: 'Cancel' }).click();
    await checkScreen(page);
  });

  test('Arabic (right to left): the button speaks Arabic, and axe finds nothing', async ({ page, request }) => {
    await withApplePay(page);
    const session = await createSession(request, { ...everyMethod, locale: 'ar' });
    await page.goto(session.url);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('button', { name: 'الدفع باستخدام Apple Pay' })).toBeVisible();
    await checkScreen(page);
  });
});

/**
 * Apple Pay on a Braintree account: the real braintree-web 3.79.1 apple-pay on the page's Braintree
 * client, our server, the real braintree SDK and the gateway emulator. Safari's ApplePaySession and
 * Braintree's client API (merchant validation, tokenizing) are doubled in the browser.
 */
test.describe('Apple Pay on Braintree (apple-pay, Apple and Braintree’s client API doubled)', () => {
  const braintree = merchantApi(() => process.env.E2E_BRAINTREE_SECRET_KEY!);

  test('approve: Braintree validates the merchant, tokenizes Apple’s token, and the server charges it', async ({ page, request }) => {
    await page.addInitScript(
      (c) => {
        (window as unknown as { __applePayDoubleConfig: unknown }).__applePayDoubleConfig = c;
      },
      { email: 'apple.shopper@example.com' },
    );
    await page.addInitScript({ content: applePayDouble });
    const { walletRequests } = await routeThirdParties(page, { applePay: true });
    const session = await braintree.createSession(request, {
      payment_method_types: ['apple_pay'],
      line_items: [{ name: 'Burundi Kayanza, 250 g', unit_amount: 1950, quantity: 1 }],
    });
    await page.goto(session.url);
    await applePayButton(page).click();
    await expect(sheet(page)).toBeVisible();
    // braintree-web filled what the Braintree account is set up for, and validated the merchant for this page's domain.
    const requested = await page.evaluate(() => (window as any).__applePayDouble.requests[0]);
    expect(requested).toMatchObject({
      countryCode: 'US',
      currencyCode: 'USD',
      supportedNetworks: ['visa', 'masterCard', 'amex', 'discover'],
      total: { amount: '19.50' },
    });
    await sheet(page).getByRole('button', { name: 'Pay with Touch ID' }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();

    expect(walletRequests.map((r) => r.endpoint)).toEqual(['apple_pay_web/sessions', 'payment_methods/apple_payment_tokens']);
    expect(walletRequests[0]!.body.applePayWebSession).toMatchObject({ merchantIdentifier: 'merchant.com.tillpoint.e2e', domainName: 'localhost' });
    const [payment] = await braintree.paymentsOf(request, session.id);
    const details = await braintree.call(request, 'GET', `/v1/payments/${payment!.id}`);
    expect(details).toMatchObject({
      status: 'succeeded',
      amount: 1950,
      customer_email: 'apple.shopper@example.com',
      payment_method: { type: 'apple_pay', brand: 'visa' },
    });
  });
});

test.describe('Apple Pay kill switch', () => {
  // The flag tests' own account: switching Apple Pay off there disturbs no other spec.
  const { call, createSession: newSession } = merchantApi(() => process.env.E2E_FLAGS_SECRET_KEY!);
  test.afterAll(async ({ request }) => {
    await call(request, 'POST', '/v1/flags/apple_pay_enabled', { value: true });
  });

  test('apple_pay_enabled off hides the button; on again brings it back', async ({ page, request }) => {
    await withApplePay(page);
    const session = await newSession(request, everyMethod);
    await page.goto(session.url);
    await expect(applePayButton(page)).toBeVisible();

    await call(request, 'POST', '/v1/flags/apple_pay_enabled', { value: false });
    await page.reload();
    await expect(page.getByTestId('google-pay').getByRole('button')).toBeVisible();
    await expect(page.getByTestId('apple-pay')).toHaveCount(0);

    await call(request, 'POST', '/v1/flags/apple_pay_enabled', { value: true });
    await page.reload();
    await expect(applePayButton(page)).toBeVisible();
  });
});
