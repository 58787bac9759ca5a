import { expect, test, type APIRequestContext } from '@playwright/test';
import { routeThirdParties } from './doubles/braintree-client-api';
import { checkScreen, fillCheckout, merchantApi } from './support';

/** The flag tests' own account (see global-setup): switching its card form off disturbs nobody. */
const { call, createSession: newSession } = merchantApi(() => process.env.E2E_FLAGS_SECRET_KEY!);

/** What the page will be told for this session, read the way a server-side OFREP client reads it. */
async function variantFor(request: APIRequestContext, sessionId: string, key: string): Promise<string> {
  const response = await request.post(`/ofrep/v1/evaluate/flags/${key}`, { data: { context: { targetingKey: sessionId } } });
  return (await response.json()).value;
}

test.describe.configure({ mode: 'serial' });

test.describe('kill switches and experiments on the checkout page', () => {
  test.afterAll(async ({ request }) => {
    await call(request, 'POST', '/v1/flags/card_enabled', { value: true });
    await call(request, 'POST', '/v1/flags/google_pay_enabled', { value: true });
  });

  test('turning google_pay_enabled off removes the Google Pay button without a deploy', async ({ page, request }) => {
    await routeThirdParties(page); // Google's pay.js, played by a double that is ready to pay
    const session = await newSession(request);
    await page.goto(session.url);
    const googlePay = page.getByTestId('google-pay');
    await expect(googlePay.getByRole('button')).toBeVisible();

    await call(request, 'POST', '/v1/flags/google_pay_enabled', { value: false });
    await page.reload();
    await expect(page.getByLabel('Card number', { exact: true })).toBeVisible();
    await expect(googlePay).toHaveCount(0);
    // The page asks pay.js nothing any more: the method is not offered at all.
    expect(await page.evaluate(() => (window as any).__payJsDouble?.readyChecks?.length ?? 0)).toBe(0);

    // The server holds the switch too: a Google Pay token for this session is refused.
    const refused = await request.post(`/api/checkout/sessions/${session.id}/payments`, {
      data: { payment_method_type: 'google_pay', nonce: 'fake-android-pay-visa-nonce', email: 'a@b.co' },
    });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).error).toMatchObject({ code: 'parameter_invalid', param: 'payment_method_type' });

    await call(request, 'POST', '/v1/flags/google_pay_enabled', { value: true });
    await page.reload();
    await expect(googlePay.getByRole('button')).toBeVisible();
  });

  test('turning card_enabled off hides the card form without a deploy; on again brings it back', async ({ page, request }) => {
    await routeThirdParties(page); // Google's pay.js, played by a double that is ready to pay
    // A card-only session: with the card off, nothing is left to pay with, and the page says so.
    const session = await newSession(request, { payment_method_types: ['card'] });
    await page.goto(session.url);
    await expect(page.getByLabel('Card number', { exact: true })).toBeVisible();

    await call(request, 'POST', '/v1/flags/card_enabled', { value: false });
    await page.reload();
    await expect(page.getByText('Payment is not available right now. Try again later or contact the shop.')).toBeVisible();
    await expect(page.getByLabel('Card number', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Pay|Complete purchase/ })).toHaveCount(0);
    await checkScreen(page);

    // A session offering card and Google Pay loses only the card form.
    const both = await newSession(request);
    await page.goto(both.url);
    await expect(page.getByTestId('google-pay').getByRole('button')).toBeVisible();
    await expect(page.getByLabel('Card number', { exact: true })).toHaveCount(0);
    await expect(page.getByText('Payment is not available right now.', { exact: false })).toHaveCount(0);

    await call(request, 'POST', '/v1/flags/card_enabled', { value: true });
    await page.goto(session.url);
    await expect(page.getByLabel('Card number', { exact: true })).toBeVisible();
  });

  test('each checkout_layout variant renders and pays; exposures and conversions reach the results', async ({ page, request }) => {
    const experiment = await call(request, 'POST', '/v1/experiments', {
      key: 'checkout_layout',
      variants: [
        { key: 'wallet_first', weight: 1 },
        { key: 'card_first', weight: 1 },
      ],
      planned_sample_size: 100,
      status: 'running',
    });
    try {
      // Sessions are assigned by hash; open sessions until each variant has one.
      const byVariant = new Map<string, { id: string; url: string }>();
      for (let i = 0; i < 40 && byVariant.size < 2; i++) {
        const session = await newSession(request);
        const variant = await variantFor(request, session.id, 'checkout_layout');
        if (!byVariant.has(variant)) byVariant.set(variant, session);
      }
      expect([...byVariant.keys()].sort()).toEqual(['card_first', 'wallet_first']);

      for (const [variant, session] of byVariant) {
        await page.goto(session.url);
        const form = page.locator('form[data-layout]');
        await expect(form).toHaveAttribute('data-layout', variant);
        // Sticky: a reload shows the same variant.
        await page.reload();
        await expect(form).toHaveAttribute('data-layout', variant);
        // Wallets sit outside the card form (a wallet button must not submit it), in the same section.
        const order = await page.locator('section.payment').evaluate((el) => {
          const wallets = el.querySelector('[data-testid="wallets"]')!;
          const card = el.querySelector('#card-number')!;
          return wallets.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING ? 'wallet_first' : 'card_first';
        });
        expect(order).toBe(variant);
        await checkScreen(page);
        await fillCheckout(page);
        await page.getByRole('button', { name: 'Pay $18.00' }).click();
        await page.waitForURL(`**/c/${session.id}/done`);
        await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
      }

      const results = await call(request, 'GET', `/v1/experiments/${experiment.id}/results`);
      for (const row of results.variants) expect(row).toMatchObject({ exposed: 1, conversions: 1, conversion_rate: 1 });
      expect(results.verdict).toMatchObject({ status: 'collecting', winner: null });
    } finally {
      await call(request, 'POST', `/v1/experiments/${experiment.id}`, { status: 'stopped' });
    }
  });

  test('the Pay button wording comes from the experiment and the message catalogue', async ({ page, request }) => {
    const experiment = await call(request, 'POST', '/v1/experiments', {
      key: 'pay_button_wording',
      variants: [
        { key: 'pay', weight: 0 },
        { key: 'complete_purchase', weight: 1 },
      ],
      planned_sample_size: 100,
      status: 'running',
    });
    try {
      const session = await newSession(request);
      await page.goto(session.url);
      const button = page.getByRole('button', { name: 'Complete purchase — $18.00' });
      await expect(button).toBeVisible();
      await fillCheckout(page);
      await button.click();
      await page.waitForURL(`**/c/${session.id}/done`);
      const results = await call(request, 'GET', `/v1/experiments/${experiment.id}/results`);
      expect(results.variants).toMatchObject([
        { variant: 'pay', exposed: 0 },
        { variant: 'complete_purchase', exposed: 1, conversions: 1 },
      ]);
    } finally {
      await call(request, 'POST', `/v1/experiments/${experiment.id}`, { status: 'stopped' });
    }
  });
});
