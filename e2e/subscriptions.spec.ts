import { expect, test } from '@playwright/test';
import { goTo, signUp, unique } from './dashboard-support';
import { checkScreen } from './support';

test.describe('the Subscriptions and Invoices pages', () => {
  test.describe.configure({ timeout: 90_000 });
  test('a subscription is listed with its price, opened, and canceled at period end after a confirmation; its invoice shows its payment; the Overview shows MRR @desktop', async ({
    page,
    request,
  }) => {
    await signUp(page, `Subscriptions ${unique()}`);
    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    const headers = { Authorization: `Bearer ${secret}` };
    const post = async (path: string, data: object) => {
      const res = await request.post(path, { headers, data });
      expect(res.status(), await res.text()).toBe(200);
      return res.json();
    };

    // Through the merchant API: a monthly price, a customer whose card a setup session saved, a subscription of 2.
    const subscription = await test.step('seed a subscription', async () => {
      const product = await post('/v1/products', { name: 'Coffee club' });
      const price = await post('/v1/prices', { product: product.id, currency: 'usd', unit_amount: 2000, recurring: { interval: 'month' } });
      const customer = await post('/v1/customers', { email: 'ada@buyer.example', name: 'Ada' });
      const session = await post('/v1/checkout/sessions', { mode: 'setup', customer: customer.id });
      const api = `/api/checkout/sessions/${session.id}`;
      const token = await request.post(`${api}/card-tokens`, { data: { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' } });
      expect(token.status(), await token.text()).toBe(200);
      const saved = await request.post(`${api}/payments`, {
        data: { payment_method_type: 'card', nonce: (await token.json()).nonce, email: 'ada@buyer.example' },
      });
      expect(saved.status(), await saved.text()).toBe(200);
      return post('/v1/subscriptions', { customer: customer.id, items: [{ price: price.id, quantity: 2 }] });
    });
    expect(subscription.status).toBe('active');

    await goTo(page, 'Overview');
    await expect(page.getByTestId('mrr-USD')).toHaveText('$40.00');

    await goTo(page, 'Subscriptions');
    const row = page.getByTestId('subscriptions').getByRole('row').filter({ hasText: subscription.id });
    await expect(row).toContainText('ada@buyer.example');
    await expect(row).toContainText('$40.00 / month');
    await expect(row).toContainText('active');
    await checkScreen(page);

    await row.getByRole('link', { name: subscription.id }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('$40.00 / month');
    await expect(page.getByTestId('cancel-at-period-end')).toContainText('No: renews on');
    await checkScreen(page);

    await page.getByRole('button', { name: 'Cancel at period end' }).click();
    const confirm = page.getByRole('dialog', { name: /at the end of its period/ });
    await expect(confirm.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
    await checkScreen(page);
    await confirm.getByRole('button', { name: 'Yes, cancel at period end' }).click();
    await expect(page.getByRole('status')).toHaveText('The subscription will end at the end of its period.');
    await expect(page.getByTestId('cancel-at-period-end')).toContainText('Yes: ends on');
    await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
    const stored = await (await request.get(`/v1/subscriptions/${subscription.id}`, { headers })).json();
    expect(stored).toMatchObject({ status: 'active', cancel_at_period_end: true });

    // The first invoice, paid by one payment; its page links back to the subscription.
    await page.getByTestId('subscription-invoices').getByRole('link').first().click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('$40.00');
    await expect(page.getByTestId('invoice-attempts').getByRole('row')).toHaveCount(2);
    await expect(page.getByTestId('invoice-attempts')).toContainText('succeeded');
    await expect(page.getByRole('link', { name: 'Open the page where the customer pays it' })).toHaveAttribute('href', /\/i\/ih_[A-Za-z0-9]{32}$/);
    await checkScreen(page);
    await page.getByTestId('invoice-details').getByRole('link', { name: subscription.id }).click();
    await expect(page.getByTestId('cancel-at-period-end')).toContainText('Yes: ends on');
  });
});
