import { expect, test, type APIRequestContext } from '@playwright/test';
import { routeThirdParties } from './doubles/braintree-client-api';
import { apiGet, createSession, checkScreen, fillCheckout, payButton, secretKey } from './support';

const post = async (request: APIRequestContext, path: string, data: unknown) => {
  const response = await request.post(path, { headers: { Authorization: `Bearer ${secretKey()}` }, data });
  expect(response.status(), await response.text()).toBe(200);
  return response.json();
};

/** Three questions, one of each type: a required text, an optional number, a required choice. */
const questions = [
  { key: 'giftnote', label: { type: 'custom', custom: 'Gift note' }, type: 'text', text: { minimum_length: 3, maximum_length: 20 } },
  { key: 'vat', label: { type: 'custom', custom: 'VAT number' }, type: 'numeric', optional: true, numeric: { minimum_length: 8, maximum_length: 8 } },
  {
    key: 'grind',
    label: { type: 'custom', custom: 'Grind' },
    type: 'dropdown',
    dropdown: {
      options: [
        { label: 'Whole bean', value: 'whole' },
        { label: 'Espresso', value: 'espresso' },
      ],
    },
  },
];

const beans = { name: 'Beans', unit_amount: 1450, quantity: 2, adjustable_quantity: { enabled: true, minimum: 1, maximum: 3 } };
const papers = { name: 'Papers', unit_amount: 600, quantity: 1 };

