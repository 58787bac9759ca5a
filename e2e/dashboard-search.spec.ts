import { expect, test, type Page } from '@playwright/test';
import { payAsShopper, signUp, unique } from './dashboard-support';
import { expectNoAxeViolations } from './support';

/** Presses `/` outside any field, types `text` into the search box and submits it. */
async function searchFor(page: Page, text: string) {
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('/');
  const box = page.getByRole('searchbox', { name: 'Search payments, sessions, refunds and links' });
  await expect(box).toBeFocused();
  await box.fill(text);
  await box.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Search: ${text}`);
}

const group = (page: Page, name: string) => page.getByRole('region', { name });

test.describe('dashboard search', () => {
  test.describe.configure({ timeout: 90_000 });

  test('the / box finds payments, sessions, refunds and links by each kind of term @desktop', async ({ page, browser, request }) => {
    await signUp(page, `Lamps ${unique()}`);
    await page.getByRole('link', { name: 'Developers' }).click();
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
    await payAsShopper(browser, session.url, 'zoe.lamp@buyer.example');
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
    await expectNoAxeViolations(page);

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
    await searchFor(page, 'no-such-thing');
    await expect(page.getByRole('status')).toHaveText('Nothing matches “no-such-thing” in this mode.');
    await expectNoAxeViolations(page);

    // A hit leads to its page.
    await searchFor(page, payment.id);
    await group(page, 'Payments').getByRole('link', { name: payment.id }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('$42.50');

    // `/` typed inside a field is just a character.
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    const last4 = page.getByLabel('Card last 4');
    await last4.click();
    await page.keyboard.press('/');
    await expect(last4).toBeFocused();
  });
});
