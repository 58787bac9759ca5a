import { expect, test } from '@playwright/test';
import { apiGet, createSession, checkScreen, fillCheckout, payButton, paymentsOf, stubMerchantSite, typeInto } from './support';

test.describe('paying a checkout session', () => {
  test('pays with 4111 1111 1111 1111 and lands on the success URL @desktop', async ({ page, request }) => {
    await stubMerchantSite(page);
    const session = await createSession(request, {
      success_url: 'https://merchant.example/thanks?session={CHECKOUT_SESSION_ID}',
      line_items: [
        { name: 'Kenya AA, 250 g', unit_amount: 1650, quantity: 2 },
        { name: 'Gift wrap', unit_amount: 300, quantity: 1 },
      ],
    });
    await page.goto(session.url);
    await expect(page.getByRole('heading', { level: 1, name: 'E2E Coffee' })).toBeVisible();
    await expect(page.getByText('Kenya AA, 250 g')).toBeVisible();
    await expect(page.getByTestId('total')).toHaveText('$36.00');
    await expect(payButton(page)).toHaveText('Pay $36.00');
    await checkScreen(page);

    await fillCheckout(page);
    await expect(page.locator('.brand-icon')).toHaveAttribute('data-brand', 'visa');
    await expect(page.getByLabel('Card number', { exact: true })).toHaveValue('4111 1111 1111 1111');
    await payButton(page).click();

    await page.waitForURL(`https://merchant.example/thanks?session=${session.id}`);
    const paid = await apiGet(request, `/v1/checkout/sessions/${session.id}`);
    expect(paid.status).toBe('complete');
    const payment = await apiGet(request, `/v1/payments/${paid.payment}`);
    expect(payment).toMatchObject({ status: 'succeeded', amount: 3600, amount_captured: 3600 });
    expect(payment.payment_method).toMatchObject({ brand: 'visa', last4: '1111', exp_month: 12, exp_year: 2034 });
  });

  test('without a success URL the shopper sees the receipt; reopening shows it is paid', async ({ page, request }) => {
    const session = await createSession(request);
    await page.goto(session.url);
    await fillCheckout(page);
    await payButton(page).click();
    await page.waitForURL(`**/c/${session.id}/done`);
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    await expect(page.getByText('Paid $18.00 with Visa ending in 1111')).toBeVisible();
    await checkScreen(page);

    await page.goto(session.url);
    await expect(page.getByRole('heading', { name: 'This order is already paid' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
    await checkScreen(page);
  });

  test('a decline for insufficient funds (amount 2001.00) explains itself and the shopper can try again', async ({ page, request }) => {
    const session = await createSession(request, {
      line_items: [{ name: 'Espresso machine', unit_amount: 200100, quantity: 1 }],
    });
    await page.goto(session.url);
    await fillCheckout(page);
    await payButton(page).click();
    const alert = page.getByRole('alert').filter({ hasText: 'insufficient funds' });
    await expect(alert).toHaveText('Your card has insufficient funds. Try another card.');
    await expect(payButton(page)).toBeEnabled();
    await expect(page.getByLabel('Card number', { exact: true })).toBeEnabled();
    await checkScreen(page);

    // The same session takes another attempt (the amount still decides, as in Braintree's sandbox).
    await payButton(page).click();
    await expect(alert).toBeVisible();
    const attempts = await paymentsOf(request, session.id);
    expect(attempts.map((p) => [p.status, p.decline_code])).toEqual([
      ['failed', 'insufficient_funds'],
      ['failed', 'insufficient_funds'],
    ]);
    expect((await apiGet(request, `/v1/checkout/sessions/${session.id}`)).status).toBe('open');
  });

  test('after a declined card, paying again with another card succeeds in the same session', async ({ page, request }) => {
    const session = await createSession(request);
    await page.goto(session.url);
    await fillCheckout(page, { number: '4000 1111 1111 1115' });
    await payButton(page).click();
    await expect(page.getByRole('alert')).toHaveText('Your card was declined. Try another card or contact your bank.');

    await typeInto(page, 'Card number', '4111 1111 1111 1111');
    await payButton(page).click();
    await page.waitForURL(`**/c/${session.id}/done`);
    const attempts = await paymentsOf(request, session.id);
    expect(attempts.map((p) => p.status).sort()).toEqual(['failed', 'succeeded']);
  });

  test('the processor being down says so, and nothing is charged', async ({ page, request }) => {
    const session = await createSession(request, { line_items: [{ name: 'Roaster', unit_amount: 300000, quantity: 1 }] });
    await page.goto(session.url);
    await fillCheckout(page);
    await payButton(page).click();
    await expect(page.getByRole('alert')).toHaveText(/payment service is not responding/);
    await expect(payButton(page)).toBeEnabled();
    await checkScreen(page);
  });

  test('a real card number is refused in test mode', async ({ page, request }) => {
    const session = await createSession(request);
    await page.goto(session.url);
    await fillCheckout(page, { number: '4242 4242 4242 4242' });
    await payButton(page).click();
    await expect(page.getByRole('alert')).toHaveText('This is a test checkout: real cards are not accepted. Use a test card such as 4111 1111 1111 1111.');
    // One message: the number is a valid card number, so its field gets the focus, not an error of its own.
    const number = page.getByLabel('Card number', { exact: true });
    await expect(number).toBeFocused();
    await expect(number).toHaveAttribute('aria-invalid', 'false');
    await expect(page.locator('#card-number-error')).toBeEmpty();
    await expect(page.getByText('This card number is not valid.', { exact: false })).toHaveCount(0);
    expect(await paymentsOf(request, session.id)).toEqual([]);
  });
});

test.describe('the card form', () => {
  test('shows inline errors on blur, tied to their fields', async ({ page, request }) => {
    const session = await createSession(request);
    await page.goto(session.url);
    const number = page.getByLabel('Card number', { exact: true });
    await number.click();
    await page.getByLabel('Expiry (MM / YY)').click();
    await expect(page.locator('#card-number-error')).toHaveText('Enter your card number.');
    await expect(number).toHaveAttribute('aria-describedby', /card-number-error/);
    await expect(number).toHaveAttribute('aria-invalid', 'false'); // empty is not "invalid", only missing

    await typeInto(page, 'Card number', '4111 1111 1111 1112');
    await page.getByLabel('Security code').click();
    await expect(page.locator('#card-number-error')).toHaveText('This card number is not valid. Check it and try again.');
    await expect(number).toHaveAttribute('aria-invalid', 'true');

    await typeInto(page, 'Expiry (MM / YY)', '01 / 20');
    await page.getByLabel('Postal code').click();
    await expect(page.locator('#card-expiry-error')).toHaveText('Enter a valid expiry date in the future (MM / YY).');

    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Email').blur();
    await expect(page.locator('#email-error')).toHaveText('Enter an email address like name@example.com.');
    await checkScreen(page);

    // Nothing reaches the server while the form is wrong.
    await payButton(page).click();
    await expect(page.locator('#form-notice')).toHaveText('Please check: Email, Card number, Expiry (MM / YY), Security code, and Postal code.');
    expect(await paymentsOf(request, session.id)).toEqual([]);
  });

  test('Pay shows every wrong field its message until it is corrected, focus on the first, the banner naming them @desktop', async ({ page, request }) => {
    const session = await createSession(request);
    await page.goto(session.url);
    await fillCheckout(page, { number: '4111 1111 1111 1112', cvc: '12' });
    await payButton(page).click();
    const banner = page.locator('#form-notice');
    await expect(banner).toHaveAttribute('role', 'alert');
    await expect(banner).toHaveText('Please check: Card number and Security code.');
    const number = page.getByLabel('Card number', { exact: true });
    const cvc = page.getByLabel('Security code');
    // Focus on the first wrong field does not hide its message: it stays until the field is right.
    await expect(number).toBeFocused();
    await expect(page.locator('#card-number-error')).toHaveText('This card number is not valid. Check it and try again.');
    await expect(number).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#card-cvc-error')).toHaveText('The security code is 3 digits.');
    await expect(cvc).toHaveAttribute('aria-invalid', 'true');
    await checkScreen(page);

    // Retyped: still wrong while typing, then right; each message goes with its field, the banner with the last.
    await number.press('Backspace');
    await expect(page.locator('#card-number-error')).toHaveText('This card number is not valid. Check it and try again.');
    await number.press('1');
    await expect(page.locator('#card-number-error')).toHaveText('');
    await expect(number).toHaveAttribute('aria-invalid', 'false');
    await expect(banner).toHaveText('Please check: Security code.');
    await cvc.click();
    await cvc.press('3');
    await expect(page.locator('#card-cvc-error')).toHaveText('');
    await expect(banner).toHaveText('');
    await payButton(page).click();
    await page.waitForURL(`**/c/${session.id}/done`);
  });

  test('detects American Express: four-digit security code and its spacing', async ({ page, request }) => {
    const session = await createSession(request);
    await page.goto(session.url);
    await typeInto(page, 'Card number', '378282246310005');
    await expect(page.getByLabel('Card number', { exact: true })).toHaveValue('3782 822463 10005');
    await expect(page.locator('.brand-icon')).toHaveAttribute('data-brand', 'american-express');
    await expect(page.getByText('4 digits on the front of the card')).toBeVisible();
    await typeInto(page, 'Security code', '12345');
    await expect(page.getByLabel('Security code')).toHaveValue('1234');
  });
});

test.describe('session states', () => {
  test('an expired session says so and offers the way back', async ({ page, request }) => {
    const session = await createSession(request, { cancel_url: 'https://merchant.example/cart' });
    const expired = await request.post(`/v1/checkout/sessions/${session.id}/expire`, {
      headers: { Authorization: `Bearer ${process.env.E2E_SECRET_KEY}` },
    });
    expect(expired.status()).toBe(200);
    await page.goto(session.url);
    await expect(page.getByRole('heading', { name: 'This checkout has expired' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', 'https://merchant.example/cart');
    await expect(payButton(page)).toHaveCount(0);
    await checkScreen(page);
  });

  test('a session that expires while the page is open refuses the payment', async ({ page, request }) => {
    const session = await createSession(request);
    await page.goto(session.url);
    await fillCheckout(page);
    await request.post(`/v1/checkout/sessions/${session.id}/expire`, {
      headers: { Authorization: `Bearer ${process.env.E2E_SECRET_KEY}` },
    });
    await payButton(page).click();
    await expect(page.getByRole('heading', { name: 'This checkout has expired' })).toBeVisible();
    expect(await paymentsOf(request, session.id)).toEqual([]);
  });

  test('an unknown session id shows a clear not-found page', async ({ page }) => {
    await page.goto('/c/cs_doesnotexist000000000000');
    await expect(page.getByRole('heading', { name: 'Checkout not found' })).toBeVisible();
    await checkScreen(page);
  });

  test('while paying, the form is locked and the button says so', async ({ page, request }) => {
    const session = await createSession(request);
    await page.goto(session.url);
    await fillCheckout(page);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/payments', async (route) => {
      await held;
      await route.continue();
    });
    await payButton(page).click();
    const busy = page.getByRole('button', { name: 'Processing…' });
    await expect(busy).toBeDisabled();
    await expect(page.getByLabel('Card number', { exact: true })).toBeDisabled();
    await expect(page.getByLabel('Email')).toBeDisabled();
    await checkScreen(page);
    release();
    await page.waitForURL(`**/c/${session.id}/done`);
  });
});

test.describe('exactly one payment', () => {
  test('double-clicking Pay makes one payment', async ({ page, request }) => {
    const session = await createSession(request);
    await page.goto(session.url);
    await fillCheckout(page);
    await payButton(page).dblclick();
    await page.waitForURL(`**/c/${session.id}/done`);
    const attempts = await paymentsOf(request, session.id);
    expect(attempts.map((p) => p.status)).toEqual(['succeeded']);
  });

  test('two tabs paying the same session at once make one successful payment', async ({ context, request }) => {
    const session = await createSession(request);
    // Two tabs of the test's own browser context, which Playwright closes after the test.
    const [first, second] = [await context.newPage(), await context.newPage()];
    for (const tab of [first, second]) {
      await tab.goto(session.url);
      await fillCheckout(tab);
    }
    await Promise.all([payButton(first).click(), payButton(second).click()]);
    const attempts = await expect
      .poll(async () => (await paymentsOf(request, session.id)).filter((p) => p.status !== 'processing').length)
      .toBeGreaterThan(0)
      .then(() => paymentsOf(request, session.id));
    expect(attempts.filter((p) => p.status === 'succeeded')).toHaveLength(1);
    const session2 = await apiGet(request, `/v1/checkout/sessions/${session.id}`);
    expect(session2.status).toBe('complete');
  });
});
