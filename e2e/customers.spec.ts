import { expect, test } from '@playwright/test';
import { payAsShopper, signUp, unique, goTo } from './dashboard-support';
import { expectNoAxeViolations } from './support';

test.describe('the Customers page', () => {
  test('search by email finds the customer with their payment and saved card; deleting them keeps the payment', async ({ page, browser, request }) => {
    await signUp(page, `Customers ${unique()}`);
    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    const headers = { Authorization: `Bearer ${secret}` };
    const customer = async (email: string) => (await (await request.post('/v1/customers', { headers, data: { email, name: email.split('@')[0] } })).json()).id as string;
    const ada = await customer('ada@buyer.example');
    await customer('bob@buyer.example');
    const created = await request.post('/v1/checkout/sessions', {
      headers,
      data: { currency: 'usd', customer: ada, payment_method_options: { card: { save: 'on' } }, line_items: [{ name: 'Kenya AA, 250 g', unit_amount: 1650, quantity: 1 }] },
    });
    expect(created.status(), await created.text()).toBe(200);
    await payAsShopper(browser, (await created.json()).url, 'ada@buyer.example');

    await goTo(page, 'Customers');
    await expect(page.getByTestId('customers').getByRole('row')).toHaveCount(3);
    await page.getByLabel('Email').fill('ADA@buyer.example');
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.getByTestId('customers').getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('ada@buyer.example');
    await expectNoAxeViolations(page);

    await rows.nth(1).getByRole('link', { name: 'ada@buyer.example' }).click();
    await expect(page.getByRole('heading', { name: 'ada@buyer.example' })).toBeVisible();
    await expect(page.getByTestId('saved-methods')).toHaveText('visa •••• 1111, expires 12/2034');
    const payment = page.getByTestId('customer-payments').getByRole('row').nth(1);
    await expect(payment).toContainText('$16.50');
    await expectNoAxeViolations(page);

    // The payment's page links back to its customer.
    const paymentId = (await payment.getByRole('link').textContent())!;
    await payment.getByRole('link').click();
    await page.getByTestId('payment-customer').click();
    await expect(page.getByRole('heading', { name: 'ada@buyer.example' })).toBeVisible();

    await page.getByRole('button', { name: 'Delete customer' }).click();
    const confirm = page.getByRole('dialog', { name: /Their payments stay/ });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Yes, delete the customer' }).click();
    await expect(page.getByText(`Customer ${ada} deleted`)).toHaveAttribute('role', 'status');
    await expect(page.getByTestId('customers').getByRole('row')).toHaveCount(2);
    await expect(page.getByTestId('customers')).not.toContainText('ada@buyer.example');

    // The payment stays, without a customer; the saved card is gone.
    await page.goto(page.url().replace(/\/customers.*$/, `/payments/${paymentId}`));
    await expect(page.getByRole('heading', { name: /\$16\.50/ })).toBeVisible();
    await expect(page.getByTestId('payment-customer')).toHaveCount(0);
    expect((await request.get(`/v1/customers/${ada}/payment_methods`, { headers })).status()).toBe(404);
  });
});
