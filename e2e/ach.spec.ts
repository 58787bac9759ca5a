import { expect, test, type Page } from '@playwright/test';
import { createSession, checkScreen, confirmedLater, paymentsOf } from './support';

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

    // Not settled yet: the page waits, then shows the receipt once the debit settles (6 s here:
    // TEST_PROCESSOR_ACH_SETTLE_DELAY_SECONDS).
    const { payment, events } = await confirmedLater(page, request, session.id, 'Paid $450.00 with US bank account (ACH)');
    expect(payment).toMatchObject({
      status: 'succeeded',
      amount: 45000,
      payment_method: { type: 'us_bank_account', us_bank_account: { last4: '0000', routing_number: '011000015', account_type: 'savings' } },
    });
    expect(events).toEqual(['payment.processing', 'payment.succeeded']);
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
