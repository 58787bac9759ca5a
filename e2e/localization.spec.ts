import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { routeThirdParties } from './doubles/braintree-client-api';
import { apiGet, createSession, checkScreen } from './support';

/** A catalogue as the translators wrote it: the page must show exactly these words. */
function catalogue(locale: string): Record<string, string> {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, '../web/checkout/i18n/locales', `${locale}.json`), 'utf8'));
}

/** The catalogue's message with one plain `{name}` filled in, as the page formats it. */
const fill = (message: string, values: Record<string, string>) => message.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);

/** Types a test card into the fields found by their labels in the shopper's language. */
async function payWithTestCard(page: Page, words: Record<string, string>) {
  await page.getByLabel(words['form.email']!, { exact: true }).fill('shopper@example.com');
  const type = async (key: string, digits: string) => {
    const field = page.getByLabel(words[key]!, { exact: true });
    await field.click();
    await field.pressSequentially(digits);
  };
  await type('form.cardNumber', '4111111111111111');
  await type('form.expiry', '1234');
  await type('form.cvc', '123');
  await type('form.postalCode', '94107');
}

async function expectReceipt(page: Page, request: Parameters<typeof apiGet>[0], sessionId: string, words: Record<string, string>) {
  await page.waitForURL(`**/c/${sessionId}/done`);
  await expect(page.getByRole('heading', { name: words['state.done.title']! })).toBeVisible();
  expect((await apiGet(request, `/v1/checkout/sessions/${sessionId}`)).status).toBe('complete');
}

