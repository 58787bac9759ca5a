import { expect, test } from '@playwright/test';
import { checkScreen, fillCheckout, merchantApi, payButton } from './support';

/** This spec's own account (see global-setup), with `three_d_secure` at `always`: every card payment is verified. */
const { call, createSession: newSession, paymentsOf } = merchantApi(() => process.env.E2E_THREE_D_SECURE_SECRET_KEY!);

test.describe('3-D Secure rehearsed in test mode (the test processor as the Braintree sandbox)', () => {
  test.beforeAll(async ({ request }) => {
    await call(request, 'POST', '/v1/flags/three_d_secure', { value: 'always' });
  });

  test('frictionless (4000 0000 0000 2701): no challenge, paid with liability shifted', async ({ page, request }) => {
    const session = await newSession(request);
    await page.goto(session.url);
    await fillCheckout(page, { number: '4000 0000 0000 2701' });
    await payButton(page).click();
    await page.waitForURL(`**/c/${session.id}/done`);
    expect(await paymentsOf(request, session.id)).toMatchObject([
      { status: 'succeeded', three_d_secure: { status: 'authenticate_successful', liability_shifted: true } },
    ]);
  });

  test('challenge (4000 0000 0000 2503) passed on the page: paid', async ({ page, request }) => {
    const session = await newSession(request);
    await page.goto(session.url);
    await fillCheckout(page, { number: '4000 0000 0000 2503' });
    await payButton(page).click();
    const challenge = page.getByRole('dialog', { name: 'Test 3-D Secure check: no bank is asked' });
    await expect(challenge).toBeVisible();
    await expect(challenge.getByRole('button', { name: 'Pass the check' })).toBeFocused();
    // Drawn as a considered window: no heavy frame, room inside, the answers apart.
    await expect(challenge).toHaveCSS('border-top-width', '0px');
    await expect(challenge.locator('.test-dialog-actions')).toHaveCSS('row-gap', '12px');
    await checkScreen(page);
    await challenge.getByRole('button', { name: 'Pass the check' }).click();
    await page.waitForURL(`**/c/${session.id}/done`);
    expect(await paymentsOf(request, session.id)).toMatchObject([
      { status: 'succeeded', three_d_secure: { status: 'authenticate_successful', liability_shifted: true } },
    ]);
  });

  test('challenge failed on the page: the page says so and nothing is charged; closed, it says canceled', async ({ page, request }) => {
    const session = await newSession(request);
    await page.goto(session.url);
    await fillCheckout(page, { number: '4000 0000 0000 2503' });
    await payButton(page).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Fail the check' }).click();
    await expect(page.getByRole('alert')).toHaveText('Your bank could not confirm it is you. Nothing was charged; try again or use another card.');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(payButton(page)).toBeEnabled();

    await payButton(page).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('alert')).toHaveText('The bank check was canceled. Nothing was charged; press Pay to try again.');
    expect(await paymentsOf(request, session.id)).toEqual([]);
  });

  test('failed authentication (4000 0000 0000 2925): no challenge, the page says the bank could not confirm it; nothing charged', async ({ page, request }) => {
    const session = await newSession(request);
    await page.goto(session.url);
    await fillCheckout(page, { number: '4000 0000 0000 2925' });
    await payButton(page).click();
    await expect(page.getByRole('alert')).toHaveText('Your bank could not confirm it is you. Nothing was charged; try again or use another card.');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await paymentsOf(request, session.id)).toEqual([]);
  });

  test('unavailable (4000 0000 0000 2313): the sale requiring 3-D Secure is declined authentication_failed', async ({ page, request }) => {
    const session = await newSession(request);
    await page.goto(session.url);
    await fillCheckout(page, { number: '4000 0000 0000 2313' });
    await payButton(page).click();
    await expect(page.getByRole('alert')).toHaveText('Your bank could not confirm it is you. Try again or use another card.');
    expect(await paymentsOf(request, session.id)).toMatchObject([
      { status: 'failed', decline_code: 'authentication_failed', three_d_secure: { status: 'authenticate_unable_to_authenticate', liability_shifted: false } },
    ]);
  });

  test('the test challenge in a right-to-left locale (Arabic): translated, right to left, axe clean', async ({ page, request }) => {
    const session = await newSession(request, { locale: 'ar' });
    await page.goto(session.url);
    await page.locator('#email').fill('shopper@example.com');
    for (const [id, text] of [
      ['#card-number', '4000000000002503'],
      ['#card-expiry', '1234'],
      ['#card-cvc', '123'],
      ['#card-postalCode', '94107'],
    ]) {
      await page.locator(id!).click();
      await page.locator(id!).pressSequentially(text!);
    }
    await page.locator('button.pay-button').click();
    const challenge = page.getByRole('dialog', { name: 'فحص 3-D Secure تجريبي: لا يُسأل أي بنك' });
    await expect(challenge).toBeVisible();
    await expect(challenge).toHaveAttribute('dir', 'rtl');
    await checkScreen(page);
    await challenge.getByRole('button', { name: 'اجتياز الفحص' }).click();
    await page.waitForURL(`**/c/${session.id}/done`);
  });
});
