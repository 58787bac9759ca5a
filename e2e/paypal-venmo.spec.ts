import { expect, test, type Page } from '@playwright/test';
import { routeThirdParties } from './doubles/braintree-client-api';
import { apiGet, createSession, checkScreen, merchantApi, payWithTestCard, paymentsOf } from './support';

/**
 * PayPal and Venmo with the test processor: each button opens a test window standing in for the
 * wallet's (no account anywhere), whose approval pays with Braintree's test nonce for that wallet.
 */
const paypalButton = (page: Page) => page.getByRole('button', { name: 'Pay with PayPal' });
const venmoButton = (page: Page) => page.getByRole('button', { name: 'Pay with Venmo' });
const testWindow = (page: Page, wallet: 'PayPal' | 'Venmo') => page.getByRole('dialog', { name: `${wallet} test window: no real account is used` });
const everyMethod = { payment_method_types: ['card', 'google_pay', 'apple_pay', 'paypal', 'venmo'] };

test.describe('PayPal and Venmo on the checkout page (test processor)', () => {
  test('PayPal approve: a paypal payment, paid, with the payer email PayPal gives; no console error, a tidy test window @desktop', async ({
    page,
    request,
  }) => {
    const messages: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') messages.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
    const session = await createSession(request, {
      payment_method_types: ['card', 'paypal'],
      line_items: [{ name: 'Kenya AA, 250 g', unit_amount: 2100, quantity: 1 }],
    });
    await page.goto(session.url);
    await paypalButton(page).click();
    const dialog = testWindow(page, 'PayPal');
    await expect(dialog).toBeVisible();
    // A considered window: no heavy frame, room inside, answers apart from one another, the first one standing out.
    await expect(dialog).toHaveCSS('border-top-width', '0px');
    await expect(dialog).toHaveCSS('padding-top', '24px');
    const answers = await dialog
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((button) => ({ top: button.getBoundingClientRect().top, bottom: button.getBoundingClientRect().bottom })));
    expect(answers).toHaveLength(3);
    for (const [i, box] of answers.slice(1).entries()) expect(box.top - answers[i]!.bottom).toBeGreaterThanOrEqual(8);
    await expect(dialog.getByRole('button', { name: 'Approve the payment' })).toHaveClass('pay-button');
    await checkScreen(page);
    await dialog.getByRole('button', { name: 'Approve the payment' }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    await expect(page.getByText('Paid $21.00 with PayPal')).toBeVisible();
    await checkScreen(page);
    // React hydrated the wallet's server markup as it was (no error #419, no boundary rendered again).
    expect(messages).toEqual([]);

    const [payment] = await paymentsOf(request, session.id);
    expect(payment!.status).toBe('succeeded');
    const details = await apiGet(request, `/v1/payments/${payment!.id}`);
    expect(details.amount).toBe(2100);
    expect(details.payment_method).toMatchObject({ type: 'paypal', payer_email: 'payer@example.com', brand: null, last4: null });
  });

  test('PayPal cancel: nothing is charged and the button works again', async ({ page, request }) => {
    const session = await createSession(request, { payment_method_types: ['card', 'paypal'] });
    await page.goto(session.url);
    await paypalButton(page).click();
    await testWindow(page, 'PayPal').getByRole('button', { name: 'Cancel' }).click();
    await expect(testWindow(page, 'PayPal')).toHaveCount(0);
    await expect(page.locator('#form-notice')).toHaveText('');
    expect(await paymentsOf(request, session.id)).toEqual([]);

    // Escape closes the window the same way.
    await paypalButton(page).click();
    await expect(testWindow(page, 'PayPal')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(testWindow(page, 'PayPal')).toHaveCount(0);
    expect(await paymentsOf(request, session.id)).toEqual([]);

    await paypalButton(page).click();
    await testWindow(page, 'PayPal').getByRole('button', { name: 'Approve the payment' }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  });

  test('PayPal error: a clear message, nothing charged, the card form still pays', async ({ page, request }) => {
    const session = await createSession(request, { payment_method_types: ['card', 'paypal'] });
    await page.goto(session.url);
    await paypalButton(page).click();
    await testWindow(page, 'PayPal').getByRole('button', { name: 'Make it fail' }).click();
    await expect(page.getByRole('alert')).toHaveText('PayPal did not work this time. Nothing was charged; try again or pay another way.');
    expect(await paymentsOf(request, session.id)).toEqual([]);
    const payment = await payWithTestCard(page, request, session.id);
    expect(payment.payment_method.type).toBe('card');
  });

  test('Venmo: the email comes first (Venmo tells none); approve pays, with the Venmo username', async ({ page, request }) => {
    const session = await createSession(request, { payment_method_types: ['venmo'] });
    await page.goto(session.url);
    await venmoButton(page).click();
    // No window without an email for the receipt: the email field is pointed at.
    await expect(testWindow(page, 'Venmo')).toHaveCount(0);
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.getByLabel('Email').fill('venmo.shopper@example.com');
    await venmoButton(page).click();
    await testWindow(page, 'Venmo').getByRole('button', { name: 'Approve the payment' }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    await expect(page.getByText(/^Paid \$\d+\.\d\d with Venmo$/)).toBeVisible();

    const [payment] = await paymentsOf(request, session.id);
    const details = await apiGet(request, `/v1/payments/${payment!.id}`);
    expect(details.payment_method).toMatchObject({ type: 'venmo', username: 'venmojoe', payer_email: null });
    expect(details.customer_email).toBe('venmo.shopper@example.com');
  });

  test('Venmo cancel charges nothing; Venmo error says so and charges nothing', async ({ page, request }) => {
    const session = await createSession(request, { payment_method_types: ['card', 'venmo'], customer_email: 'shopper@example.com' });
    await page.goto(session.url);
    await venmoButton(page).click();
    await testWindow(page, 'Venmo').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.locator('#form-notice')).toHaveText('');
    await venmoButton(page).click();
    await testWindow(page, 'Venmo').getByRole('button', { name: 'Make it fail' }).click();
    await expect(page.getByRole('alert')).toHaveText('Venmo did not work this time. Nothing was charged; try again or pay another way.');
    expect(await paymentsOf(request, session.id)).toEqual([]);
    await expect(venmoButton(page)).toBeEnabled();
  });

  test('hidden when the session does not offer them', async ({ page, request }) => {
    const session = await createSession(request, { payment_method_types: ['card'] });
    await page.goto(session.url);
    await expect(page.getByLabel('Card number', { exact: true })).toBeVisible();
    await expect(page.getByTestId('paypal')).toHaveCount(0);
    await expect(page.getByTestId('venmo')).toHaveCount(0);
  });

  test('every method shown: the buttons are reached by keyboard, and axe finds nothing, with the test window open too', async ({ page, request }) => {
    await routeThirdParties(page);
    const session = await createSession(request, everyMethod);
    await page.goto(session.url);
    await expect(paypalButton(page)).toBeVisible();
    await expect(venmoButton(page)).toBeVisible();
    await expect(page.getByTestId('google-pay').getByRole('button')).toBeVisible();
    await expect(page.getByLabel('Card number', { exact: true })).toBeVisible();
    await checkScreen(page);
    await paypalButton(page).focus();
    await page.keyboard.press('Enter');
    await expect(testWindow(page, 'PayPal')).toBeVisible();
    await checkScreen(page);
    await page.keyboard.press('Escape');
  });

  test('Arabic (right to left): the buttons and the test window speak Arabic, and axe finds nothing', async ({ page, request }) => {
    await routeThirdParties(page);
    const session = await createSession(request, { ...everyMethod, locale: 'ar' });
    await page.goto(session.url);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('button', { name: 'الدفع باستخدام PayPal' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'الدفع باستخدام Venmo' })).toBeVisible();
    await checkScreen(page);
    await page.getByRole('button', { name: 'الدفع باستخدام PayPal' }).click();
    const window = page.getByRole('dialog', { name: 'نافذة اختبار PayPal: لا يُستخدم أي حساب حقيقي' });
    await expect(window).toHaveAttribute('dir', 'rtl');
    await checkScreen(page);
    await window.getByRole('button', { name: 'إلغاء' }).click();
  });
});

test.describe('PayPal and Venmo kill switches', () => {
  // The flag tests' own account: switching them off there disturbs no other spec.
  const { call, createSession: newSession } = merchantApi(() => process.env.E2E_FLAGS_SECRET_KEY!);
  test.afterAll(async ({ request }) => {
    await call(request, 'POST', '/v1/flags/paypal_enabled', { value: true });
    await call(request, 'POST', '/v1/flags/venmo_enabled', { value: true });
  });

  test('paypal_enabled and venmo_enabled off hide each button; on again bring them back', async ({ page, request }) => {
    const session = await newSession(request, { payment_method_types: ['card', 'paypal', 'venmo'] });
    await page.goto(session.url);
    await expect(paypalButton(page)).toBeVisible();
    await expect(venmoButton(page)).toBeVisible();

    await call(request, 'POST', '/v1/flags/paypal_enabled', { value: false });
    await page.reload();
    await expect(venmoButton(page)).toBeVisible();
    await expect(page.getByTestId('paypal')).toHaveCount(0);

    await call(request, 'POST', '/v1/flags/venmo_enabled', { value: false });
    await page.reload();
    await expect(page.getByLabel('Card number', { exact: true })).toBeVisible();
    await expect(page.getByTestId('venmo')).toHaveCount(0);
    await expect(page.getByTestId('paypal')).toHaveCount(0);

    await call(request, 'POST', '/v1/flags/paypal_enabled', { value: true });
    await call(request, 'POST', '/v1/flags/venmo_enabled', { value: true });
    await page.reload();
    await expect(paypalButton(page)).toBeVisible();
    await expect(venmoButton(page)).toBeVisible();
  });
});

/**
 * PayPal on a Braintree account: the real braintree-web 3.79.1 paypal-checkout, our server, the real
 * braintree SDK and the gateway emulator. Braintree's client API and PayPal's JS SDK (its button and
 * window) are doubled in the browser (e2e/doubles).
 */
test.describe('PayPal on Braintree (paypal-checkout, PayPal’s JS SDK doubled)', () => {
  const braintree = merchantApi(() => process.env.E2E_BRAINTREE_SECRET_KEY!);
  const paypalWindow = (page: Page) => page.getByRole('dialog', { name: 'PayPal window' });
  const sdkButton = (page: Page) => page.getByTestId('paypal').getByRole('button', { name: 'PayPal' });

  test('approve: PayPal’s button → PayPal’s window → tokenizePayment → server → SDK → gateway → paid', async ({ page, request }) => {
    const { walletRequests } = await routeThirdParties(page, { paypal: true });
    const session = await braintree.createSession(request, {
      payment_method_types: ['paypal'],
      line_items: [{ name: 'Rwanda Huye, 250 g', unit_amount: 2450, quantity: 1 }],
    });
    await page.goto(session.url);
    await expect(sdkButton(page)).toBeVisible();
    await checkScreen(page);
    // loadPayPalSDK asked PayPal for the account's client id, the session's currency and the capture intent.
    expect(await page.evaluate(() => (window as any).__paypalDouble.query)).toMatchObject({
      'client-id': 'e2e-paypal-client-id',
      currency: 'USD',
      intent: 'capture',
      components: 'buttons',
    });

    const paying = page.waitForRequest((r) => r.url().endsWith(`/api/checkout/sessions/${session.id}/payments`));
    await sdkButton(page).click();
    await expect(paypalWindow(page)).toBeVisible();
    // braintree-web sends PayPal's capture intent to Braintree as a sale.
    expect(walletRequests[0]).toMatchObject({
      endpoint: 'paypal_hermes/create_payment_resource',
      body: { amount: '24.50', currencyIsoCode: 'USD', intent: 'sale' },
    });
    await paypalWindow(page).getByRole('button', { name: 'Pay Now' }).click();

    const body = (await paying).postDataJSON();
    expect(body).toMatchObject({ payment_method_type: 'paypal', nonce: 'fake-paypal-one-time-nonce', email: 'payer@example.com' });
    expect(walletRequests[1]).toMatchObject({
      endpoint: 'payment_methods/paypal_accounts',
      body: { paypalAccount: { payerId: 'E2EPAYER', intent: 'capture' } },
    });
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();

    const [payment] = await braintree.paymentsOf(request, session.id);
    const details = await braintree.call(request, 'GET', `/v1/payments/${payment!.id}`);
    expect(details).toMatchObject({ status: 'succeeded', amount: 2450, payment_method: { type: 'paypal', payer_email: 'payer@example.com' } });
  });

  test('cancel in PayPal’s window charges nothing; an error in it says so and charges nothing', async ({ page, request }) => {
    await routeThirdParties(page, { paypal: true });
    const session = await braintree.createSession(request, { payment_method_types: ['paypal'] });
    await page.goto(session.url);
    await sdkButton(page).click();
    await paypalWindow(page).getByRole('button', { name: 'Cancel and return' }).click();
    await expect(page.locator('#form-notice')).toHaveText('');
    await sdkButton(page).click();
    await paypalWindow(page).getByRole('button', { name: 'Something went wrong' }).click();
    await expect(page.getByRole('alert')).toHaveText('PayPal did not work this time. Nothing was charged; try again or pay another way.');
    expect(await braintree.paymentsOf(request, session.id)).toEqual([]);
  });

  test('PayPal not linked to the Braintree account: no PayPal button, and the page says there is no way to pay', async ({ page, request }) => {
    await routeThirdParties(page, { paypal: false });
    const session = await braintree.createSession(request, { payment_method_types: ['paypal'] });
    await page.goto(session.url);
    await expect(page.getByText('Payment is not available right now. Try again later or contact the shop.')).toBeVisible();
    await expect(page.getByTestId('paypal')).toHaveCount(0);
  });
});

/**
 * Venmo on a Braintree account, on a phone (the mobile project is a Pixel 5's Chrome): the real
 * braintree-web 3.79.1 venmo with a single-use payment context, the Venmo app switch and back.
 * Braintree's GraphQL API (payment contexts) and the Venmo app are doubled (e2e/doubles).
 */
test.describe('Venmo on Braintree (venmo, the Venmo app doubled)', () => {
  const braintree = merchantApi(() => process.env.E2E_BRAINTREE_SECRET_KEY!);

  test('on a phone: Venmo’s app approves → braintree-web reads the payment context → server → SDK → gateway → paid', async ({ page, request, isMobile }) => {
    test.skip(!isMobile, 'braintree-web 3.79.1 offers Venmo on phone browsers');
    const { venmoContexts } = await routeThirdParties(page, { venmo: true });
    const session = await braintree.createSession(request, { payment_method_types: ['card', 'venmo'], customer_email: 'venmo.shopper@example.com' });
    await page.goto(session.url);
    await expect(venmoButton(page)).toBeVisible();
    // braintree-web asks for the payment context as it sets the button up: on a loaded machine the
    // request may land just after the button shows.
    await expect.poll(() => [...venmoContexts.values()][0]?.input).toMatchObject({ paymentMethodUsage: 'SINGLE_USE', customerClient: 'MOBILE_WEB' });

    const venmo = page.waitForEvent('popup');
    await venmoButton(page).click();
    const app = await venmo;
    await app.getByRole('link', { name: 'Approve payment' }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();

    const [payment] = await braintree.paymentsOf(request, session.id);
    const details = await braintree.call(request, 'GET', `/v1/payments/${payment!.id}`);
    expect(details).toMatchObject({
      status: 'succeeded',
      customer_email: 'venmo.shopper@example.com',
      payment_method: { type: 'venmo', username: 'venmojoe' },
    });
  });

  test('on a phone: canceling in Venmo’s app charges nothing and the button works again', async ({ page, request, isMobile }) => {
    test.skip(!isMobile, 'braintree-web 3.79.1 offers Venmo on phone browsers');
    await routeThirdParties(page, { venmo: true });
    const session = await braintree.createSession(request, { payment_method_types: ['card', 'venmo'], customer_email: 'venmo.shopper@example.com' });
    await page.goto(session.url);
    const venmo = page.waitForEvent('popup');
    await venmoButton(page).click();
    const app = await venmo;
    // While Venmo's app is open the button is busy: a tap before braintree-web reports the cancel
    // would do nothing. It comes back once the cancel is reported.
    await expect(venmoButton(page)).toBeDisabled();
    await app.getByRole('link', { name: 'Cancel' }).click();
    await expect(venmoButton(page)).toBeEnabled();
    await expect(page.locator('#form-notice')).toHaveText('');
    expect(await braintree.paymentsOf(request, session.id)).toEqual([]);

    const again = page.waitForEvent('popup');
    await venmoButton(page).click();
    await (await again).getByRole('link', { name: 'Approve payment' }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  });

  test('a desktop browser does not see the Venmo button; the card form still shows', async ({ browser, request }) => {
    const desktop = await browser.newContext({
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    });
    const page = await desktop.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => warnings.push(message.text()));
    await routeThirdParties(page, { venmo: true });
    const session = await braintree.createSession(request, { payment_method_types: ['google_pay', 'venmo'] });
    await page.goto(session.url);
    await expect(page.getByTestId('google-pay').getByRole('button')).toBeVisible();
    await expect(page.getByTestId('venmo')).toHaveCount(0);
    // Not a failed set-up: braintree-web said this browser cannot switch to the Venmo app.
    expect(warnings.filter((text) => text.includes('venmo failed'))).toEqual([]);
    await desktop.close();
  });
});
