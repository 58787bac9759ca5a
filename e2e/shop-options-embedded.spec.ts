import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { goTo, signUp, unique } from './dashboard-support';
import { checkScreen, fillCheckout, payButton } from './support';

/**
 * The merchant's own shop, a third party's server on an origin of its own: `/checkout?secret=…`
 * loads `/js/embed.js` pinned with its SRI value and mounts the embedded checkout;
 * `/order` is the return_url the top page goes to after payment.
 */
async function startMerchantShop(tillpoint: string, integrity: string) {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://merchant.invalid');
    if (url.pathname === '/checkout') {
      const secret = JSON.stringify(url.searchParams.get('secret') ?? '');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Merchant shop checkout</title></head>
<body><main><h1>Your order at the merchant's shop</h1><div id="checkout"></div></main>
<script src="${tillpoint}/js/embed.js" integrity="${integrity}" crossorigin="anonymous"></script>
<script>window.mounted = Tillpoint.embed({ clientSecret: ${secret}, container: '#checkout' });</script>
</body></html>`);
      return;
    }
    if (url.pathname === '/order') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html lang="en"><title>Order</title><main><h1>Thanks, order ${url.searchParams.get('session_id')}</h1></main></html>`);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, origin: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

/** Opens the merchant's checkout page in a shopper's browser of their own, collecting console messages. */
async function openShop(browser: Browser, url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const console: string[] = [];
  page.on('console', (message) => console.push(message.text()));
  await page.goto(url);
  await expect(page.getByRole('heading', { name: "Your order at the merchant's shop" })).toBeVisible();
  return { page, console, close: () => context.close() };
}

const createEmbeddedSession = async (request: APIRequestContext, key: string, returnUrl: string) => {
  const response = await request.post('/v1/checkout/sessions', {
    headers: { Authorization: `Bearer ${key}` },
    data: {
      currency: 'usd',
      line_items: [{ name: 'Framed print', unit_amount: 3200, quantity: 1 }],
      ui_mode: 'embedded',
      return_url: returnUrl,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { id: string; client_secret: string; url: string | null };
};

async function saveOrigins(page: Page, text: string) {
  await page.getByLabel('Allowed origins, one per line').fill(text);
  await page.getByRole('button', { name: 'Update allowed origins' }).click();
}

test.describe('embedded checkout on a merchant page served by the test', () => {
  test.describe.configure({ timeout: 120_000 });

  test('refused until the merchant origin is allowed in Settings; then paid inside the frame, the top page goes to return_url', async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    const tillpoint = new URL(baseURL!).origin;
    const { integrity, url: scriptUrl } = await (await request.get('/js/embed.json')).json();
    expect(scriptUrl).toBe(`${tillpoint}/js/embed.js`);
    const shop = await startMerchantShop(tillpoint, integrity);
    // The same shop under another origin, never allowed: http://localhost:<port>.
    const otherOrigin = `http://localhost:${shop.port}`;
    try {
      await signUp(page, `Embed ${unique()}`);
      await goTo(page, 'Developers');
      await page.getByRole('button', { name: 'Create secret key' }).click();
      const key = (await page.getByTestId('new-key').textContent())!;
      const session = await createEmbeddedSession(request, key, `${shop.origin}/order?session_id={CHECKOUT_SESSION_ID}`);
      expect(session.client_secret).toMatch(new RegExp(`^${session.id}_secret_`));

      // 1. No origin allowed yet: the browser refuses to frame the checkout.
      const refused = await openShop(browser, `${shop.origin}/checkout?secret=${encodeURIComponent(session.client_secret)}`);
      const refusedFrame = refused.page.frameLocator('#checkout iframe');
      await expect(refused.page.locator('#checkout iframe')).toHaveAttribute('src', new RegExp(`/c/${session.id}\\?embedded=`));
      await expect.poll(() => refused.console.some((text) => /frame-ancestors 'none'/.test(text)), { timeout: 15_000 }).toBe(true);
      await expect(refusedFrame.getByRole('button', { name: /^Pay / })).toHaveCount(0);
      await refused.close();

      // 2. Settings: a path is not an origin (refused, nothing saved); the shop's origin is saved.
      await goTo(page, 'Settings');
      await expect(page.getByRole('heading', { name: 'Embedded checkout origins' })).toBeVisible();
      await checkScreen(page);
      await saveOrigins(page, `${shop.origin}/checkout`);
      await expect(page.getByRole('alert')).toContainText('is not an origin');
      await checkScreen(page);
      await saveOrigins(page, `${shop.origin}/`);
      await expect(page.getByRole('status')).toHaveText('Saved. 1 origin may frame your embedded checkout.');
      // The server saved the bare origin, without the trailing slash.
      await expect(page.getByLabel('Allowed origins, one per line')).toHaveValue(shop.origin);
      await page.reload();
      await expect(page.getByLabel('Allowed origins, one per line')).toHaveValue(shop.origin);

      // 3. An origin that is not in the list is still refused.
      const other = await openShop(browser, `${otherOrigin}/checkout?secret=${encodeURIComponent(session.client_secret)}`);
      await expect.poll(() => other.console.some((text) => text.includes('frame-ancestors') && text.includes(shop.origin)), { timeout: 15_000 }).toBe(true);
      await expect(other.page.frameLocator('#checkout iframe').getByRole('button', { name: /^Pay / })).toHaveCount(0);
      await other.close();

      // 4. The allowed shop: the checkout renders in the frame, sized to its content, and is paid there.
      const shopper = await openShop(browser, `${shop.origin}/checkout?secret=${encodeURIComponent(session.client_secret)}`);
      const frame = shopper.page.frameLocator('#checkout iframe');
      await expect(frame.getByText('Framed print')).toBeVisible();
      await expect(payButton(frame as unknown as Page)).toBeVisible();
      const iframe = shopper.page.locator('#checkout iframe');
      const contentHeight = () => iframe.evaluate((el: HTMLIFrameElement) => el.contentDocument?.documentElement.scrollHeight ?? null).catch(() => null);
      expect(await contentHeight()).toBeNull(); // cross-origin: the shop cannot read inside the frame
      const insideHeight = async () => (await (await iframe.elementHandle())!.contentFrame())!.evaluate(() => document.documentElement.scrollHeight);
      await expect
        .poll(async () => Math.abs((await iframe.evaluate((el) => el.getBoundingClientRect().height)) - (await insideHeight())), { timeout: 10_000 })
        .toBeLessThanOrEqual(1);
      expect(await iframe.evaluate((el) => (el as HTMLElement).style.height)).toMatch(/^\d+px$/);
      await expect(shopper.page.getByRole('heading', { name: "Your order at the merchant's shop" })).toBeVisible();

      await fillCheckout(frame as unknown as Page, { email: 'framed.shopper@buyer.example' });
      await payButton(frame as unknown as Page).click();
      await shopper.page.waitForURL(`${shop.origin}/order?session_id=${session.id}`, { timeout: 20_000 });
      await expect(shopper.page.getByRole('heading', { name: `Thanks, order ${session.id}` })).toBeVisible();
      await shopper.close();

      const paid = await (await request.get(`/v1/checkout/sessions/${session.id}`, { headers: { Authorization: `Bearer ${key}` } })).json();
      expect(paid).toMatchObject({ status: 'complete', ui_mode: 'embedded' });

      // 5. A hosted session of the same account still may not be framed by anyone.
      const hosted = await (
        await request.post('/v1/checkout/sessions', {
          headers: { Authorization: `Bearer ${key}` },
          data: { currency: 'usd', line_items: [{ name: 'Poster', unit_amount: 1500, quantity: 1 }] },
        })
      ).json();
      const hostedPage = await request.get(hosted.url);
      expect(hostedPage.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(hostedPage.headers()['x-frame-options']).toBe('DENY');
      const embeddedPage = await request.get(`/c/${session.id}`);
      expect(embeddedPage.headers()['content-security-policy']).toContain(`frame-ancestors ${shop.origin};`);
    } finally {
      await shop.close();
    }
  });
});
