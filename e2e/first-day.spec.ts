import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { payAsShopper, signUp, unique, goTo } from './dashboard-support';
import { createSession, checkScreen, stubMerchantSite } from './support';

const arabic = JSON.parse(readFileSync(path.join(import.meta.dirname, '../web/checkout/i18n/locales/ar.json'), 'utf8')) as Record<string, string>;

/** A secret key of the signed-in owner's account, made on the Developers page. */
async function secretKeyFromDashboard(page: Page): Promise<string> {
  await goTo(page, 'Developers');
  await page.getByRole('button', { name: 'Create secret key' }).click();
  return (await page.getByTestId('new-key').textContent())!;
}

test.describe("the merchant's first day", () => {
  // Each test signs up (argon2id) and may pay in a second browser.
  test.describe.configure({ timeout: 90_000 });

  test('the refund form refuses more than remains before asking; refunded and partially refunded badges in the list, on the page and by filter', async ({
    page,
    request,
  }) => {
    await signUp(page, `Refunds ${unique()}`);
    const secret = await secretKeyFromDashboard(page);
    const created = await page.request.post('/v1/checkout/sessions', {
      headers: { Authorization: `Bearer ${secret}` },
      data: { currency: 'usd', line_items: [{ name: 'Espresso cups', unit_amount: 2500, quantity: 1 }] },
    });
    await payAsShopper(request, (await created.json()).url, 'rita.refund@buyer.example');

    await goTo(page, 'Payments');
    await page.getByRole('row').filter({ hasText: 'rita.refund@buyer.example' }).getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1 }).locator('.badge')).toHaveText('succeeded');

    // More than remains: refused under the field, in dollars, and nothing is asked or sent.
    await page.getByRole('button', { name: 'Refund…' }).click();
    await expect(page.getByText('Up to $25.00 can be refunded.')).toBeVisible();
    const amount = page.getByLabel('Amount (USD)');
    await amount.fill('30.00');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect(page.getByText('You can refund at most $25.00, what remains on this payment.')).toBeVisible();
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(amount).toBeFocused();
    await expect(page.getByText('This cannot be undone.', { exact: false })).toHaveCount(0);
    await checkScreen(page);

    // A part of it: asked, confirmed, and the badge says partially refunded.
    await amount.fill('10.00');
    await expect(page.getByText('You can refund at most $25.00', { exact: false })).toHaveCount(0);
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect(page.getByText('Refund $10.00 to the customer? This cannot be undone.')).toBeVisible();
    await page.getByRole('button', { name: 'Confirm refund' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Refund of' })).toHaveText('Refund of $10.00 succeeded.');
    await expect(page.getByRole('heading', { level: 1 }).locator('.badge')).toHaveText('partially refunded');

    // The rest (the form offers what remains): refunded.
    await page.getByRole('button', { name: 'Refund…' }).click();
    await expect(amount).toHaveValue('15.00');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm refund' }).click();
    await expect(page.getByRole('heading', { level: 1 }).locator('.badge')).toHaveText('refunded');
    await expect(page.getByRole('button', { name: 'Refund…' })).toHaveCount(0);
    await checkScreen(page);

    await page.getByRole('link', { name: '← Payments' }).click();
    const row = page.getByRole('row').filter({ hasText: 'rita.refund@buyer.example' });
    await expect(row.locator('.badge')).toHaveText('refunded');
    await page.getByLabel('Status').selectOption('succeeded');
    await expect(page.getByText('No payments match.')).toBeVisible();
    await page.getByLabel('Status').selectOption('refunded');
    await expect(row.locator('.badge')).toHaveText('refunded');
    await checkScreen(page);
  });

  test('turning off a payment method asks first and says what shoppers will see; with none left, the checkout page says payment is unavailable', async ({
    page,
    browser,
  }) => {
    await signUp(page, `Switches ${unique()}`);
    const secret = await secretKeyFromDashboard(page);
    await goTo(page, 'Flags and experiments');
    const card = page.getByRole('row').filter({ hasText: 'card_enabled' }).getByRole('checkbox');
    const googlePay = page.getByRole('row').filter({ hasText: 'google_pay_enabled' }).getByRole('checkbox');
    const confirmation = page.getByRole('group', { name: 'Turn off card payments?' });

    // One click does not turn cards off: it asks, and "Keep it on" keeps it on.
    await card.click();
    await expect(confirmation).toContainText('Shoppers will no longer see the card form on your checkout page');
    await expect(confirmation).toContainText(
      'Shoppers can still pay with what remains on, where a session offers it (and, for a wallet, their device has it): Google Pay, Apple Pay, PayPal, Venmo.',
    );
    await checkScreen(page);
    await confirmation.getByRole('button', { name: 'Keep it on' }).click();
    await expect(confirmation).toHaveCount(0);
    await expect(card).toBeChecked();

    await googlePay.click();
    await page.getByRole('button', { name: 'Turn off Google Pay' }).click();
    await expect(page.getByRole('status')).toHaveText('google_pay_enabled is now false.');
    await expect(googlePay).not.toBeChecked();
    for (const [key, method] of [
      ['apple_pay_enabled', 'Apple Pay'],
      ['paypal_enabled', 'PayPal'],
      ['venmo_enabled', 'Venmo'],
    ] as const) {
      await page.getByRole('row').filter({ hasText: key }).getByRole('checkbox').click();
      await page.getByRole('button', { name: `Turn off ${method}` }).click();
      await expect(page.getByRole('status')).toHaveText(`${key} is now false.`);
    }

    // Cards too would leave nothing: the confirmation says so, and so does the page afterwards.
    await card.click();
    await expect(confirmation).toContainText('No payment method would remain');
    await confirmation.getByRole('button', { name: 'Turn off card payments' }).click();
    await expect(card).not.toBeChecked();
    await expect(page.getByTestId('no-payment-method')).toContainText('No payment method is on in this mode');
    await checkScreen(page);

    const created = await page.request.post('/v1/checkout/sessions', {
      headers: { Authorization: `Bearer ${secret}` },
      data: { currency: 'usd', line_items: [{ name: 'Grinder', unit_amount: 9900, quantity: 1 }] },
    });
    const shopper = await browser.newContext();
    const checkout = await shopper.newPage();
    await checkout.goto((await created.json()).url);
    await expect(checkout.getByText('Payment is not available right now. Try again later or contact the shop.')).toBeVisible();
    await expect(checkout.getByLabel('Email')).toHaveCount(0);
    await expect(checkout.getByRole('button', { name: /^Pay / })).toHaveCount(0);
    await checkScreen(checkout);
    await shopper.close();
  });

  test('a new account’s payment page security shows no alarm; its first page served becomes the baseline', async ({ page, browser }) => {
    await signUp(page, `Security ${unique()}`);
    const secret = await secretKeyFromDashboard(page);
    const accountId: string = (await (await page.request.get('/dashboard/api/session')).json()).accounts[0].id;
    await page.goto(`/dashboard/${accountId}/test/settings/page-security`);
    await expect(page.getByTestId('page-status')).toHaveText(/^No baseline yet\./);
    await expect(page.getByText('treat this as an incident', { exact: false })).toHaveCount(0);
    await checkScreen(page);

    const created = await page.request.post('/v1/checkout/sessions', {
      headers: { Authorization: `Bearer ${secret}` },
      data: { currency: 'usd', line_items: [{ name: 'Filter papers', unit_amount: 600, quantity: 1 }] },
    });
    const shopper = await browser.newContext();
    await (await shopper.newPage()).goto((await created.json()).url);
    await shopper.close();
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('page-status')).toHaveText(/matches the baseline approved automatically/, { timeout: 2000 });
    }).toPass({ timeout: 20_000, intervals: [1000] });
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('an open checkout page links back to the shop: first on the keyboard, and in Arabic on the right with its arrow mirrored', async ({ page, request }) => {
    await stubMerchantSite(page);
    const session = await createSession(request, { cancel_url: 'https://merchant.example/cart', payment_method_types: ['card'] });
    await page.goto(session.url);
    const back = page.getByRole('link', { name: 'Back to the shop' });
    await expect(back).toHaveAttribute('href', 'https://merchant.example/cart');
    await checkScreen(page);
    await page.keyboard.press('Tab');
    await expect(back).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('https://merchant.example/cart');

    // No cancel_url, no link.
    await page.goto((await createSession(request, { payment_method_types: ['card'] })).url);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to the shop' })).toHaveCount(0);

    const rtl = await createSession(request, { cancel_url: 'https://merchant.example/cart', locale: 'ar', payment_method_types: ['card'] });
    await page.goto(rtl.url);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const backAr = page.getByRole('link', { name: arabic['state.back']! });
    await expect(backAr).toBeVisible();
    const box = (await backAr.boundingBox())!;
    const width = page.viewportSize()!.width;
    // The start of a right-to-left line is its right edge.
    expect(box.x + box.width).toBeGreaterThan(width / 2);
    expect(box.x).toBeGreaterThan(width - box.x - box.width);
    const arrow = await backAr.locator('.back-arrow').evaluate((el) => getComputedStyle(el).transform);
    expect(arrow).toBe('matrix(-1, 0, 0, 1, 0, 0)');
    await checkScreen(page);
  });
});
