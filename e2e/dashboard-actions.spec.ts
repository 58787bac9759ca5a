import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { inviteMember, payAsShopper, signUp, unique, goTo } from './dashboard-support';
import { checkScreen } from './support';

interface Received {
  signature: string;
  body: string;
}

/** The merchant's webhook receiver (a third party's server): records what Tillpoint posts to it. */
async function startReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ signature: String(req.headers['tillpoint-signature'] ?? ''), body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { received, url: `http://localhost:${(server.address() as AddressInfo).port}/hooks`, close: () => new Promise((r) => server.close(r)) };
}

/** Checks `Tillpoint-Signature: t=…,v1=…` the way a merchant's receiver must (design.md §7). */
function signatureValid(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  if (!parts.t || !parts.v1 || Math.abs(Date.now() / 1000 - Number(parts.t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

test.describe('dashboard actions', () => {
  test.describe.configure({ timeout: 90_000 });

  test('payment link → shopper pays → partial refund on the timeline → signed refund.succeeded webhook; a viewer cannot refund @desktop', async ({
    page,
    browser,
    request,
  }) => {
    const receiver = await startReceiver();
    await signUp(page, `Links ${unique()}`);

    // The merchant registers their receiver (test mode accepts http://localhost).
    await goTo(page, 'Webhooks');
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await expect(page.getByRole('row').filter({ hasText: receiver.url })).toContainText('All events');
    await checkScreen(page);

    // A product with a price, and a payment link selling it.
    await goTo(page, 'Payment links');
    await page.getByLabel('Product name').fill('Ethiopia Guji, 250 g');
    await page.getByLabel('Price').fill('18.00');
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Ethiopia Guji, 250 g' })).toContainText('$18.00');
    await page.getByLabel(/Quantity of Ethiopia Guji/).fill('2');
    await page.getByRole('button', { name: 'Create payment link' }).click();
    const linkRow = page.getByRole('row').filter({ hasText: '2 × Ethiopia Guji, 250 g' });
    await expect(linkRow).toContainText('$36.00');
    await checkScreen(page);
    const linkUrl = (await linkRow.getByTestId('link-url').textContent())!;
    expect(linkUrl).toMatch(/\/l\/[a-z0-9]+$/);

    await payAsShopper(request, linkUrl, 'lee.shopper@buyer.example');

    await goTo(page, 'Payments');
    const row = page.getByRole('row').filter({ hasText: 'lee.shopper@buyer.example' });
    await expect(row).toContainText('$36.00');
    await expect(row).toContainText('succeeded');
    await row.getByRole('link').click();
    const paymentUrl = page.url();

    // A partial refund, with a reason and a confirmation step.
    await page.getByRole('button', { name: 'Refund…' }).click();
    await page.getByLabel('Amount (USD)').fill('5.00');
    await page.getByLabel('Reason').selectOption('duplicate');
    await checkScreen(page);
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect(page.getByText('Refund $5.00 to the customer? This cannot be undone.')).toBeVisible();
    await page.getByRole('button', { name: 'Confirm refund' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Refund of' })).toHaveText('Refund of $5.00 succeeded.');
    await expect(page.getByRole('region', { name: 'Timeline' })).toContainText('Refunded $5.00');
    const refunds = page.getByRole('region', { name: 'Refunds' });
    await expect(refunds.getByRole('row').filter({ hasText: '$5.00' })).toContainText('duplicate');
    await expect(page.getByRole('definition').filter({ hasText: '$5.00' })).toBeVisible();
    await checkScreen(page);

    // The merchant's receiver gets refund.succeeded, signed with the endpoint's secret.
    await expect.poll(() => receiver.received.find((r) => JSON.parse(r.body).type === 'refund.succeeded'), { timeout: 20_000 }).toBeTruthy();
    const delivered = receiver.received.find((r) => JSON.parse(r.body).type === 'refund.succeeded')!;
    expect(signatureValid(delivered.signature, delivered.body, secret)).toBe(true);
    expect(signatureValid(delivered.signature, delivered.body, 'whsec_wrong')).toBe(false);
    expect(JSON.parse(delivered.body).data.object).toMatchObject({ amount: 500, reason: 'duplicate' });

    // The delivery log shows what was sent and what the receiver answered.
    await goTo(page, 'Webhooks');
    await page.getByRole('button', { name: `Delivery log of ${receiver.url}` }).click();
    const refundDelivery = page.getByTestId('delivery').filter({ hasText: 'refund.succeeded' });
    await expect(refundDelivery).toContainText('delivered');
    await expect(refundDelivery).toContainText('last answer 200');
    await refundDelivery.getByText('Request and responses').click();
    await expect(refundDelivery).toContainText('"type":"refund.succeeded"');
    await expect(refundDelivery).toContainText('thanks');
    await checkScreen(page);

    // A viewer sees no refund button, and the server refuses the refund itself.
    const { member: viewer, context } = await inviteMember(page, browser, 'viewer');
    await viewer.goto(paymentUrl);
    await expect(viewer.getByRole('heading', { level: 1 })).toContainText('$36.00');
    await expect(viewer.getByRole('region', { name: 'Timeline' })).toContainText('Refunded $5.00');
    await expect(viewer.getByRole('button', { name: /^Refund/ })).toHaveCount(0);
    const path = new URL(paymentUrl).pathname.replace('/dashboard/', '/dashboard/api/accounts/');
    const refused = await viewer.evaluate(async (url) => {
      const csrf = (await (await fetch('/dashboard/api/session')).json()).csrf_token;
      const res = await fetch(`${url}/refunds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ amount: 100 }),
      });
      return { status: res.status, code: (await res.json()).error.code };
    }, path);
    expect(refused).toEqual({ status: 403, code: 'insufficient_role' });
    await context.close();
    await receiver.close();
  });

  test('capture and void each ask for an in-page confirmation first; going back sends nothing @desktop', async ({ page, request }) => {
    await signUp(page, `Holds ${unique()}`);
    const base = new URL(page.url()).pathname.replace(/\/$/, '');
    // A secret key through the dashboard's own API, then two authorized (manual capture) payments.
    const key = await page.evaluate(
      async (path) => {
        const csrf = (await (await fetch('/dashboard/api/session')).json()).csrf_token;
        const res = await fetch(`/dashboard/api/accounts${path}/api-keys`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify({ kind: 'secret' }),
        });
        return (await res.json()).secret as string;
      },
      base.replace('/dashboard', ''),
    );
    const auth = { Authorization: `Bearer ${key}` };
    const authorize = async (amount: number) => {
      const session = await request.post('/v1/checkout/sessions', {
        headers: auth,
        data: { currency: 'usd', capture_method: 'manual', line_items: [{ name: 'Rental deposit', unit_amount: amount, quantity: 1 }] },
      });
      const { id } = await session.json();
      const card = { number: '4111111111111111', exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' };
      const token = await request.post(`/api/checkout/sessions/${id}/card-tokens`, { data: card });
      expect(token.status(), await token.text()).toBe(200);
      const paid = await request.post(`/api/checkout/sessions/${id}/payments`, {
        data: { payment_method_type: 'card', nonce: (await token.json()).nonce, email: 'held@buyer.example' },
      });
      expect(paid.status(), await paid.text()).toBe(200);
      return (await (await request.get(`/v1/payments?checkout_session=${id}`, { headers: auth })).json()).data[0].id as string;
    };
    const [toCapture, toVoid] = [await authorize(6000), await authorize(2500)];

    await page.goto(`${base}/payments/${toCapture}`);
    await page.getByRole('button', { name: 'Capture…' }).click();
    await page.getByLabel('Amount (USD)').fill('45.00');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    const captureConfirm = page.getByRole('dialog', {
      name: 'Capture $45.00 from the card? What is left of the authorization is released. This cannot be undone.',
    });
    await expect(captureConfirm.getByRole('button', { name: 'Back' })).toBeFocused();
    await checkScreen(page);
    await captureConfirm.getByRole('button', { name: 'Back' }).click();
    await expect(captureConfirm).toHaveCount(0);
    expect((await (await request.get(`/v1/payments/${toCapture}`, { headers: auth })).json()).status).toBe('requires_capture');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await captureConfirm.getByRole('button', { name: 'Confirm capture' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Captured' })).toHaveText('Captured $45.00.');

    await page.goto(`${base}/payments/${toVoid}`);
    await page.getByRole('button', { name: 'Void…' }).click();
    const voidConfirm = page.getByRole('dialog', { name: 'Void this authorization? The shopper is not charged, and it cannot be captured afterwards.' });
    await expect(voidConfirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await checkScreen(page);
    await voidConfirm.getByRole('button', { name: 'Void payment' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Voided' })).toBeVisible();
    expect((await (await request.get(`/v1/payments/${toVoid}`, { headers: auth })).json()).status).toBe('canceled');
  });

  test('processor settings check the connection; flags and experiments with results @desktop', async ({ page }) => {
    await signUp(page, `Settings ${unique()}`);

    await goTo(page, 'Processor');
    await expect(page.getByTestId('processor-current')).toContainText('built-in test processor');
    await page.getByRole('button', { name: 'Check connection' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Connection' })).toHaveText('Connection works (test).');
    await checkScreen(page);

    // Braintree credentials: the private key goes in, and never comes back out.
    await page.getByLabel('Processor', { exact: true }).selectOption('braintree');
    await page.getByLabel('Environment').selectOption('sandbox');
    await page.getByLabel('Merchant ID', { exact: true }).fill('shop_merchant');
    await page.getByLabel('Public key').fill('shop_public');
    await page.getByLabel('Private key').fill('very_secret_private_key');
    await page.getByLabel('Merchant accounts').fill('USD=shop_usd');
    await checkScreen(page);
    await page.getByRole('button', { name: 'Save processor settings' }).click();
    await expect(page.getByText('Saved. New payments in this mode use these settings.')).toBeVisible();
    await expect(page.getByTestId('processor-current')).toContainText('Braintree (sandbox), merchant shop_merchant; private key set.');
    await expect(page.getByLabel('Private key')).toHaveValue('');
    expect(await page.content()).not.toContain('very_secret_private_key');
    // Back to the test processor, so the account can still take test payments.
    await page.getByLabel('Processor', { exact: true }).selectOption('test');
    await page.getByRole('button', { name: 'Save processor settings' }).click();
    await expect(page.getByTestId('processor-current')).toContainText('built-in test processor');

    await goTo(page, 'Flags and experiments');
    const googlePay = page.getByRole('row').filter({ hasText: 'google_pay_enabled' });
    await expect(googlePay).toContainText('On');
    await googlePay.getByRole('checkbox').click();
    await expect(page.getByTestId('switch-off')).toContainText(
      'Shoppers can still pay with what remains on, where a session offers it (and, for a wallet, their device has it): card, Apple Pay, PayPal, Venmo.',
    );
    await page.getByRole('button', { name: 'Turn off Google Pay' }).click();
    await expect(googlePay.getByRole('checkbox')).not.toBeChecked();
    await expect(page.getByRole('status')).toHaveText('google_pay_enabled is now false.');
    await expect(googlePay).toContainText('Off');
    await page.getByLabel('What to vary').selectOption('pay_button_wording');
    await page.getByRole('button', { name: 'Create experiment' }).click();
    const experiment = page.getByRole('row').filter({ hasText: 'pay_button_wording' });
    await expect(experiment).toContainText('draft');
    await experiment.getByRole('button', { name: 'Start' }).click();
    await expect(experiment).toContainText('running');
    await experiment.getByRole('button', { name: /Results of/ }).click();
    const results = page.getByRole('region', { name: 'Results' });
    await expect(results.getByRole('row').filter({ hasText: 'pay_now' })).toContainText('0');
    await expect(page.getByTestId('verdict')).not.toBeEmpty();
    await checkScreen(page);
    await experiment.getByRole('button', { name: 'Stop' }).click();
    await expect(experiment).toContainText('stopped');

    await goTo(page, 'Audit log');
    for (const action of ['processor.set.braintree', 'flag.update', 'experiment.start', 'experiment.stop']) {
      await expect(page.getByRole('row').filter({ hasText: action }).first()).toBeVisible();
    }
  });
});
