import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiGet, createSession, checkScreen, payButton, payWithTestCard, secretKey, typeInto } from './support';

const post = async (request: APIRequestContext, path: string, data: unknown) => {
  const response = await request.post(path, { headers: { Authorization: `Bearer ${secretKey()}` }, data });
  expect(response.status(), await response.text()).toBe(200);
  return response.json();
};

const standard = {
  shipping_rate_data: {
    type: 'fixed_amount',
    display_name: 'Standard',
    fixed_amount: { amount: 500, currency: 'usd' },
    delivery_estimate: { minimum: { unit: 'business_day', value: 3 }, maximum: { unit: 'business_day', value: 5 } },
  },
};
const express = {
  shipping_rate_data: {
    type: 'fixed_amount',
    display_name: 'Express',
    fixed_amount: { amount: 1500, currency: 'usd' },
    delivery_estimate: { minimum: { unit: 'day', value: 1 }, maximum: { unit: 'day', value: 1 } },
  },
};

async function fillAddress(page: Page, fields: Record<string, string>) {
  const form = page.getByTestId('shipping-form');
  for (const [label, value] of Object.entries(fields)) {
    const field = form.getByLabel(label, { exact: true });
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
}

test.describe('shop options on the checkout page', () => {
  test("a promotion code refused then applied, a shipping choice and tax: the page shows the server's breakdown, and the payment carries it @desktop", async ({
    page,
    request,
  }) => {
    const suffix = Date.now().toString(36).toUpperCase();
    const coupon = await post(request, '/v1/coupons', { percent_off: 10, duration: 'once' });
    await post(request, '/v1/promotion_codes', { coupon: coupon.id, code: `SAVE10${suffix}` });
    const tax = await post(request, '/v1/tax_rates', { display_name: 'Sales tax', percentage: 10, inclusive: false });
    const session = await createSession(request, {
      line_items: [{ name: 'Kettle', unit_amount: 5000, quantity: 1, tax_rates: [tax.id] }],
      allow_promotion_codes: true,
      shipping_options: [standard, express],
    });
    await page.goto(session.url);
    const summary = page.locator('.summary');
    // 50.00 + 5.00 tax + 5.00 shipping.
    await expect(summary.getByTestId('subtotal')).toHaveText('$50.00');
    await expect(summary.getByTestId('shipping')).toHaveText('$5.00');
    await expect(summary.getByTestId('tax')).toHaveText('$5.00');
    // A tax line names its rate and percentage (docs/pricing.md).
    await expect(summary.getByTestId('tax').locator('xpath=preceding-sibling::dt')).toHaveText('Sales tax 10%');
    await expect(summary.getByTestId('total')).toHaveText('$60.00');
    await expect(page.getByRole('radio', { name: /Standard/ })).toBeChecked();
    await expect(page.getByTestId('shipping-choice')).toContainText('3–5 business days');
    await checkScreen(page);

    await page.getByRole('button', { name: 'Add promotion code' }).click();
    const code = page.getByLabel('Promotion code');
    // The field is drawn as one: a visible border, as the other fields have.
    await expect(code).toHaveCSS('border-top-style', 'solid');
    await expect(code).toHaveCSS('border-top-width', '1px');
    // A wrong code sent with Enter: the error is announced (an alert, and the field's description), the focus stays in the field.
    await code.fill('NOPE');
    await code.press('Enter');
    await expect(page.getByTestId('promo-error')).toHaveText('This code can’t be used for this order.');
    await expect(page.getByTestId('promo-error')).toHaveRole('alert');
    await expect(code).toHaveAttribute('aria-invalid', 'true');
    await expect(code).toHaveAccessibleDescription('This code can’t be used for this order.');
    await expect(code).toBeFocused();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(code).toBeFocused();
    await expect(summary.getByTestId('total')).toHaveText('$60.00');
    await checkScreen(page);
    await page.getByLabel('Promotion code').fill(`save10${suffix.toLowerCase()}`);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('promo-applied')).toContainText(`Code SAVE10${suffix} applied`);
    // 10 % off 50.00 = 5.00; tax on 45.00 = 4.50; + 5.00 shipping.
    await expect(summary.getByTestId('discount')).toHaveText('−$5.00');
    await expect(summary.getByTestId('tax')).toHaveText('$4.50');
    await expect(summary.getByTestId('total')).toHaveText('$54.50');

    await page.getByRole('radio', { name: /Express/ }).check();
    await expect(summary.getByTestId('shipping')).toHaveText('$15.00');
    await expect(summary.getByTestId('total')).toHaveText('$64.50');
    await expect(payButton(page)).toHaveText('Pay $64.50');
    await checkScreen(page);

    const payment = await payWithTestCard(page, request, session.id);
    expect(payment).toMatchObject({ status: 'succeeded', amount: 6450, total_details: { amount_discount: 500, amount_shipping: 1500, amount_tax: 450 } });
  });

  test('an address in the US, GB and JP formats, tax following the address, then pay: the payment carries shipping_details', async ({ page, request }) => {
    const california = await post(request, '/v1/tax_rates', { display_name: 'CA sales tax', percentage: 7.25, inclusive: false, country: 'US', state: 'CA' });
    const session = await createSession(request, {
      line_items: [{ name: 'Kettle', unit_amount: 10000, quantity: 1, dynamic_tax_rates: [california.id] }],
      shipping_address_collection: { allowed_countries: ['US', 'GB', 'JP', 'CA'] },
    });
    await page.goto(session.url);
    const form = page.getByTestId('shipping-form');
    await form.getByLabel('Country or region').selectOption('JP');
    // Japan writes the postal code first, then the prefecture, then the street, the name last.
    await expect(form.getByLabel('Prefecture')).toBeVisible();
    const order = await form.locator('input:not([type="checkbox"]), select').evaluateAll((fields) => fields.map((field) => field.getAttribute('autocomplete')));
    expect(order).toEqual([
      'shipping country',
      'shipping postal-code',
      'shipping address-level1',
      'shipping address-line1',
      'shipping address-line2',
      'shipping name',
    ]);
    await expect(payButton(page)).toBeEnabled();
    await checkScreen(page);

    await form.getByLabel('Country or region').selectOption('GB');
    await expect(form.getByLabel('Town/City')).toBeVisible();
    await expect(form.getByLabel('State')).toHaveCount(0);
    await fillAddress(page, { 'Full name': 'Ada Lovelace', Address: '10 Downing St', 'Town/City': 'London', 'Postal code': '12345' });
    await form.getByRole('button', { name: 'Use this address' }).click();
    await expect(form.getByText('Enter a valid postal code, such as EC1Y 8SY.')).toBeVisible();
    await checkScreen(page);
    await form.getByLabel('Postal code', { exact: true }).fill('sw1a 2aa');
    await form.getByRole('button', { name: 'Use this address' }).click();
    await expect(page.getByTestId('shipping-address')).toContainText('SW1A 2AA');
    await expect(page.locator('.summary').getByTestId('tax')).toHaveCount(0);

    // A saved address reads as its country writes it: in Canada, city, province and postal code on one line, in that order.
    await page.getByTestId('shipping-address').getByRole('button', { name: 'Change' }).click();
    await form.getByLabel('Country or region').selectOption('CA');
    await expect(form.getByLabel('Province')).toBeVisible();
    await fillAddress(page, { 'Full name': 'Ada Lovelace', Address: '100 King St W', City: 'Toronto', Province: 'ON', 'Postal code': 'm5h 2n2' });
    await form.getByRole('button', { name: 'Use this address' }).click();
    await expect(page.getByTestId('shipping-address').locator('.address-lines > span')).toHaveText([
      'Ada Lovelace',
      '100 King St W',
      'Toronto ON M5H 2N2',
      'Canada',
    ]);

    await page.getByTestId('shipping-address').getByRole('button', { name: 'Change' }).click();
    await form.getByLabel('Country or region').selectOption('US');
    await expect(form.getByLabel('ZIP code')).toHaveAttribute('autocomplete', 'shipping postal-code');
    await fillAddress(page, { 'Full name': 'Ada Lovelace', Address: '1 Infinite Loop', City: 'Cupertino', State: 'CA', 'ZIP code': '95014' });
    await form.getByRole('button', { name: 'Use this address' }).click();
    await expect(page.getByTestId('shipping-address')).toContainText('Cupertino');
    // 7.25 % of 100.00, the rate of California.
    await expect(page.locator('.summary').getByTestId('tax')).toHaveText('$7.25');
    await expect(page.locator('.summary').getByText('CA sales tax 7.25%')).toBeVisible();
    await expect(page.getByTestId('shipping-address').locator('.address-lines > span')).toHaveText([
      'Ada Lovelace',
      '1 Infinite Loop',
      'Cupertino CA 95014',
      'United States',
    ]);
    await expect(page.locator('.summary').getByTestId('total')).toHaveText('$107.25');
    await checkScreen(page);

    const payment = await payWithTestCard(page, request, session.id);
    expect(payment).toMatchObject({
      amount: 10725,
      total_details: { amount_tax: 725 },
      shipping_details: { name: 'Ada Lovelace', address: { line1: '1 Infinite Loop', city: 'Cupertino', state: 'CA', postal_code: '95014', country: 'US' } },
    });
  });

  test('Pay takes the address typed with it: what is missing is said and focused, billing is shipping by default, a tax change is shown before paying @desktop', async ({
    page,
    request,
  }) => {
    const california = await post(request, '/v1/tax_rates', { display_name: 'CA sales tax', percentage: 7.25, inclusive: false, country: 'US', state: 'CA' });
    const session = await createSession(request, {
      line_items: [{ name: 'Kettle', unit_amount: 10000, quantity: 1, dynamic_tax_rates: [california.id] }],
      shipping_address_collection: { allowed_countries: ['US'] },
      billing_address_collection: 'required',
    });
    await page.goto(session.url);
    const form = page.getByTestId('shipping-form');
    await expect(form.getByLabel('ZIP code')).toBeVisible();
    await expect(page.getByLabel('Billing address is the same as shipping')).toBeChecked();
    await expect(page.getByTestId('billing-form')).toHaveCount(0);
    await expect(payButton(page)).toHaveText('Pay $100.00');
    await expect(payButton(page)).toBeEnabled();
    await checkScreen(page);

    // The card's postal code is the billing address's: the card form does not ask it again.
    await expect(page.getByLabel('Postal code', { exact: true })).toBeHidden();
    const tokenized: Array<{ postal_code?: string }> = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/card-tokens')) tokenized.push(r.postDataJSON());
    });

    // Pay with the card filled in and no address: the address says what it lacks, focused.
    await page.getByLabel('Email').fill('shopper@example.com');
    await typeInto(page, 'Card number', '4111 1111 1111 1111');
    await typeInto(page, 'Expiry (MM / YY)', '12 / 34');
    await typeInto(page, 'Security code', '123');
    await payButton(page).click();
    await expect(page.locator('#form-notice')).toHaveText('Check the highlighted fields.');
    await expect(form.getByLabel('Full name')).toBeFocused();
    await expect(form.getByLabel('Full name')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('This field is required.').first()).toBeVisible();
    expect((await apiGet(request, `/v1/checkout/sessions/${session.id}`)).payment).toBeNull();
    await checkScreen(page);

    // Pay with the address typed, never "Use this address": saved with the payment. California's
    // tax changes the total, so the shopper sees it before paying it.
    await fillAddress(page, { 'Full name': 'Ada Lovelace', Address: '1 Infinite Loop', City: 'Cupertino', State: 'CA', 'ZIP code': '95014' });
    await payButton(page).click();
    await expect(page.locator('#form-notice')).toHaveText('The tax for this address changed the total. Check it, then press Pay again.');
    await expect(page.locator('.summary').getByTestId('total')).toHaveText('$107.25');
    await expect(payButton(page)).toHaveText('Pay $107.25');
    await expect(page.getByTestId('shipping-address')).toContainText('Cupertino');
    await payButton(page).click();
    await page.waitForURL(`**/c/${session.id}/done`);
    expect(tokenized.map((card) => card.postal_code)).toEqual(['95014']);
    const paid = await apiGet(request, `/v1/checkout/sessions/${session.id}`);
    const address = { line1: '1 Infinite Loop', city: 'Cupertino', state: 'CA', postal_code: '95014', country: 'US' };
    expect(paid).toMatchObject({ status: 'complete', amount_total: 10725, shipping_details: { name: 'Ada Lovelace', address } });
    // The billing address is the shipping one (the page's view of the session shows it).
    expect(await (await request.get(`/api/checkout/sessions/${session.id}`)).json()).toMatchObject({ billing_address: address });
    expect(await apiGet(request, `/v1/payments/${paid.payment}`)).toMatchObject({ amount: 10725, shipping_details: { address } });
  });

  test('in Arabic, right to left: breakdown, promotion code, shipping choice and address form, axe clean', async ({ page, request }) => {
    const session = await createSession(request, {
      locale: 'ar',
      allow_promotion_codes: true,
      shipping_options: [standard, express],
      shipping_address_collection: { allowed_countries: ['AE', 'SA'] },
      billing_address_collection: 'required',
    });
    await page.goto(session.url);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('group', { name: 'طريقة الشحن' })).toBeVisible();
    await expect(page.getByText('المجموع الفرعي')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'عنوان الشحن' })).toBeVisible();
    // The billing address is the shipping one until the shopper says otherwise.
    const same = page.getByLabel('عنوان الفوترة هو نفس عنوان الشحن');
    await expect(same).toBeChecked();
    await expect(page.getByRole('heading', { name: 'عنوان الفوترة' })).toHaveCount(0);
    await same.uncheck();
    await expect(page.getByRole('heading', { name: 'عنوان الفوترة' })).toBeVisible();
    await page.getByRole('button', { name: 'إضافة رمز ترويجي' }).click();
    await page.getByLabel('الرمز الترويجي').fill('NOPE');
    await page.getByRole('button', { name: 'تطبيق' }).click();
    await expect(page.getByTestId('promo-error')).toHaveText('لا يمكن استخدام هذا الرمز لهذا الطلب.');
    await checkScreen(page);
  });
});