test.describe('a shopper pays in their own language', () => {
  test('in Japanese, set by the merchant: yen without decimals, Japanese labels', async ({ page, request }) => {
    const ja = catalogue('ja');
    const session = await createSession(request, {
      currency: 'jpy',
      locale: 'ja',
      payment_method_types: ['card'],
      line_items: [{ name: '抹茶 100 g', unit_amount: 1800, quantity: 2 }],
    });
    await page.goto(session.url);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    const amount = new Intl.NumberFormat('ja', { style: 'currency', currency: 'JPY' }).format(3600);
    await expect(page.getByTestId('total')).toHaveText(amount);
    await expect(page.getByRole('button', { name: fill(ja['form.pay']!, { amount }) })).toBeVisible();
    await payWithTestCard(page, ja);
    await page.getByRole('button', { name: fill(ja['form.pay']!, { amount }) }).click();
    await expectReceipt(page, request, session.id, ja);
  });

  test.describe('in German, chosen by the browser (locale auto → Accept-Language)', () => {
    test.use({ locale: 'de-DE' });

    test('negotiates German and pays', async ({ page, request }) => {
      const de = catalogue('de');
      const session = await createSession(request, { currency: 'eur', payment_method_types: ['card'] });
      await page.goto(session.url);
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      const amount = new Intl.NumberFormat('de', { style: 'currency', currency: 'EUR' }).format(18);
      await expect(page.getByTestId('total')).toHaveText(amount);
      await expect(page.getByRole('heading', { name: de['summary.heading']! })).toBeVisible();
      await payWithTestCard(page, de);
      await page.getByRole('button', { name: fill(de['form.pay']!, { amount }) }).click();
      await expectReceipt(page, request, session.id, de);
    });
  });

  test.describe('in Mexican Spanish, chosen by the browser', () => {
    test.use({ locale: 'es-MX' });

    test('the Spanish catalogue, amounts as Mexico writes them (CLDR es-MX, not es) @desktop', async ({ page, request }) => {
      const es = catalogue('es');
      const session = await createSession(request, {
        currency: 'usd',
        payment_method_types: ['card'],
        line_items: [{ name: 'Taza', unit_amount: 1000, quantity: 1 }],
      });
      await page.goto(session.url);
      await expect(page.getByRole('heading', { name: es['summary.heading']! })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
      const [mexican, spanish] = await page.evaluate(() =>
        ['es-MX', 'es'].map((locale) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(10)),
      );
      expect(mexican).not.toBe(spanish);
      await expect(page.getByTestId('total')).toHaveText(mexican!);
      await expect(page.getByRole('button', { name: fill(es['form.pay']!, { amount: mexican! }) })).toBeVisible();
      await checkScreen(page);
    });
  });

  test('in Arabic: right to left, the summary on the right, card digits left to right, no axe violations', async ({ page, request }) => {
    const ar = catalogue('ar');
    const session = await createSession(request, { currency: 'usd', locale: 'ar', payment_method_types: ['card'] });
    await page.setViewportSize({ width: 1024, height: 900 }); // two columns
    await page.goto(session.url);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(page.getByRole('heading', { name: ar['summary.heading']! })).toBeVisible();

    // Mirrored layout: the order summary, first in reading order, stands to the right of the form.
    const summary = (await page.locator('.summary').boundingBox())!;
    const form = (await page.locator('.payment').boundingBox())!;
    expect(summary.x).toBeGreaterThan(form.x + form.width - 1);

    // The Pay button: an amount formatted for Arabic inside the Arabic message, nothing else.
    const amount = new Intl.NumberFormat('ar', { style: 'currency', currency: 'USD' }).format(18);
    const pay = page.getByRole('button', { name: fill(ar['form.pay']!, { amount }) });
    await expect(pay).toBeVisible();
    const label = (await pay.textContent())!;
    expect(label).not.toContain('Pay');
    // One script of digits in one message: Latin or Arabic-Indic, never both.
    expect(/[0-9]/.test(label) && /[\u0660-\u0669\u06f0-\u06f9]/.test(label), label).toBe(false);
    await checkScreen(page);

    await payWithTestCard(page, ar);
    const number = page.getByLabel(ar['form.cardNumber']!, { exact: true });
    await expect(number).toHaveValue('4111 1111 1111 1111');
    for (const key of ['form.cardNumber', 'form.expiry', 'form.cvc', 'form.postalCode']) {
      const input = page.getByLabel(ar[key]!, { exact: true });
      expect(await input.evaluate((el) => getComputedStyle(el).direction), key).toBe('ltr');
    }
    // The label above the field still reads right to left.
    expect(await page.locator('label[for="card-number"]').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    await checkScreen(page);
    await pay.click();
    await expectReceipt(page, request, session.id, ar);
    await checkScreen(page);
  });
});

test.describe("Google Pay's button", () => {
  test('speaks the page language (buttonLocale)', async ({ page, request }) => {
    await routeThirdParties(page);
    const session = await createSession(request, { locale: 'pt-BR' });
    await page.goto(session.url);
    await expect(page.getByTestId('google-pay').getByRole('button')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
    const buttons = await page.evaluate(() => (window as any).__payJsDouble.buttons);
    expect(buttons).toEqual([{ buttonType: 'pay', buttonLocale: 'pt' }]);
  });
});

test.describe('the pseudo-locale on a 375 px phone', () => {
  test('no text is clipped, and the page looks as it did', async ({ page, request }) => {
    const session = await createSession(request, {
      locale: 'en-XA',
      payment_method_types: ['card'],
      line_items: [
        { name: 'Ethiopia Guji, 250 g', unit_amount: 1800, quantity: 2 },
        { name: 'Filter papers', unit_amount: 600, quantity: 1 },
      ],
    });
    await page.goto(session.url);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const pay = page.locator('.pay-button');
    await expect(pay).toHaveText(/^⟦.*\$42\.00.*⟧$/);
    // Every element that holds text shows all of it: nothing overflows its box or the screen.
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('body *')]
        .filter((el) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim()))
        .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > window.innerWidth + 1)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent!.slice(0, 40)}`),
    );
    expect(clipped).toEqual([]);
    expect(page.viewportSize()!.width).toBe(375);
    await expect(page).toHaveScreenshot('pseudo-locale-375.png', { fullPage: true, maxDiffPixelRatio: 0.01 });
  });
});
