import { expect, test, type Page } from '@playwright/test';
import { payAsShopper, signUp, unique } from './dashboard-support';
import { expectNoAxeViolations } from './support';

/**
 * What makes the page itself scroll sideways at this width: the elements reaching past the
 * viewport's right edge (a wide table may scroll inside its own box: its overflow is clipped there).
 * Empty when the page fits.
 */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${e.textContent?.slice(0, 30)})`)
      .slice(0, 5);
  });

const menuButton = (page: Page) => page.getByRole('button', { name: /^Menu/ });

/** Opens the menu and follows one of its links. */
async function goVia(page: Page, name: string) {
  await menuButton(page).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click();
}

test.describe('the dashboard on a phone', () => {
  test.describe.configure({ timeout: 120_000 });
  test.use({ viewport: { width: 375, height: 812 } });

  test('a menu button opens and closes the navigation, names the current page, and no page scrolls sideways', async ({ page, browser, request }) => {
    await signUp(page, `Phone ${unique()}`);
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    const links = nav.getByRole('list');

    // Closed: the button names the page, the links are hidden.
    await expect(menuButton(page)).toHaveAccessibleName('Menu: Overview');
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(links).toBeHidden();
    expect(await sidewaysOverflow(page)).toEqual([]);
    await expectNoAxeViolations(page);

    // Opened: the links show, focus is on the current page's link; Escape closes and focus returns.
    await menuButton(page).click();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(menuButton(page)).toHaveAttribute('aria-controls', (await links.getAttribute('id'))!);
    await expect(links).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Overview' })).toBeFocused();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('link', { name: 'Analytics' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(links).toBeHidden();
    await expect(menuButton(page)).toBeFocused();
    // The button closes it too.
    await menuButton(page).click();
    await menuButton(page).click();
    await expect(links).toBeHidden();

    // A payment with a refund, so the payments list and a payment's page have rows.
    await goVia(page, 'Developers');
    await expect(menuButton(page)).toHaveAccessibleName('Menu: Developers');
    await expect(links).toBeHidden();
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const headers = { Authorization: `Bearer ${(await page.getByTestId('new-key').textContent())!}` };
    const session = await (
      await request.post('/v1/checkout/sessions', {
        headers,
        data: { currency: 'usd', line_items: [{ name: 'A rather long product name for a small screen', unit_amount: 2900, quantity: 3 }], metadata: { order_id: 'ORD-1' } },
      })
    ).json();
    await payAsShopper(browser, session.url, 'a.very.long.email.address.for.phones@buyer.example');
    const payment = (await (await request.get(`/v1/payments?checkout_session=${session.id}`, { headers })).json()).data[0];
    await request.post('/v1/refunds', { headers, data: { payment: payment.id, amount: 500 } });

    const pages = ['Overview', 'Analytics', 'Payments', 'Disputes', 'Customers', 'Checkout sessions', 'Payment links', 'Developers', 'Webhooks', 'Settings', 'Payment page security', 'Processor', 'Flags and experiments', 'Team', 'Audit log'];
    for (const name of pages) {
      await goVia(page, name);
      await expect(menuButton(page)).toHaveAccessibleName(`Menu: ${name}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
      expect(await sidewaysOverflow(page), `${name} scrolls sideways at 375 px`).toEqual([]);
    }

    // A payment's page is under Payments; it too fits.
    await goVia(page, 'Payments');
    await page.getByRole('link', { name: payment.id }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('$87.00');
    await expect(menuButton(page)).toHaveAccessibleName('Menu: Payments');
    await expect(page.getByTestId('line-items')).toBeVisible();
    expect(await sidewaysOverflow(page), "a payment's page scrolls sideways at 375 px").toEqual([]);
    await expectNoAxeViolations(page);
  });
});