test.describe('quantities and custom fields on the checkout page', () => {
  test('the stepper changes the total within its bounds; a required answer missing charges nothing; the payment carries the answers and the stepped amount', async ({
    page,
    request,
  }) => {
    const session = await createSession(request, { currency: 'usd', line_items: [beans, papers], custom_fields: questions });
    await page.goto(session.url);
    const total = page.locator('.summary').getByTestId('total');
    const quantity = page.getByRole('spinbutton', { name: 'Quantity for Beans' });
    const more = page.getByRole('button', { name: 'Increase quantity for Beans' });
    const fewer = page.getByRole('button', { name: 'Decrease quantity for Beans' });
    // 2 × 14.50 + 6.00.
    await expect(quantity).toHaveValue('2');
    await expect(total).toHaveText('$35.00');
    // Papers is not adjustable: no stepper for it.
    await expect(page.getByRole('spinbutton', { name: 'Quantity for Papers' })).toHaveCount(0);

    await more.click();
    await expect(quantity).toHaveValue('3');
    await expect(total).toHaveText('$49.50');
    await expect(more).toBeDisabled();
    await fewer.click();
    await expect(total).toHaveText('$35.00');
    await fewer.click();
    await expect(quantity).toHaveValue('1');
    await expect(total).toHaveText('$20.50');
    await expect(fewer).toBeDisabled();
    // A quantity typed beyond the maximum is refused on the page; the total stays.
    await quantity.fill('5');
    await quantity.press('Enter');
    await expect(page.getByTestId('quantity-stepper').getByRole('alert')).toHaveText('Choose a quantity from 1 to 3.');
    await expect(total).toHaveText('$20.50');
    await quantity.fill('2');
    await quantity.press('Enter');
    await expect(total).toHaveText('$35.00');
    await expect(page.getByTestId('quantity-stepper').getByRole('alert')).toHaveText('');
    await expect(payButton(page)).toHaveText('Pay $35.00');
    // The server priced it too.
    expect((await apiGet(request, `/v1/checkout/sessions/${session.id}`)).amount_total).toBe(3500);

    const fields = page.getByTestId('custom-fields');
    await expect(page.getByRole('group', { name: 'Additional information' })).toBeVisible();
    await expect(page.getByLabel('VAT number (optional)')).toBeVisible();
    await checkScreen(page);

    // Pay with nothing typed: the card form stops it, and the questions say what they lack too.
    await payButton(page).click();
    await expect(fields.getByText('This field is required.')).toHaveCount(2);
    await expect(page.getByLabel('Grind')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('VAT number (optional)')).toHaveAttribute('aria-invalid', 'false');

    // The gift note left empty, the VAT number with letters: messages beside them, nothing charged.
    await fillCheckout(page);
    await page.getByLabel('VAT number (optional)').fill('12AB5678');
    await page.getByLabel('Grind').selectOption('espresso');
    await payButton(page).click();
    await expect(page.locator('#form-notice')).toHaveText('Check the highlighted fields.');
    await expect(page.getByLabel('Gift note')).toBeFocused();
    await expect(page.getByLabel('Gift note')).toHaveAttribute('aria-invalid', 'true');
    await expect(fields.getByText('This field is required.')).toBeVisible();
    await expect(fields.getByText('Enter digits only.')).toBeVisible();
    await checkScreen(page);
    expect(await apiGet(request, `/v1/checkout/sessions/${session.id}`)).toMatchObject({ status: 'open', payment: null });

    await page.getByLabel('Gift note').fill('Hi');
    await page.getByLabel('VAT number (optional)').fill('12345678');
    await payButton(page).click();
    await expect(fields.getByText('Enter 3 to 20 characters.')).toBeVisible();
    await page.getByLabel('Gift note').fill('Happy birthday');
    await expect(fields.getByText('Enter 3 to 20 characters.')).toHaveCount(0);

    // The server's refusal of an answer shows beside its field (here the answer is changed on its way).
    await page.route('**/api/checkout/sessions/*/payments', async (route) => {
      const body = route.request().postDataJSON();
      await route.continue({ postData: JSON.stringify({ ...body, custom_fields: { ...body.custom_fields, grind: 'decaf' } }) });
    });
    await payButton(page).click();
    await expect(page.getByLabel('Grind')).toBeFocused();
    await expect(fields.getByText('This answer can’t be accepted. Check it and try again.')).toBeVisible();
    expect(await apiGet(request, `/v1/checkout/sessions/${session.id}`)).toMatchObject({ status: 'open', payment: null });
    await page.unroute('**/api/checkout/sessions/*/payments');

    // While the payment is under way, the quantity cannot change.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/checkout/sessions/*/payments', async (route) => {
      await held;
      await route.continue();
    });
    await payButton(page).click();
    await expect(more).toBeDisabled();
    await expect(fewer).toBeDisabled();
    await expect(quantity).toBeDisabled();
    await expect(page.getByLabel('Gift note')).toBeDisabled();
    release();
    await page.waitForURL(`**/c/${session.id}/done`);

    const paid = await apiGet(request, `/v1/checkout/sessions/${session.id}`);
    const payment = await apiGet(request, `/v1/payments/${paid.payment}`);
    expect(payment).toMatchObject({ status: 'succeeded', amount: 3500 });
    expect(paid.line_items[0]).toMatchObject({ name: 'Beans', quantity: 2, amount: 2900 });
    const answers = Object.fromEntries(
      payment.custom_fields.map((field: Record<string, any>) => [field.key, field.text?.value ?? field.numeric?.value ?? field.dropdown?.value]),
    );
    expect(answers).toEqual({ giftnote: 'Happy birthday', vat: '12345678', grind: 'espresso' });
  });

  test('every option on one page: an inclusive tax said as "Includes …", not added, the exclusive one following the quantity; hydrates without a warning, axe clean', async ({
    page,
    request,
  }) => {
    const console: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') console.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => console.push(`pageerror: ${error.message}`));
    const vat = await post(request, '/v1/tax_rates', { display_name: 'VAT', percentage: 20, inclusive: true });
    const levy = await post(request, '/v1/tax_rates', { display_name: 'Bottle levy', percentage: 10, inclusive: false });
    const session = await createSession(request, {
      currency: 'eur',
      locale: 'en',
      line_items: [
        { name: 'Kettle', unit_amount: 12000, quantity: 1, tax_rates: [vat.id] },
        { name: 'Water', unit_amount: 500, quantity: 2, tax_rates: [levy.id], adjustable_quantity: { enabled: true, minimum: 1, maximum: 6 } },
      ],
      custom_fields: questions,
      allow_promotion_codes: true,
      shipping_options: [{ shipping_rate_data: { type: 'fixed_amount', display_name: 'Standard', fixed_amount: { amount: 500, currency: 'eur' } } }],
      shipping_address_collection: { allowed_countries: ['DE', 'FR'] },
    });
    await routeThirdParties(page);
    // The server waits for the on-demand parts' modules, so even the first page after a start
    // carries their markup and the browser hydrates it without a warning.
    await page.goto(session.url);
    const breakdown = page.getByTestId('breakdown');
    const total = page.locator('.summary').getByTestId('total');
    // 120.00 with 20 % in it: 20.00 included; 10 % of 10.00 = 1.00 added; 5.00 shipping.
    await expect(breakdown).toContainText('Includes VAT 20% €20.00');
    await expect(breakdown.getByTestId('tax')).toHaveText('€1.00');
    await expect(breakdown).toContainText('Bottle levy');
    await expect(total).toHaveText('€136.00');
    await expect(page.getByRole('group', { name: 'Additional information' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add promotion code' })).toBeVisible();
    await expect(page.getByTestId('shipping-form')).toBeVisible();
    await checkScreen(page);

    // Three bottles: the levy on 15.00 is 1.50, priced by the server; the included VAT does not move.
    await page.getByRole('button', { name: 'Increase quantity for Water' }).click();
    await expect(breakdown.getByTestId('tax')).toHaveText('€1.50');
    await expect(breakdown).toContainText('Includes VAT 20% €20.00');
    await expect(total).toHaveText('€141.50');
    expect(console).toEqual([]);
  });

  test('in Arabic, right to left: the stepper, the questions and the included tax, axe clean', async ({ page, request }) => {
    const vat = await post(request, '/v1/tax_rates', { display_name: 'VAT', percentage: 5, inclusive: true });
    const session = await createSession(request, {
      currency: 'aed',
      locale: 'ar',
      line_items: [{ ...beans, unit_amount: 2100, tax_rates: [vat.id] }],
      custom_fields: questions,
    });
    await page.goto(session.url);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const quantity = page.getByRole('spinbutton', { name: 'الكمية لـ Beans' });
    const more = page.getByRole('button', { name: 'زيادة كمية Beans' });
    const fewer = page.getByRole('button', { name: 'تقليل كمية Beans' });
    await expect(quantity).toBeVisible();
    // Right to left: the first button (−) stands to the right of the second (+).
    const [fewerBox, moreBox] = [await fewer.boundingBox(), await more.boundingBox()];
    expect(fewerBox!.x).toBeGreaterThan(moreBox!.x);
    await expect(page.getByText('معلومات إضافية')).toBeVisible();
    await expect(page.getByLabel('VAT number (اختياري)')).toBeVisible();
    await expect(page.getByTestId('breakdown')).toContainText('يشمل VAT');
    await more.click();
    await expect(quantity).toHaveValue('3');
    await expect(more).toBeDisabled();
    await quantity.fill('9');
    await quantity.press('Enter');
    await expect(page.getByTestId('quantity-stepper').getByRole('alert')).toHaveText('اختر كمية من 1 إلى 3.');
    await page.getByRole('button', { name: /^ادفع/ }).click();
    await expect(page.getByTestId('custom-fields').getByText('هذا الحقل مطلوب.')).toHaveCount(2);
    await page.getByLabel('VAT number (اختياري)').fill('12');
    await page.getByLabel('VAT number (اختياري)').blur();
    await expect(page.getByTestId('custom-fields').getByText('أدخل أرقامًا فقط.')).toHaveCount(0);
    await expect(page.getByTestId('custom-fields').getByText('أدخل 8 أحرف بالضبط.')).toBeVisible();
    await checkScreen(page);
  });
});
