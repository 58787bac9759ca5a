import { expect, test } from '@playwright/test';
import { apiGet, checkScreen, fillCheckout, secretKey } from './support';

test.describe('setup mode', () => {
  test('the shopper saves a card without paying; the merchant then charges it from the server @desktop', async ({ page, request }) => {
    const headers = { Authorization: `Bearer ${secretKey()}` };
    const customer = await (await request.post('/v1/customers', { headers, data: { email: 'ada@example.com' } })).json();
    const made = await request.post('/v1/checkout/sessions', { headers, data: { mode: 'setup', customer: customer.id } });
    expect(made.status(), await made.text()).toBe(200);
    const session = await made.json();

    await page.goto(session.url);
    await expect(page.getByTestId('setup-note')).toContainText('You will not be charged now.');
    await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
    // The email confirms a saved card, not an order.
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription(/^The shop uses it to confirm that your card is saved\./);
    await expect(page.getByText(/order/i)).toHaveCount(0);
    await checkScreen(page);
    await fillCheckout(page, { email: 'ada@example.com', number: '5555 5555 5555 4444', expiry: '07 / 31' });
    await page.getByRole('button', { name: 'Save card', exact: true }).click();
    await page.waitForURL(`**/c/${session.id}/done`);
    await expect(page.getByRole('heading', { name: 'Card saved' })).toBeVisible();

    const done = await apiGet(request, `/v1/checkout/sessions/${session.id}`);
    expect(done).toMatchObject({ status: 'complete', payment: null, setup_intent: { status: 'succeeded', customer: customer.id } });
    const charged = await request.post('/v1/payments', {
      headers: { ...headers, 'Idempotency-Key': `setup-e2e-${session.id}` },
      data: { customer: customer.id, payment_method: done.setup_intent.payment_method, amount: 1800, currency: 'usd' },
    });
    expect(await charged.json()).toMatchObject({ status: 'succeeded', payment_method: { brand: 'mastercard', last4: '4444' } });
  });
});
