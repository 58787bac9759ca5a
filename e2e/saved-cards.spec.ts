import { expect, test } from '@playwright/test';
import { apiGet, createSession, checkScreen, fillCheckout, payButton, secretKey } from './support';

test.describe('a returning shopper', () => {
  test('saves the card with consent, then pays a later session with it in one tap', async ({ page, request }) => {
    const made = await request.post('/v1/customers', { headers: { Authorization: `Bearer ${secretKey()}` }, data: { email: 'ada@example.com' } });
    expect(made.status(), await made.text()).toBe(200);
    const customer = await made.json();

    const first = await createSession(request, { customer: customer.id, payment_method_options: { card: { save: 'shopper_choice' } } });
    await page.goto(first.url);
    const consent = page.getByLabel('Save this card for next time');
    await expect(consent).not.toBeChecked();
    await checkScreen(page);
    await fillCheckout(page, { email: 'ada@example.com', number: '5555 5555 5555 4444', expiry: '07 / 31' });
    await consent.check();
    await payButton(page).click();
    await page.waitForURL(`**/c/${first.id}/done`);

    const methods = await apiGet(request, `/v1/customers/${customer.id}/payment_methods`);
    expect(methods.data).toHaveLength(1);
    expect(methods.data[0].card).toMatchObject({ brand: 'mastercard', last4: '4444', exp_month: 7, exp_year: 2031 });

    const later = await createSession(request, { customer: customer.id });
    await page.goto(later.url);
    const saved = page.getByTestId('saved-cards');
    await expect(saved.getByLabel('Mastercard ending in 4444, expires 07/2031')).toBeChecked();
    await checkScreen(page);
    // "Use another card" brings the card form back; the saved cards are there until then.
    await expect(page.getByLabel('Card number', { exact: true })).toBeHidden();
    await saved.getByRole('button', { name: 'Pay $18.00' }).click();
    await page.waitForURL(`**/c/${later.id}/done`);
    const paid = await apiGet(request, `/v1/checkout/sessions/${later.id}`);
    const payment = await apiGet(request, `/v1/payments/${paid.payment}`);
    expect(payment).toMatchObject({ status: 'succeeded', customer: customer.id, payment_method: { brand: 'mastercard', last4: '4444' } });

    const another = await createSession(request, { customer: customer.id });
    await page.goto(another.url);
    await page.getByRole('button', { name: 'Use another card' }).click();
    await expect(page.getByTestId('saved-cards')).toHaveCount(0);
    await expect(page.getByLabel('Card number', { exact: true })).toBeVisible();
  });

  test("asks the saved card's CVC again when the session says so: a wrong CVC is refused beside the field, the right one pays", async ({ page, request }) => {
    const made = await request.post('/v1/customers', { headers: { Authorization: `Bearer ${secretKey()}` }, data: { email: 'cvc@example.com' } });
    const customer = await made.json();
    const first = await createSession(request, { customer: customer.id, payment_method_options: { card: { save: 'on' } } });
    await page.goto(first.url);
    await fillCheckout(page, { email: 'cvc@example.com' });
    await payButton(page).click();
    await page.waitForURL(`**/c/${first.id}/done`);

    const later = await createSession(request, { customer: customer.id, payment_method_options: { card: { require_cvc_recollection: true } } });
    await page.goto(later.url);
    const saved = page.getByTestId('saved-cards');
    const cvc = saved.getByLabel('Security code');
    await expect(cvc).toBeVisible();
    await checkScreen(page);
    // Nothing typed: the field says so, and nothing is charged.
    await saved.getByRole('button', { name: 'Pay $18.00' }).click();
    await expect(saved.getByText('Enter the security code.')).toBeVisible();
    await expect(cvc).toBeFocused();
    // 200 does not match the card (the test processor's "N"): declined, the page stays.
    await cvc.fill('200');
    await saved.getByRole('button', { name: 'Pay $18.00' }).click();
    await expect(saved.getByText('The security code is incorrect. Check it and try again.')).toBeVisible();
    expect((await apiGet(request, `/v1/checkout/sessions/${later.id}`)).status).toBe('open');
    await cvc.fill('123');
    await saved.getByRole('button', { name: 'Pay $18.00' }).click();
    await page.waitForURL(`**/c/${later.id}/done`);
    const paid = await apiGet(request, `/v1/checkout/sessions/${later.id}`);
    const payment = await apiGet(request, `/v1/payments/${paid.payment}`);
    expect(payment).toMatchObject({ status: 'succeeded', customer: customer.id, payment_method: { last4: '1111' } });
  });
});
