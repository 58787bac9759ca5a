import { expect, test } from '@playwright/test';
import { PASSWORD, payAsShopper, signUp, signUpThroughThePage, unique, goTo } from './dashboard-support';
import { checkScreen } from './support';

test.describe('merchant dashboard', () => {
  // Each test signs up (argon2id) and pays in a second browser; the phone profile needs the room.
  test.describe.configure({ timeout: 90_000 });

  test('sign up, create a key, a shopper pays, the payment shows in the list and its timeline @desktop', async ({ page, request }) => {
    await signUpThroughThePage(page, `Roastery ${unique()}`);
    await expect(page.getByRole('note')).toContainText('Test mode');
    await expect(page.getByRole('group', { name: 'Mode' })).toBeVisible();
    await checkScreen(page);

    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    expect(secret).toMatch(/^sk_test_/);
    await checkScreen(page);

    const created = await request.post('/v1/checkout/sessions', {
      headers: { Authorization: `Bearer ${secret}` },
      data: { currency: 'usd', line_items: [{ name: 'Kenya AA, 250 g', unit_amount: 1650, quantity: 2 }] },
    });
    expect(created.status()).toBe(200);
    const session = await created.json();
    await payAsShopper(request, session.url, 'sam.shopper@buyer.example');

    await goTo(page, 'Payments');
    const row = page.getByRole('row').filter({ hasText: 'sam.shopper@buyer.example' });
    await expect(row).toContainText('$33.00');
    await expect(row).toContainText('succeeded');
    await expect(row).toContainText('visa •••• 1111');
    await checkScreen(page);

    await page.getByLabel('Card last 4').fill('0000');
    await expect(page.getByText('No payments match.')).toBeVisible();
    await page.getByLabel('Card last 4').fill('1111');
    await expect(row).toBeVisible();

    await row.getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('$33.00');
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await expect(timeline).toContainText('Payment started');
    await expect(timeline).toContainText('Payment succeeded');
    await expect(page.getByText('1000 Approved')).toBeVisible();
    await checkScreen(page);

    await goTo(page, 'Checkout sessions');
    await expect(page.getByRole('row').filter({ hasText: '$33.00' })).toContainText('complete');
    await checkScreen(page);
    await page.getByRole('row').filter({ hasText: '$33.00' }).getByRole('link').click();
    await expect(page.getByText('Completed')).toBeVisible();
    await checkScreen(page);

    await goTo(page, 'Overview');
    await expect(page.getByTestId('success-rate')).toHaveText('100%');
    await expect(page.getByRole('group', { name: /^Net volume \(USD\)/ })).toBeVisible();
    await expect(page.getByTestId('figures-USD').getByRole('row', { name: /Net volume/ })).toContainText('$33.00');
    await checkScreen(page);

    await page.getByRole('link', { name: 'Live mode' }).click();
    await expect(page.getByRole('note')).toHaveCount(0);
    await goTo(page, 'Payments');
    await expect(page.getByText('No payments match.')).toBeVisible();

    await goTo(page, 'Audit log');
    await expect(page.getByRole('row').filter({ hasText: 'checkout_session.create' })).toContainText('API key sk_test_…');
    await checkScreen(page);
  });

  test('branding changes show in the preview and then on the checkout page @desktop', async ({ page, browser }) => {
    await signUp(page, `Branding ${unique()}`);
    await goTo(page, 'Settings');
    await page.getByLabel('Name shown to shoppers').fill('Blue Door Coffee');
    await page.getByLabel('Accent colour', { exact: true }).fill('#0b6e4f');
    await expect(page.getByRole('figure', { name: 'Checkout page preview' })).toContainText('Blue Door Coffee');
    await expect(page.getByTestId('preview-pay')).toHaveCSS('background-color', 'rgb(11, 110, 79)');
    await checkScreen(page);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved. Your checkout page now shows these.');

    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    const created = await page.request.post('/v1/checkout/sessions', {
      headers: { Authorization: `Bearer ${secret}` },
      data: { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 1200, quantity: 1 }] },
    });
    const session = await created.json();
    const shopper = await browser.newContext();
    const checkout = await shopper.newPage();
    await checkout.goto(session.url);
    await expect(checkout.getByRole('heading', { level: 1, name: 'Blue Door Coffee' })).toBeVisible();
    await expect(checkout.locator('.page')).toHaveAttribute('style', /--accent:\s*#0b6e4f/);
    await shopper.close();
  });

  test('a viewer joins by invite link, sees customer emails masked, and no team or key controls', async ({ page, browser, request }) => {
    await signUp(page, `Team ${unique()}`);
    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    const created = await page.request.post('/v1/checkout/sessions', {
      headers: { Authorization: `Bearer ${secret}` },
      data: { currency: 'usd', line_items: [{ name: 'Mug', unit_amount: 900, quantity: 1 }] },
    });
    await payAsShopper(request, (await created.json()).url, 'jane.doe@buyer.example');

    await goTo(page, 'Team');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const link = (await page.getByTestId('invite-link').textContent())!;
    await checkScreen(page);

    const viewerContext = await browser.newContext();
    const viewer = await viewerContext.newPage();
    await viewer.goto(link);
    await expect(viewer.getByText('You are invited as viewer.')).toBeVisible();
    await checkScreen(viewer);
    await viewer.getByLabel('Your name').fill('Vic Viewer');
    await viewer.getByLabel('Email').fill(`viewer-${unique()}@shop.example`);
    await viewer.getByLabel('Password').fill(PASSWORD);
    await viewer.getByRole('button', { name: 'Create user and join' }).click();
    await expect(viewer.getByRole('heading', { name: 'Overview' })).toBeVisible();

    await goTo(viewer, 'Payments');
    await expect(viewer.getByRole('row').filter({ hasText: '$9.00' })).toContainText('j•••@buyer.example');
    await expect(viewer.getByText('jane.doe@buyer.example')).toHaveCount(0);
    await expect(viewer.getByLabel('Customer email')).toHaveCount(0);
    await expect(viewer.getByRole('link', { name: 'Developers' })).toHaveCount(0);
    await expect(viewer.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
    await goTo(viewer, 'Team');
    await expect(viewer.getByRole('button', { name: 'Create invite link' })).toHaveCount(0);
    await checkScreen(viewer);

    // The page hiding the button is a courtesy: the server refuses the call itself.
    const csrf = await viewer.evaluate(async () => (await (await fetch('/dashboard/api/session')).json()).csrf_token);
    const accountId = new URL(viewer.url()).pathname.split('/')[2];
    const refused = await viewer.evaluate(
      async ([id, token]) => {
        const res = await fetch(`/dashboard/api/accounts/${id}/invites`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': token! },
          body: JSON.stringify({ role: 'admin' }),
        });
        return { status: res.status, code: (await res.json()).error.code };
      },
      [accountId, csrf],
    );
    expect(refused).toEqual({ status: 403, code: 'insufficient_role' });
    await viewerContext.close();
  });

  test('sign in and sign out; the sign-in page passes axe', async ({ page }) => {
    const email = await signUp(page, `Session ${unique()}`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await checkScreen(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('The email or password is not right');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  });
});
