import { expect, test } from '@playwright/test';
import { apiGet, checkScreen, fillCheckout, merchantApi, stubMerchantSite } from './support';

const api = merchantApi();

test.describe('the customer portal and the hosted invoice page', () => {
  test('a customer whose card declines adds another in the portal, which pays what they owe; then cancels; the invoice page shows it paid', async ({
    page,
    request,
  }) => {
    await stubMerchantSite(page);
    const product = await api.call(request, 'POST', '/v1/products', { name: 'Coffee club' });
    const price = await api.call(request, 'POST', '/v1/prices', { product: product.id, currency: 'usd', unit_amount: 1500, recurring: { interval: 'month' } });
    const customer = await api.call(request, 'POST', '/v1/customers', { email: 'ada@example.com' });

    // A card that saves and then declines every charge.
    const setup = await api.call(request, 'POST', '/v1/checkout/sessions', { mode: 'setup', customer: customer.id });
    await page.goto(setup.url);
    await fillCheckout(page, { email: 'ada@example.com', number: '4000 0000 0000 0341' });
    await page.getByRole('button', { name: 'Save card', exact: true }).click();
    await page.waitForURL(`**/c/${setup.id}/done`);
    const sub = await api.call(request, 'POST', '/v1/subscriptions', { customer: customer.id, items: [{ price: price.id }] });
    expect(sub.status).toBe('incomplete');

    const portal = await api.call(request, 'POST', '/v1/billing_portal/sessions', { customer: customer.id, return_url: 'https://merchant.example/account' });
    await page.goto(portal.url);
    await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
    const subscription = page.getByTestId('portal-subscription');
    await expect(subscription).toContainText('Coffee club');
    await expect(subscription).toContainText('$15.00 every month');
    await expect(subscription).toContainText('Incomplete');
    await expect(page.getByRole('link', { name: 'Pay what you owe' })).toBeVisible();
    await expect(page.getByTestId('portal-card')).toContainText('Visa ending in 0341');
    await checkScreen(page);

    // Add a card: the checkout page saves it and comes back; the invoice owed is paid with it.
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.waitForURL('**/c/cs_**');
    await fillCheckout(page, { email: 'ada@example.com' });
    await page.getByRole('button', { name: 'Save card', exact: true }).click();
    await page.waitForURL((url) => url.pathname === new URL(portal.url).pathname && url.searchParams.get('notice') === 'card_updated');
    await expect(page.getByRole('status')).toHaveText('Your subscriptions are now billed to Visa ending in 1111, expires 12/2034. 1 invoice you owed is paid.');
    await expect(subscription).toContainText('Active');
    await expect(page.getByRole('link', { name: 'Pay what you owe' })).toHaveCount(0);
    expect(await apiGet(request, `/v1/subscriptions/${sub.id}`)).toMatchObject({ status: 'active' });

    // Cancel, after the page asks.
    await page.getByRole('link', { name: 'Cancel subscription' }).click();
    await expect(page.getByRole('heading', { name: 'Cancel Coffee club?' })).toBeVisible();
    await checkScreen(page);
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page.getByRole('status')).toContainText('Your subscription is canceled.');
    await expect(subscription).toContainText('Canceling');
    await expect(subscription).toContainText(/Cancels on/);
    expect(await apiGet(request, `/v1/subscriptions/${sub.id}`)).toMatchObject({ status: 'active', cancel_at_period_end: true });

    // The invoice's own page: paid.
    await page.getByTestId('portal-invoice').first().getByRole('link').click();
    await expect(page.getByRole('heading', { name: /^Invoice from / })).toBeVisible();
    await expect(page.getByTestId('invoice-state')).toContainText('Paid on');
    await expect(page.getByTestId('amount-due')).toHaveText('$0.00');
    await checkScreen(page);

    // Back to the merchant.
    await page.goBack();
    await page.getByRole('link', { name: /^Return to / }).click();
    await page.waitForURL('https://merchant.example/account');
  });
});
