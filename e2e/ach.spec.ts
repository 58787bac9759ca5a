import { expect, test, type Page } from '@playwright/test';
import { apiGet, createSession, checkScreen, paymentsOf } from './support';

/**
 * An ACH bank debit with the test processor: the shopper opens the bank account form, types the
 * account, accepts the mandate and pays; the payment waits `processing` and the page says it is
 * confirming it, until the test processor settles the debit some seconds later (what Braintree
 * notifies as TRANSACTION_SETTLED); then the page updates itself to the receipt.
 */
const dollarSession = (request: Parameters<typeof createSession>[0]) =>
  createSession(request, {
    currency: 'usd',
    payment_method_types: ['card', 'us_bank_account'],
    line_items: [{ name: 'Standing desk', unit_amount: 45000, quantity: 1 }],
  });
const openForm = async (page: Page) => {
  await page.getByText('Pay by bank account (ACH)').click();
  await expect(page.getByLabel('Routing number')).toBeVisible();
};

test.describe('ACH bank debit on the checkout page (test processor)', () => {
  test('account typed, mandate accepted: confirming while processing, then the receipt once it settles, by itself @desktop', async ({ page, request }) => {
    const session = await dollarSession(request);
    await page.goto(session.url);
    await openForm(page);
    await checkScreen(page);
    // The mandate names the merchant and the amount, and paying waits for its acceptance.
    await expect(page.getByTestId('bank-debit-mandate')).toContainText('you authorize');
    await expect(page.getByTestId('bank-debit-mandate')).toContainText('$450.00');

    await page.getByLabel('Email').fill('shopper@example.com');
    await page.getByLabel("Account holder's name").fill('Ada Lovelace');
    await page.getByLabel('Routing number').fill('011000015');
    await page.getByLabel('Account number').fill('1000000000');
    await page.getByLabel('Savings').check();
    await page.getByRole('button', { name: 'Pay $450.00 by bank debit' }).click();
    await expect(page.getByTestId('bank-debit-notice')).toContainText('your authorization');
    await expect(page.getByLabel('I authorize this debit')).toBeFocused();
    expect(await paymentsOf(request, session.id)).toEqual([]);
    await checkScreen(page);

    await page.getByLabel('I authorize this debit').check();
    await page.getByRole('button', { name: 'Pay $450.00 by bank debit' }).click();

    // Not settled yet: the payment waits, and the page says so.
    await expect(page.getByRole('heading', { name: 'Confirming your payment' })).toBeVisible();
    await expect(page.getByRole('status')).toContainText('This page updates by itself');
    const [waiting] = await paymentsOf(request, session.id);
    expect(waiting!.status).toBe('processing');
    await checkScreen(page);

    // The debit settles (6 s here: TEST_PROCESSOR_ACH_SETTLE_DELAY_SECONDS); the page reads the session again and shows the receipt.
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('Paid $450.00 with US bank account (ACH)')).toBeVisible();
    await checkScreen(page);
    const details = await apiGet(request, `/v1/payments/${waiting!.id}`);
    expect(details).toMatchObject({
      status: 'succeeded',
      amount: 45000,
      payment_method: { type: 'us_bank_account', us_bank_account: { last4: '0000', routing_number: '011000015', account_type: 'savings' } },
    });
    const events = await apiGet(request, `/v1/events?limit=100`);
    const types = (events.data as Array<{ type: string; data: { object: { id: string } } }>)
      .filter((event) => event.data.object.id === waiting!.id)
      .map((event) => event.type)
      .reverse();
    expect(types).toEqual(['payment.processing', 'payment.succeeded']);
  });

  test('an account its check declines: a clear message, nothing debited, the form works again', async ({ page, request }) => {
    const session = await dollarSession(request);
    await page.goto(session.url);
    await openForm(page);
    await page.getByLabel('Email').fill('shopper@example.com');
    await page.getByLabel("Account holder's name").fill('Ada Lovelace');
    await page.getByLabel('Routing number').fill('011000015');
    await page.getByLabel('Account number').fill('1000000004');
    await page.getByLabel('I authorize this debit').check();
    await page.getByRole('button', { name: 'Pay $450.00 by bank debit' }).click();
    await expect(page.locator('#form-notice')).not.toBeEmpty();
    await expect(page.getByRole('button', { name: 'Pay $450.00 by bank debit' })).toBeEnabled();
    expect((await paymentsOf(request, session.id)).map((payment) => payment.status)).toEqual(['failed']);
    await checkScreen(page);
  });
});
