import { expect, test } from '@playwright/test';
import { payAsShopper, signUp, unique, goTo } from './dashboard-support';
import { checkScreen } from './support';

test.describe('the Customers page', () => {
  test.describe.configure({ timeout: 90_000 });
  test('search by email finds the customer with their payment and saved card; a shopper who paid without being a customer is a Guest; deleting a customer keeps the payment @desktop', async ({
    page,
    request,
  }) => {
    await signUp(page, `Customers ${unique()}`);
    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    const headers = { Authorization: `Bearer ${secret}` };
    const customer = async (email: string) =>
      (await (await request.post('/v1/customers', { headers, data: { email, name: email.split('@')[0] } })).json()).id as string;
    const ada = await customer('ada@buyer.example');
    await customer('bob@buyer.example');
    const created = await request.post('/v1/checkout/sessions', {
      headers,
      data: {
        currency: 'usd',
        customer: ada,
        payment_method_options: { card: { save: 'on' } },
        line_items: [{ name: 'Kenya AA, 250 g', unit_amount: 1650, quantity: 1 }],
      },
    });
    expect(created.status(), await created.text()).toBe(200);
    await payAsShopper(request, (await created.json()).url, 'ada@buyer.example');
    // A shopper who pays with an email but is no customer (through the checkout page's endpoints).
    const guestSession = (
      await (
        await request.post('/v1/checkout/sessions', { headers, data: { currency: 'usd', line_items: [{ name: 'Drip bags', unit_amount: 990, quantity: 1 }] } })
      ).json()
    ).id as string;
    const card = { number: '4111111111111111', exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' };
    const nonce = (await (await request.post(`/api/checkout/sessions/${guestSession}/card-tokens`, { data: card })).json()).nonce as string;
    const guestPaid = await request.post(`/api/checkout/sessions/${guestSession}/payments`, {
      data: { payment_method_type: 'card', nonce, email: 'cy.guest@buyer.example' },
    });
    expect(guestPaid.status(), await guestPaid.text()).toBe(200);

    await goTo(page, 'Customers');
    await expect(page.getByTestId('customers').getByRole('row')).toHaveCount(3);
    // The guest is listed apart, marked Guest, read-only: the row links to their payments.
    const guest = page.getByTestId('guest-customers').getByRole('row').filter({ hasText: 'cy.guest@buyer.example' });
    await expect(guest).toContainText('Guest');
    await expect(guest.getByRole('cell').nth(1)).toHaveText('1');
    await expect(page.getByTestId('guest-customers')).not.toContainText('ada@buyer.example');
    await checkScreen(page);
    await guest.getByRole('link', { name: 'cy.guest@buyer.example' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'cy.guest@buyer.example' })).toContainText('$9.90');
    await goTo(page, 'Customers');
    await page.getByLabel('Customer email', { exact: true }).fill('ADA@buyer.example');
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.getByTestId('customers').getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('ada@buyer.example');
    await checkScreen(page);

    await rows.nth(1).getByRole('link', { name: 'ada@buyer.example' }).click();
    await expect(page.getByRole('heading', { name: 'ada@buyer.example' })).toBeVisible();
    await expect(page.getByTestId('saved-methods')).toHaveText('visa •••• 1111, expires 12/2034');
    const payment = page.getByTestId('customer-payments').getByRole('row').nth(1);
    await expect(payment).toContainText('$16.50');
    await checkScreen(page);

    // The payment's page links back to its customer.
    const paymentId = (await payment.getByRole('link').textContent())!;
    await payment.getByRole('link').click();
    await page.getByTestId('payment-customer').click();
    await expect(page.getByRole('heading', { name: 'ada@buyer.example' })).toBeVisible();

    await page.getByRole('button', { name: 'Delete customer' }).click();
    const confirm = page.getByRole('dialog', { name: /Their payments stay/ });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await checkScreen(page);
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
