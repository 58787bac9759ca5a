import { expect, test } from '@playwright/test';
import { routeThirdParties } from './doubles/braintree-client-api';
import { createSession, checkScreen, fillCheckout, typeInto } from './support';

/** The server-rendered checkout page (src/http/checkout-page): what paints before and without JavaScript. */
test.describe('server-rendered checkout page', () => {
  test('hydrates without a React warning and asks for neither the session nor the flags', async ({ page, request }) => {
    const console: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') console.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => console.push(`pageerror: ${error.message}`));
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await routeThirdParties(page);
    const session = await createSession(request);
    await page.goto(session.url);
    await expect(page.getByLabel('Card number', { exact: true })).toBeEditable();
    await expect(page.getByRole('button', { name: 'Pay $18.00' })).toBeVisible();
    await checkScreen(page);
    await fillCheckout(page);
    await page.getByRole('button', { name: 'Pay $18.00' }).click();
    await page.waitForURL(`**/c/${session.id}/done`);
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();

    expect(console).toEqual([]);
    expect(asked.filter((p) => p.startsWith('/ofrep/') || p === `/api/checkout/sessions/${session.id}`)).toEqual([]);
  });

  test('an email typed before the page hydrates is kept and paid with', async ({ page, request }) => {
    await routeThirdParties(page);
    // React's part of the page arrives late, as on a slow line (or on a Braintree page, after the card frames).
    await page.route(/\/assets\/hydrate-[\w-]{8}\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.fallback();
    });
    const session = await createSession(request);
    await page.goto(session.url);
    await page.getByLabel('Email').fill('early@example.com');
    const paying = page.waitForRequest((r) => r.url().endsWith(`/api/checkout/sessions/${session.id}/payments`));
    await typeInto(page, 'Card number', '4111 1111 1111 1111');
    await typeInto(page, 'Expiry (MM / YY)', '12 / 34');
    await typeInto(page, 'Security code', '123');
    await typeInto(page, 'Postal code', '94107');
    await expect(page.getByLabel('Email')).toHaveValue('early@example.com');
    await page.getByRole('button', { name: 'Pay $18.00' }).click();
    expect((await paying).postDataJSON()).toMatchObject({ email: 'early@example.com' });
    await page.waitForURL(`**/c/${session.id}/done`);
  });

  test.describe('with JavaScript turned off', () => {
    test.use({ javaScriptEnabled: false });

    test('shows the order and its total, and says why it cannot take the payment', async ({ page, request }) => {
      const session = await createSession(request, {
        line_items: [
          { name: 'Ethiopia Guji, 250 g', unit_amount: 1800, quantity: 2 },
          { name: 'Paper filters', unit_amount: 450, quantity: 1 },
        ],
      });
      await page.goto(session.url);
      await expect(page.getByRole('heading', { name: 'E2E Coffee' })).toBeVisible();
      await expect(page.getByText('Ethiopia Guji, 250 g')).toBeVisible();
      await expect(page.getByText('Paper filters')).toBeVisible();
      await expect(page.getByTestId('total')).toHaveText('$40.50');
      // Playwright's text locators skip <noscript>; a CSS locator reaches the block the browser shows.
      const notice = page.locator('noscript p');
      await expect(notice).toBeVisible();
      await expect(notice).toHaveText('Your browser has JavaScript turned off. Turn it on to pay; your order is shown above.');
      // No form that could not work.
      await expect(page.getByRole('button', { name: /Pay/ })).toBeHidden();
      await expect(page.getByLabel('Email')).toBeHidden();
    });
  });
});
