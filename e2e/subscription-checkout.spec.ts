import { expect, test } from '@playwright/test';
import { apiGet, checkScreen, fillCheckout, merchantApi } from './support';

const api = merchantApi();

test.describe('subscription mode', () => {
  test('the page says what is due today and what renews, the shopper subscribes with the test card and sees the receipt', async ({ page, request }) => {
    const product = await api.call(request, 'POST', '/v1/products', { name: 'Coffee club' });
    const price = await api.call(request, 'POST', '/v1/prices', { product: product.id, currency: 'usd', unit_amount: 2000, recurring: { interval: 'month' } });
    const session = await api.call(request, 'POST', '/v1/checkout/sessions', { mode: 'subscription', line_items: [{ price: price.id, quantity: 1 }] });

    await page.goto(session.url);
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByText('Due today')).toBeVisible();
    await expect(summary.getByTestId('total')).toHaveText('$20.00');
    await expect(summary.getByText('Then $20.00 every month', { exact: true })).toBeVisible();
    await expect(page.getByText('Your card will be saved and charged for each renewal.')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
    await checkScreen(page);

    await fillCheckout(page, { email: 'ada@example.com' });
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.waitForURL(`**/c/${session.id}/done`);
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    await expect(page.getByText('Paid $20.00 with Visa ending in 1111')).toBeVisible();

    const done = await apiGet(request, `/v1/checkout/sessions/${session.id}`);
    expect(done).toMatchObject({ status: 'complete', subscription: expect.stringMatching(/^sub_/) });
    expect(await apiGet(request, `/v1/subscriptions/${done.subscription}`)).toMatchObject({ status: 'active', customer: done.customer });
  });
});
