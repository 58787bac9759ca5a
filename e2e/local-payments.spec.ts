import { expect, test, type Page } from '@playwright/test';
import { apiGet, createSession, checkScreen, paymentsOf } from './support';

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

    // The bank has not confirmed yet: the payment waits, and the page says so.
    await expect(page.getByRole('heading', { name: 'Confirming your payment' })).toBeVisible();
    await expect(page.getByRole('status')).toContainText('This page updates by itself');
    const [waiting] = await paymentsOf(request, session.id);
    expect(waiting!.status).toBe('processing');
    await checkScreen(page);

    // The bank confirms (6 s here: TEST_PROCESSOR_LOCAL_PAYMENT_DELAY_SECONDS); the page reads the session again and shows the receipt.
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('Paid €25.00 with iDEAL')).toBeVisible();
    await checkScreen(page);
    const [paid] = await paymentsOf(request, session.id);
    const details = await apiGet(request, `/v1/payments/${paid!.id}`);
    expect(details).toMatchObject({ status: 'succeeded', amount: 2500, payment_method: { type: 'ideal', ideal: { bank: 'ing', bic: 'INGBNL2A' } } });
    const events = await apiGet(request, `/v1/events?limit=100`);
    const types = (events.data as Array<{ type: string; data: { object: { id: string } } }>)
      .filter((event) => event.data.object.id === paid!.id)
      .map((event) => event.type)
      .reverse();
    expect(types).toEqual(['payment.processing', 'payment.succeeded']);
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
