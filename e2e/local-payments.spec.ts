import { expect, test, type Page } from '@playwright/test';
import { createSession, checkScreen, confirmedLater, paymentsOf } from './support';

/**
 * A local payment method with the test processor: iDEAL's button opens a test window standing in
 * for the bank's; once approved the payment waits `processing` and the receipt page says it is
 * confirming it, until the test processor's bank confirms it some seconds later (what Braintree
 * notifies as LOCAL_PAYMENT_COMPLETED); then the page updates itself.
 */
const idealButton = (page: Page) => page.getByRole('button', { name: 'Pay with iDEAL' });
const testWindow = (page: Page) => page.getByRole('dialog', { name: 'iDEAL test window: no real account is used' });
const euroSession = (request: Parameters<typeof createSession>[0]) =>
  createSession(request, {
    currency: 'eur',
    payment_method_types: ['card', 'ideal'],
    line_items: [{ name: 'Stroopwafels, 8', unit_amount: 1250, quantity: 2 }],
  });

test.describe('iDEAL on the checkout page (test processor)', () => {
  test('approved in the test window: confirming while processing, then the receipt, by itself @desktop', async ({ page, request }) => {
    const session = await euroSession(request);
    await page.goto(session.url);
    await expect(idealButton(page)).toBeVisible();
    await checkScreen(page);

    await page.getByLabel('Email').fill('shopper@example.com');
    await idealButton(page).click();
    const dialog = testWindow(page);
    await expect(dialog).toBeVisible();
    await checkScreen(page);
    await dialog.getByRole('button', { name: 'Approve the payment' }).click();

    // The bank has not confirmed yet: the page waits, then shows the receipt once it does (6 s here:
    // TEST_PROCESSOR_LOCAL_PAYMENT_DELAY_SECONDS).
    const { payment, events } = await confirmedLater(page, request, session.id, 'Paid €25.00 with iDEAL');
    expect(payment).toMatchObject({ status: 'succeeded', amount: 2500, payment_method: { type: 'ideal', ideal: { bank: 'ing', bic: 'INGBNL2A' } } });
    expect(events).toEqual(['payment.processing', 'payment.succeeded']);
  });

  test('made to fail in the test window: a clear message beside the buttons, nothing charged; canceled: the button works again', async ({ page, request }) => {
    const session = await euroSession(request);
    await page.goto(session.url);
    await page.getByLabel('Email').fill('shopper@example.com');
    await idealButton(page).click();
    await testWindow(page).getByRole('button', { name: 'Make it fail' }).click();
    await expect(page.getByTestId('local-payment-notice')).toHaveText('iDEAL did not work this time. Nothing was charged; try again or pay another way.');
    const [failed] = await paymentsOf(request, session.id);
    expect(failed!.status).toBe('failed');
    await checkScreen(page);

    // Canceled: no message, and the button works again.
    await idealButton(page).click();
    await testWindow(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(testWindow(page)).toHaveCount(0);
    await expect(page.getByTestId('local-payment-notice')).toHaveText('');
    await expect(idealButton(page)).toBeEnabled();
    expect((await paymentsOf(request, session.id)).map((payment) => payment.status)).toEqual(['failed', 'failed']);
  });
});
