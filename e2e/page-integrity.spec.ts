import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { giveUpOnCardFrames, routeThirdParties } from './doubles/braintree-client-api';
import { signUp } from './dashboard-support';
import { createSession, fillCheckout, payButton, secretKey } from './support';

/**
 * Payment-page integrity in a real browser (PCI DSS 6.4.3 / 11.6.1): the inventory names exactly
 * the scripts Chromium loads in each set-up, the page works with Trusted Types enforced, and a
 * script injected into the page is blocked by the CSP and reported back to the merchant.
 */
interface InventoryScript {
  url: string;
  party: 'first' | 'third';
  type: 'script' | 'stylesheet';
  loaded_when: string[];
}

async function inventory(request: APIRequestContext, key: string): Promise<InventoryScript[]> {
  const response = await request.get('/v1/checkout_page/scripts', { headers: { Authorization: `Bearer ${key}` } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data;
}

/** Every script and stylesheet the page requests, and every CSP or Trusted Types violation it raises. */
async function watch(page: Page) {
  const loaded = new Set<string>();
  // A response, not a request: a request the CSP blocks is announced but never answered.
  page.on('response', (response) => {
    if (['script', 'stylesheet'].includes(response.request().resourceType())) loaded.add(response.url());
  });
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = violations;
    document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  return {
    loaded,
    violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
  };
}

const expectedFor = (scripts: InventoryScript[], setup: string[]) =>
  scripts
    .filter((s) => s.loaded_when.every((condition) => condition === 'always' || setup.includes(condition)))
    .map((s) => s.url)
    .sort();

test.describe('payment page integrity', () => {
  test('test processor: Chromium loads exactly the inventory’s scripts for this set-up, and the card payment works under Trusted Types', async ({
    page,
    request,
  }) => {
    await routeThirdParties(page);
    const seen = await watch(page);
    const session = await createSession(request);
    await page.goto(session.url);
    await expect(page.getByTestId('google-pay').getByRole('button', { name: 'Pay with Google Pay' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    // The e2e server reports errors to a Sentry stand-in, so its chunk is part of this set-up. It
    // loads when the page is first idle (at most 3 s on a busy machine): the set is polled until then.
    const expected = expectedFor(await inventory(request, secretKey()), ['test_processor', 'card', 'google_pay', 'sentry']);
    await expect.poll(() => [...seen.loaded].sort()).toEqual(expected);

    await fillCheckout(page);
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    expect(await seen.violations()).toEqual([]);
  });

  test('Braintree: Chromium loads exactly the inventory’s scripts for this set-up, with Trusted Types enforced', async ({ page, request }) => {
    await routeThirdParties(page);
    const seen = await watch(page);
    const key = process.env.E2E_BRAINTREE_SECRET_KEY!;
    const response = await request.post('/v1/checkout/sessions', {
      headers: { Authorization: `Bearer ${key}` },
      data: { currency: 'usd', line_items: [{ name: 'Colombia Huila, 250 g', unit_amount: 1800, quantity: 1 }] },
    });
    const session = await response.json();
    await page.clock.install();
    await page.goto(session.url);
    await expect(page.getByTestId('google-pay').getByRole('button', { name: 'Pay with Google Pay' })).toBeVisible();
    // Device data (data-collector, FraudNet) starts once Hosted Fields are settled: here they fail,
    // as their frames cannot be served in this test (e2e/braintree.spec.ts).
    await giveUpOnCardFrames(page);
    await page.waitForLoadState('networkidle');
    const expected = expectedFor(await inventory(request, key), ['braintree', 'card', 'google_pay', 'sentry']);
    await expect.poll(() => [...seen.loaded].map((url) => url.split('?')[0]!).sort()).toEqual(expected);

    // Google Pay through braintree-web's google-payment and the pay.js double, all under Trusted Types.
    await page.getByTestId('google-pay').getByRole('button', { name: 'Pay with Google Pay' }).click();
    await page.getByRole('dialog', { name: 'Google Pay payment sheet' }).getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    // Hosted Fields' frames are blocked in these tests (e2e/doubles), which is not a CSP matter.
    expect(await seen.violations()).toEqual([]);
  });

  test('a script injected into the page is blocked by the CSP, and its report reaches Settings → Payment page security @desktop', async ({ page, browser }) => {
    await signUp(page, 'Integrity Roasters');
    const state = await (await page.request.get('/dashboard/api/session')).json();
    const accountId: string = state.accounts[0].id;
    const created = await page.request.post(`/dashboard/api/accounts/${accountId}/test/api-keys`, {
      headers: { 'x-csrf-token': state.csrf_token },
      data: { kind: 'secret' },
    });
    const key: string = (await created.json()).secret;
    const session = await (
      await page.request.post('/v1/checkout/sessions', {
        headers: { Authorization: `Bearer ${key}` },
        data: { currency: 'usd', line_items: [{ name: 'Kenya Nyeri, 250 g', unit_amount: 2100, quantity: 1 }] },
      })
    ).json();

    // What a compromised proxy or a stored XSS would do: a skimmer script in the served HTML.
    const shopper = await (await browser.newContext()).newPage();
    const seen = await watch(shopper);
    await shopper.route(`**/c/${session.id}`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace('</head>', '<script src="https://skimmer.example/steal.js"></script></head>');
      // Chromium batches Reporting API (report-to) reports and sends them much later; without
      // report-to it uses the report-uri fallback at once, which is what this test waits for.
      // POST /csp-reports' handling of Reporting API batches is covered by the integration tests.
      const headers = { ...response.headers() };
      headers['content-security-policy'] = headers['content-security-policy']!.replace(/;\s*report-to [^;]+/, '');
      await route.fulfill({ response, body: html, headers });
    });
    await shopper.goto(session.url);
    await expect(payButton(shopper)).toBeVisible();
    expect([...seen.loaded].filter((url) => url.includes('skimmer'))).toEqual([]);
    expect(await seen.violations()).toContain('script-src-elem https://skimmer.example/steal.js');

    await page.goto(`/dashboard/${accountId}/test/settings/page-security`);
    await expect(page.getByRole('heading', { name: 'Payment page security' })).toBeVisible();
    await expect(async () => {
      await page.reload();
      await expect(page.getByText('https://skimmer.example/steal.js')).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 20_000, intervals: [1000] });
    await expect(page.getByRole('row', { name: /script-src-elem \(enforce\).*skimmer\.example/ })).toBeVisible();
    await shopper.context().close();
  });
});
