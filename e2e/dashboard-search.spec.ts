import { expect, test, type Page } from '@playwright/test';
import { payAsShopper, signUp, unique, goTo } from './dashboard-support';
import { checkScreen } from './support';

/** Presses `/` outside any field, types `text` into the search box and submits it. */
async function searchFor(page: Page, text: string) {
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('/');
  const box = page.getByRole('searchbox', { name: 'Search payments, sessions, refunds, links, customers and disputes' });
  await expect(box).toBeFocused();
  await box.fill(text);
  await box.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Search: ${text}`);
}

const group = (page: Page, name: string) => page.getByRole('region', { name });

test.describe('dashboard search', () => {
  test.describe.configure({ timeout: 90_000 });

  test('the / box finds payments, sessions, refunds, links and customers by each kind of term @desktop', async ({ page, request }) => {
    await signUp(page, `Lamps ${unique()}`);
    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    const headers = { Authorization: `Bearer ${secret}` };

    const session = await (
      await request.post('/v1/checkout/sessions', {
        headers,
        data: {
          currency: 'usd',
          line_items: [{ name: 'Desk lamp', unit_amount: 4250, quantity: 1 }],
          metadata: { order: 'ORD-7781' },
          client_reference_id: 'crm-3301',
        },
      })
    ).json();
    await payAsShopper(request, session.url, 'zoe.lamp@buyer.example');
    const payment = (await (await request.get(`/v1/payments?checkout_session=${session.id}`, { headers })).json()).data[0];
    const refund = await (await request.post('/v1/refunds', { headers, data: { payment: payment.id, amount: 1250 } })).json();
    const link = await (
      await request.post('/v1/payment_links', { headers, data: { currency: 'usd', line_items: [{ name: 'Workshop', unit_amount: 9900, quantity: 1 }] } })
    ).json();

    // Id prefix.
    await searchFor(page, payment.id.slice(0, 10));
    await expect(group(page, 'Payments')).toContainText(payment.id);
    await expect(group(page, 'Payments')).toContainText('$42.50');
    await expect(group(page, 'Refunds')).toContainText(refund.id);
    await checkScreen(page);

    // Part of an email: its start, then its domain.
    await searchFor(page, 'zoe.lamp');
    await expect(group(page, 'Payments')).toContainText('zoe.lamp@buyer.example');
    await expect(group(page, 'Checkout sessions')).toContainText(session.id);
    await searchFor(page, '@buyer.example');
    await expect(group(page, 'Payments')).toContainText(payment.id);

    // Card last 4, amount, metadata value, client_reference_id.
    await searchFor(page, '1111');
    await expect(group(page, 'Payments')).toContainText('visa 1111');
    await searchFor(page, '12.50');
    await expect(group(page, 'Refunds')).toContainText(refund.id);
    await expect(group(page, 'Payments')).toHaveCount(0);
    await searchFor(page, 'ORD-7781');
    await expect(group(page, 'Payments')).toContainText(payment.id);
    await searchFor(page, 'crm-3301');
    await expect(group(page, 'Checkout sessions')).toContainText(session.id);

    // Payment links by id; nothing found says so.
    await searchFor(page, link.id);
    await expect(group(page, 'Payment links')).toContainText(link.id);
    // A customer by the end of their email, and to their page.
    const customer = await (await request.post('/v1/customers', { headers, data: { email: `mira.${unique()}@tealeaf.example`, name: 'Mira Teal' } })).json();
    await searchFor(page, '@tealeaf.example');
    await expect(group(page, 'Customers')).toContainText('Mira Teal');
    await group(page, 'Customers').getByRole('link', { name: customer.id }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(customer.email);
    await searchFor(page, 'no-such-thing');
    await expect(page.getByRole('status')).toHaveText('Nothing matches “no-such-thing” in this mode.');
    await checkScreen(page);

    // A hit leads to its page.
    await searchFor(page, payment.id);
    await group(page, 'Payments').getByRole('link', { name: payment.id }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('$42.50');

    // `/` typed inside a field is just a character.
    await goTo(page, 'Payments');
    const last4 = page.getByLabel('Card last 4');
    await last4.click();
    await page.keyboard.press('/');
    await expect(last4).toBeFocused();
  });
});

test.describe('payment filters', () => {
  test.describe.configure({ timeout: 90_000 });

  test('apply as they change, live in the URL with the back button, save as a view, and export exactly the filter @desktop', async ({ page, request }) => {
    await signUp(page, `Filters ${unique()}`);
    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const headers = { Authorization: `Bearer ${(await page.getByTestId('new-key').textContent())!}` };
    for (const [amount, email] of [
      [1200, 'small.buyer@buyer.example'],
      [9900, 'big.buyer@buyer.example'],
    ] as const) {
      const session = await (
        await request.post('/v1/checkout/sessions', { headers, data: { currency: 'usd', line_items: [{ name: 'Thing', unit_amount: amount, quantity: 1 }] } })
      ).json();
      await payAsShopper(request, session.url, email);
    }

    await goTo(page, 'Payments');
    const small = page.getByRole('row').filter({ hasText: 'small.buyer@buyer.example' });
    const big = page.getByRole('row').filter({ hasText: 'big.buyer@buyer.example' });
    await expect(small).toBeVisible();
    await expect(big).toBeVisible();

    // No button: typing an amount applies it, and the URL carries it.
    await page.getByLabel('Min amount (USD)').fill('50');
    await expect(small).toHaveCount(0);
    await expect(big).toBeVisible();
    await expect(page).toHaveURL(/amount_min=5000/);
    await page.getByLabel('Status').selectOption('failed');
    await expect(page.getByText('No payments match.')).toBeVisible();
    await expect(page).toHaveURL(/status=failed/);

    // Back undoes the last change, fields included.
    await page.goBack();
    await expect(page).not.toHaveURL(/status=/);
    await expect(page.getByLabel('Status')).toHaveValue('');
    await expect(page.getByLabel('Min amount (USD)')).toHaveValue('50.00');
    await expect(big).toBeVisible();
    await expect(small).toHaveCount(0);

    // The export link is exactly this filter, and its rows are exactly the list's.
    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(href).toMatch(/export\.csv\?amount_min=5000$/);
    const csv = await (await page.request.get(href!)).text();
    const rows = csv.trimEnd().split('\r\n').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('big.buyer@buyer.example');

    // A saved view reopens the filter from anywhere.
    await page.getByLabel('Name this view').fill('Big ones');
    await page.getByRole('button', { name: 'Save view' }).click();
    await checkScreen(page);
    await page.getByLabel('Min amount (USD)').fill('');
    await expect(small).toBeVisible();
    await goTo(page, 'Overview');
    await goTo(page, 'Payments');
    await page.getByRole('link', { name: 'Big ones' }).click();
    await expect(page).toHaveURL(/amount_min=5000/);
    await expect(small).toHaveCount(0);
    await expect(big).toBeVisible();
    await page.getByRole('button', { name: 'Delete view “Big ones”' }).click();
    await expect(page.getByRole('link', { name: 'Big ones' })).toHaveCount(0);
  });
});
