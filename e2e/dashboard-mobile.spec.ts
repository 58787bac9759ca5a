import { expect, test, type Page } from '@playwright/test';
import { payAsShopper, signUp, unique } from './dashboard-support';
import { checkScreen, sidewaysOverflow } from './support';

/**
 * Words broken across lines where they would have fitted on a line of their own ("suc/cee/ded",
 * "$42/.00"), and badges or amounts that take more than one line, in the page's main area. A word
 * may break after its hyphen, and one wider than its whole box (a long id, address or email)
 * anywhere. Empty when none.
 */
const brokenWords = (page: Page) =>
  page.evaluate(() => {
    const broken: string[] = [];
    const lines = (rects: DOMRectList) => new Set([...rects].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    const main = document.querySelector('main');
    if (!main) return ['no main'];
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const parent = node.parentElement;
      if (!parent || parent.closest('.visually-hidden, option, script, style')) continue;
      let box: Element = parent;
      while (getComputedStyle(box).display === 'inline' && box.parentElement) box = box.parentElement;
      const style = getComputedStyle(box);
      const room = box.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      for (const match of node.data.matchAll(/[^\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = range.getClientRects();
        const width = [...rects].reduce((sum, r) => sum + r.width, 0);
        if (lines(rects) > 1 && width <= room + 1) broken.push(`"${match[0]}" in ${box.tagName.toLowerCase()}.${box.className}`);
      }
    }
    for (const one of main.querySelectorAll('.badge, td.num')) {
      const range = document.createRange();
      range.selectNodeContents(one);
      if (lines(range.getClientRects()) > 1) broken.push(`${one.className} "${one.textContent}" takes more than one line`);
    }
    return broken.slice(0, 8);
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

  test('a menu button opens and closes the navigation, names the current page; no page scrolls sideways, breaks a word mid-letter or wraps a badge or amount; axe clean', async ({
    page,
    request,
  }) => {
    await signUp(page, `Phone ${unique()}`);
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    const links = nav.getByRole('list');

    // Closed: the button names the page, the links are hidden.
    await expect(menuButton(page)).toHaveAccessibleName('Menu: Overview');
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(links).toBeHidden();
    expect(await sidewaysOverflow(page)).toEqual([]);
    await checkScreen(page);

    // Opened: the links show, focus is on the current page's link; Escape closes and focus returns.
    await menuButton(page).click();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(menuButton(page)).toHaveAttribute('aria-controls', (await links.getAttribute('id'))!);
    await expect(links).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Overview' })).toBeFocused();
    await checkScreen(page);
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
        data: {
          currency: 'usd',
          line_items: [{ name: 'A rather long product name for a small screen', unit_amount: 2900, quantity: 3 }],
          metadata: { order_id: 'ORD-1' },
        },
      })
    ).json();
    await payAsShopper(request, session.url, 'a.very.long.email.address.for.phones@buyer.example');
    const payment = (await (await request.get(`/v1/payments?checkout_session=${session.id}`, { headers })).json()).data[0];
    await request.post('/v1/refunds', { headers, data: { payment: payment.id, amount: 500 } });

    const pages = [
      'Overview',
      'Analytics',
      'Payments',
      'Disputes',
      'Customers',
      'Subscriptions',
      'Invoices',
      'Checkout sessions',
      'Payment links',
      'Developers',
      'Webhooks',
      'Settings',
      'Payment page security',
      'Processor',
      'Flags and experiments',
      'Team',
      'Audit log',
    ];
    for (const name of pages) {
      await goVia(page, name);
      await expect(menuButton(page)).toHaveAccessibleName(`Menu: ${name}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
      expect.soft(await sidewaysOverflow(page), `${name} scrolls sideways at 375 px`).toEqual([]);
      expect.soft(await brokenWords(page), `${name} breaks words at 375 px`).toEqual([]);
      await checkScreen(page);
    }

    // A payment's page is under Payments; it too fits.
    await goVia(page, 'Payments');
    await page.getByRole('link', { name: payment.id }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('$87.00');
    await expect(menuButton(page)).toHaveAccessibleName('Menu: Payments');
    await expect(page.getByTestId('line-items')).toBeVisible();
    expect(await sidewaysOverflow(page), "a payment's page scrolls sideways at 375 px").toEqual([]);
    expect(await brokenWords(page), "a payment's page breaks words at 375 px").toEqual([]);
    await checkScreen(page);
  });
});

test.describe('the dashboard on a laptop', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('the header is one line at 1366 px', async ({ page }) => {
    await signUp(page, `Laptop ${unique()}`);
    const parts = page.locator('.topbar > *');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    const boxes = await parts.evaluateAll((all) =>
      all.map((e) => ({
        middle: Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2),
        width: Math.round(e.getBoundingClientRect().width),
      })),
    );
    const middles = boxes.map((b) => b.middle);
    expect(Math.max(...middles) - Math.min(...middles), `the header's parts are on one line (${JSON.stringify(boxes)})`).toBeLessThanOrEqual(4);
    // Nor does any text in it wrap ("Sign out" on two lines).
    const wrapped = await parts.evaluateAll((all) => {
      const texts: string[] = [];
      for (const part of all) {
        const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.parentElement?.closest('.visually-hidden, option')) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          if (new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1) texts.push(node.textContent ?? '');
        }
      }
      return texts;
    });
    expect(wrapped).toEqual([]);
    await checkScreen(page);
  });
});
