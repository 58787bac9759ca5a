import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { payAsShopper, signUp, unique, goTo } from './dashboard-support';
import { checkScreen } from './support';

/**
 * The merchant's webhook receiver (a third party's server): it answers 500 to the first
 * `payment.succeeded` it gets, 200 to everything after; `types` records what arrived.
 */
async function startFlakyReceiver() {
  const types: string[] = [];
  let failedOnce = false;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const type = JSON.parse(body).type as string;
      types.push(type);
      const fail = type === 'payment.succeeded' && !failedOnce;
      if (fail) failedOnce = true;
      res.writeHead(fail ? 500 : 200, { 'content-type': 'text/plain' }).end(fail ? 'down' : 'thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { types, url: `http://localhost:${(server.address() as AddressInfo).port}/hooks`, close: () => new Promise((r) => server.close(r)) };
}

test.describe("a payment's whole story", () => {
  test.describe.configure({ timeout: 90_000 });
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('line items, metadata, events with their deliveries, refund, resend and copy id @desktop', async ({ page, request }) => {
    const receiver = await startFlakyReceiver();
    await signUp(page, `Story ${unique()}`);
    const home = new URL(page.url()).pathname;

    await goTo(page, 'Webhooks');
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);

    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const headers = { Authorization: `Bearer ${(await page.getByTestId('new-key').textContent())!}` };
    const session = await (
      await request.post('/v1/checkout/sessions', {
        headers,
        data: {
          currency: 'usd',
          line_items: [
            { name: 'Walnut desk lamp', unit_amount: 4200, quantity: 2 },
            { name: 'Linen shade', unit_amount: 1600, quantity: 1 },
          ],
          metadata: { order_id: 'ORD-5521' },
          client_reference_id: 'crm-77',
        },
      })
    ).json();
    await payAsShopper(request, session.url, 'ivy.story@buyer.example');
    const payment = (await (await request.get(`/v1/payments?checkout_session=${session.id}`, { headers })).json()).data[0];
    // The receiver refuses payment.succeeded once: its delivery waits for a retry.
    await expect.poll(() => receiver.types.includes('payment.succeeded'), { timeout: 20_000 }).toBe(true);
    const refund = await (await request.post('/v1/refunds', { headers, data: { payment: payment.id, amount: 1000 } })).json();
    await expect.poll(() => receiver.types.includes('refund.succeeded'), { timeout: 20_000 }).toBe(true);

    await page.goto(`${home}/payments/${payment.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('$100.00');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('partially refunded');

    // Line items and metadata.
    const items = page.getByTestId('line-items');
    await expect(items.getByRole('row').filter({ hasText: 'Walnut desk lamp' })).toContainText('$84.00');
    await expect(items.getByRole('row').filter({ hasText: 'Linen shade' })).toContainText('$16.00');
    await expect(page.getByTestId('payment-metadata')).toContainText('order_id');
    await expect(page.getByTestId('payment-metadata')).toContainText('ORD-5521');
    await expect(page.getByTestId('payment-metadata')).toContainText('crm-77');
    await expect(page.getByRole('region', { name: 'Details' })).toContainText('ivy.story@buyer.example');
    await expect(page.getByTestId('payment-three-d-secure')).toHaveText('Not used');

    // The timeline: each event with the deliveries it caused.
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const paid = timeline.getByTestId('timeline-event').filter({ hasText: 'Payment succeeded' });
    await expect(paid.getByTestId('delivery')).toContainText(`${receiver.url}: retrying, 1 attempt, last answer 500`);
    const refunded = timeline.getByTestId('timeline-event').filter({ hasText: 'Refunded $10.00' });
    await expect(refunded.getByTestId('delivery')).toContainText('delivered, 1 attempt, last answer 200');
    await expect(page.getByRole('region', { name: 'Refunds' })).toContainText(refund.id);
    await expect(page.getByTestId('payment-request-log')).toContainText('POST /v1/refunds');
    await expect(page.getByTestId('payment-request-log')).toContainText('POST /v1/checkout/sessions');
    await checkScreen(page);

    // Resend the refused delivery: the worker sends it at once and the receiver now says 200.
    await paid.getByRole('button', { name: `Resend the delivery of Payment succeeded to ${receiver.url}` }).click();
    await expect(page.getByRole('status').filter({ hasText: 'due again now' })).toBeVisible();
    await expect
      .poll(
        async () => {
          await page.reload();
          return page
            .getByRole('region', { name: 'Timeline' })
            .getByTestId('timeline-event')
            .filter({ hasText: 'Payment succeeded' })
            .getByTestId('delivery')
            .textContent();
        },
        { timeout: 20_000 },
      )
      .toContain('delivered, 2 attempts, last answer 200');
    expect(receiver.types.filter((t) => t === 'payment.succeeded')).toHaveLength(2);

    // Copy the payment's id.
    await page.getByRole('button', { name: `Copy Payment id ${payment.id}` }).click();
    await expect(page.getByTestId('payment-id').getByRole('status')).toHaveText(`Copied ${payment.id}`);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(payment.id);
    await checkScreen(page);
    await receiver.close();
  });

  test("a payment link made with options in the dashboard: its session carries them, and the payment shows the shopper's answers", async ({
    page,
    request,
  }) => {
    await signUp(page, `Answers ${unique()}`);
    const home = new URL(page.url()).pathname;
    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const headers = { Authorization: `Bearer ${(await page.getByTestId('new-key').textContent())!}` };

    // The link form: a quantity the shopper may change from 1 to 4, promotion codes, two questions.
    await goTo(page, 'Payment links');
    await page.getByLabel('Product name').fill('Espresso cups, set of 2');
    await page.getByLabel('Price').fill('24.00');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByLabel(/Quantity of Espresso cups/).fill('1');
    await page.getByLabel('Shoppers may change the quantity of Espresso cups, set of 2').check();
    await page.getByLabel('Least quantity of Espresso cups, set of 2').fill('1');
    await page.getByLabel('Most quantity of Espresso cups, set of 2').fill('4');
    await page.getByLabel('Offer a promotion code field').check();
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 1', { exact: true }).fill('Gift message');
    await page.getByLabel('Question 1 may be left empty').check();
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 2', { exact: true }).fill('Colour');
    await page.getByLabel('Answer type of question 2').selectOption('dropdown');
    await page.getByLabel('Choices of question 2').fill('Ivory, Slate grey');
    await checkScreen(page);
    await page.getByRole('button', { name: 'Create payment link' }).click();
    const linkRow = page.getByRole('row').filter({ hasText: '1 × Espresso cups, set of 2' });
    await expect(linkRow.getByTestId('link-options')).toHaveText('promotion codes · asks “Gift message” · asks “Colour”');
    await checkScreen(page);

    // The shopper opens the link: the session carries the options.
    const opened = await request.get((await linkRow.getByTestId('link-url').textContent())!, { maxRedirects: 0 });
    expect(opened.status()).toBe(303);
    const sessionId = opened.headers().location!.split('/c/')[1]!;
    const session = await (await request.get(`/v1/checkout/sessions/${sessionId}`, { headers })).json();
    expect(session).toMatchObject({
      allow_promotion_codes: true,
      line_items: [{ name: 'Espresso cups, set of 2', adjustable_quantity: { enabled: true, minimum: 1, maximum: 4 } }],
      custom_fields: [
        { key: 'Giftmessage', label: { custom: 'Gift message' }, type: 'text', optional: true },
        {
          key: 'Colour',
          type: 'dropdown',
          optional: false,
          dropdown: {
            options: [
              { label: 'Ivory', value: 'Ivory' },
              { label: 'Slate grey', value: 'Slategrey' },
            ],
          },
        },
      ],
    });

    // The checkout page pays with the answers (what its custom-fields form sends).
    const token = await request.post(`/api/checkout/sessions/${sessionId}/card-tokens`, {
      data: { number: '4111111111111111', exp_month: 12, exp_year: 2034, cvc: '123', postal_code: '94107' },
    });
    expect(token.status(), await token.text()).toBe(200);
    const paid = await request.post(`/api/checkout/sessions/${sessionId}/payments`, {
      data: {
        payment_method_type: 'card',
        nonce: (await token.json()).nonce,
        email: 'rae.answers@buyer.example',
        custom_fields: { Giftmessage: 'Happy birthday, Sam!', Colour: 'Slategrey' },
      },
    });
    expect(paid.status(), await paid.text()).toBe(200);
    const payment = (await (await request.get(`/v1/payments?checkout_session=${sessionId}`, { headers })).json()).data[0];

    await page.goto(`${home}/payments/${payment.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('$24.00');
    const answers = page.getByTestId('payment-custom-fields');
    await expect(page.getByRole('heading', { name: "Shopper's answers" })).toBeVisible();
    await expect(answers.locator('dt')).toHaveText(['Gift message', 'Colour']);
    await expect(answers.locator('dd')).toHaveText(['Happy birthday, Sam!', 'Slate grey']);
    await checkScreen(page);
  });

  test('a payment link with shipping choices made in the dashboard: a price that is not one is refused, the link says its choices, and its page offers them', async ({
    page,
  }) => {
    await signUp(page, `Couriers ${unique()}`);
    await goTo(page, 'Payment links');
    await page.getByLabel('Product name').fill('Pour-over kettle');
    await page.getByLabel('Price').fill('48.00');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByLabel(/Quantity of Pour-over kettle/).fill('1');
    await page.getByLabel('Ask for a shipping address').check();
    await page.getByLabel('Countries you ship to').fill('US, CA');
    await page.getByRole('button', { name: 'Add a shipping choice' }).click();
    await page.getByLabel('Shipping choice 1', { exact: true }).fill('Courier');
    await page.getByLabel('Price of shipping choice 1').fill('6.505');
    await page.getByRole('button', { name: 'Add a shipping choice' }).click();
    await page.getByLabel('Shipping choice 2', { exact: true }).fill('Pick up at the roastery');
    await page.getByLabel('Price of shipping choice 2').fill('0');
    await checkScreen(page);

    // Half a cent is not a price: refused, and no link is made.
    await page.getByRole('button', { name: 'Create payment link' }).click();
    await expect(page.getByRole('alert')).toContainText('amount');
    await expect(page.getByRole('row').filter({ hasText: '1 × Pour-over kettle' })).toHaveCount(0);

    await page.getByLabel('Price of shipping choice 1').fill('6.50');
    await page.getByRole('button', { name: 'Create payment link' }).click();
    const linkRow = page.getByRole('row').filter({ hasText: '1 × Pour-over kettle' });
    await expect(linkRow.getByTestId('link-options')).toHaveText('ships to US, CA · Courier $6.50 · Pick up at the roastery $0.00');

    // The shopper opens the link: the page offers both choices, the first chosen.
    await page.goto((await linkRow.getByTestId('link-url').textContent())!);
    await expect(page.getByTestId('shipping-choice')).toContainText('Courier');
    await expect(page.getByTestId('shipping-choice')).toContainText('Pick up at the roastery');
    await expect(page.getByTestId('shipping')).toHaveText('$6.50');
  });
});

test.describe("a payment's order", () => {
  test.describe.configure({ timeout: 90_000 });

  test('lines, discount, shipping method, taxes, total, shipping and billing address and answers; a partial capture says what it took @desktop', async ({
    page,
    request,
  }) => {
    await signUp(page, `Order ${unique()}`);
    const home = new URL(page.url()).pathname;
    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const headers = { Authorization: `Bearer ${(await page.getByTestId('new-key').textContent())!}` };
    const call = async (path: string, data: object, merchant = true) => {
      const response = await request.post(path, { headers: merchant ? headers : {}, data });
      expect(response.status(), await response.text()).toBe(200);
      return response.json();
    };
    const coupon = await call('/v1/coupons', { percent_off: 10, duration: 'once' });
    await call('/v1/promotion_codes', { coupon: coupon.id, code: 'SPRING10' });
    const tax = await call('/v1/tax_rates', { display_name: 'Sales tax', percentage: 10, inclusive: false });
    const rate = (name: string, amount: number) => ({
      shipping_rate_data: { type: 'fixed_amount', display_name: name, fixed_amount: { amount, currency: 'usd' } },
    });
    const session = await call('/v1/checkout/sessions', {
      currency: 'usd',
      capture_method: 'manual',
      line_items: [{ name: 'Kettle', unit_amount: 5000, quantity: 1, tax_rates: [tax.id] }],
      allow_promotion_codes: true,
      shipping_address_collection: { allowed_countries: ['US'] },
      billing_address_collection: 'required',
      shipping_options: [rate('Standard', 500), rate('Express', 1500)],
      custom_fields: [{ key: 'giftnote', label: { type: 'custom', custom: 'Gift note' }, type: 'text', optional: true }],
    });
    // The shopper's page, through its own API: code, shipping choice, addresses, card, answer.
    const shopper = `/api/checkout/sessions/${session.id}`;
    await call(`${shopper}/promotion_code`, { code: 'SPRING10' }, false);
    await call(`${shopper}/shipping_rate`, { shipping_rate: session.shipping_options[1].shipping_rate.id }, false);
    await call(
      `${shopper}/addresses`,
      {
        shipping_details: { name: 'Ada Lovelace', address: { line1: '1 Infinite Loop', city: 'Cupertino', state: 'CA', postal_code: '95014', country: 'US' } },
        billing_address: { line1: '12 Analytical Row', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
      },
      false,
    );
    const { nonce } = await call(`${shopper}/card-tokens`, { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' }, false);
    await call(`${shopper}/payments`, { payment_method_type: 'card', nonce, email: 'ada@buyer.example', custom_fields: { giftnote: 'Happy birthday' } }, false);
    const payment = (await (await request.get(`/v1/payments?checkout_session=${session.id}`, { headers })).json()).data[0];
    // 50.00 − 5.00 discount + 15.00 shipping + 4.50 tax = 64.50 authorized; 60.00 of it captured.
    expect(payment.amount).toBe(6450);
    await call(`/v1/payments/${payment.id}/capture`, { amount: 6000 });

    await page.goto(`${home}/payments/${payment.id}`);
    await expect(page.getByTestId('payment-captured-of')).toHaveText('$60.00 captured of $64.50 authorized');
    const order = page.getByTestId('payment-order');
    await expect(order).toContainText('Subtotal$50.00');
    await expect(order).toContainText('Discount (SPRING10)−$5.00');
    await expect(order).toContainText('Shipping (Express)$15.00');
    await expect(order).toContainText('Sales tax 10%$4.50');
    await expect(order).toContainText('Total$64.50');
    await expect(page.getByTestId('payment-shipping-address')).toHaveText(['Ada Lovelace', '1 Infinite Loop', '95014 Cupertino CA', 'US'].join(''));
    await expect(page.getByTestId('payment-billing-address')).toContainText('12 Analytical Row');
    await expect(page.getByTestId('payment-custom-fields')).toContainText('Happy birthday');
    await expect(page.getByTestId('payment-timeline')).toContainText('Captured $60.00');
    await expect(page.getByTestId('payment-net')).toHaveText('$60.00');
    await checkScreen(page);
  });
});
