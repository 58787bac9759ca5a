import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { goTo, signUp, unique } from './dashboard-support';
import { atDesktopWidth, checkScreen } from './support';

/** Pays a session as its checkout page would: the test processor's card token, then the payment. */
async function payWithCard(request: APIRequestContext, sessionId: string) {
  const token = await (
    await request.post(`/api/checkout/sessions/${sessionId}/card-tokens`, {
      data: { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' },
    })
  ).json();
  return request.post(`/api/checkout/sessions/${sessionId}/payments`, {
    data: { payment_method_type: 'card', nonce: token.nonce, email: 'ana.lytics@buyer.example' },
  });
}

/** How many pixels of a canvas are drawn in the dashboard's accent colour (#1a56db), as the bars are. */
const barPixels = (canvas: Locator) =>
  canvas.evaluate((element: HTMLCanvasElement) => {
    const { data } = element.getContext('2d')!.getImageData(0, 0, element.width, element.height);
    let count = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] === 0x1a && data[i + 1] === 0x56 && data[i + 2] === 0xdb) count++;
    return count;
  });

test.describe('dashboard Analytics', () => {
  test.describe.configure({ timeout: 90_000 });

  test('the funnel, success rate by method and decline reasons, drawn beside their tables, over a period kept in the URL; back returns to the period before; axe clean @desktop', async ({
    page,
    request,
  }) => {
    await signUp(page, `Analytics ${unique()}`);
    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const headers = { Authorization: `Bearer ${(await page.getByTestId('new-key').textContent())!}` };
    const open = async (amount: number) =>
      (
        await (
          await request.post('/v1/checkout/sessions', {
            headers,
            data: { currency: 'usd', line_items: [{ name: 'Kettle', unit_amount: amount, quantity: 1 }] },
          })
        ).json()
      ).id as string;
    // A running experiment on the pay button; the first session's page is exposed to it.
    const experiment = await request.post('/v1/experiments', {
      headers,
      data: {
        key: 'pay_button_wording',
        variants: [
          { key: 'pay', weight: 1 },
          { key: 'pay_now', weight: 1 },
        ],
        planned_sample_size: 10,
        status: 'running',
      },
    });
    expect(experiment.status()).toBe(200);
    const exposedSession = await open(4000);
    expect((await (await request.post(`/api/checkout/sessions/${exposedSession}/exposures`, { data: { key: 'pay_button_wording' } })).json()).recorded).toBe(
      true,
    );
    // Four sessions: two paid, one declined (2001 Insufficient Funds), one never attempted.
    expect((await payWithCard(request, exposedSession)).status()).toBe(200);
    expect((await payWithCard(request, await open(5000))).status()).toBe(200);
    expect((await payWithCard(request, await open(200100))).status()).toBe(402);
    await open(1000);

    await goTo(page, 'Analytics');
    await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
    const funnel = page.getByTestId('analytics-funnel');
    await expect(funnel.getByRole('row', { name: /Sessions opened/ })).toContainText('4');
    await expect(funnel.getByRole('row', { name: /Payment attempted/ })).toContainText('75%');
    await expect(funnel.getByRole('row', { name: /^Paid/ })).toContainText('2');
    await expect(page.getByTestId('analytics-methods').getByRole('row', { name: /Card/ })).toHaveText(/Card\s*3\s*2\s*66\.7%/);
    await expect(page.getByTestId('analytics-declines').getByRole('row', { name: /insufficient_funds/ })).toContainText('100%');
    await expect(page.getByTestId('analytics-3ds').getByRole('row', { name: /Not requested/ })).toContainText('3');
    // The experiment: one session exposed and converted, its rate with a 95% interval.
    const results = page.getByTestId('analytics-experiment-pay_button_wording');
    await expect(results.getByRole('row').filter({ hasText: /^pay/ })).toHaveCount(2);
    await expect(results).toContainText(/100% \(\d+(\.\d)?% to 100%\)/);
    await expect(results.locator('caption')).toContainText('Not enough data yet');
    // Each of the four is drawn too (uPlot's bars, hidden from screen readers: the table beside reads out the values).
    for (const figure of ['funnel', 'methods', 'declines', '3ds']) {
      const chart = page.getByTestId(`analytics-${figure}-chart`);
      await expect(chart.locator('canvas')).toBeVisible();
      await expect(chart.locator('[aria-hidden="true"]')).toHaveCount(1);
      expect(await barPixels(chart.locator('canvas')), `${figure} draws its bars`).toBeGreaterThan(100);
    }
    // Each drawing is under its table on a phone, beside it on a wide screen; never off the page.
    const placed = async (figure: string) => {
      const [table, drawing] = [await page.getByTestId(`analytics-${figure}`).boundingBox(), await page.getByTestId(`analytics-${figure}-chart`).boundingBox()];
      expect(drawing!.x + drawing!.width, `${figure} drawn on the page`).toBeLessThanOrEqual(page.viewportSize()!.width);
      return drawing!.x > table!.x + table!.width ? 'beside' : drawing!.y > table!.y + table!.height - 1 ? 'under' : 'over it';
    };
    for (const figure of ['funnel', 'methods', 'declines', '3ds']) expect(await placed(figure), figure).toBe('under');
    await atDesktopWidth(page, async () => {
      for (const figure of ['funnel', 'methods', 'declines', '3ds']) expect(await placed(figure), figure).toBe('beside');
    });
    await checkScreen(page);

    // Last 7 days: the URL says so, and the figures are the same (everything happened today).
    await page.getByLabel('Period').selectOption('7');
    await expect(page).toHaveURL(/\/analytics\?days=7$/);
    await expect(funnel.getByRole('row', { name: /Sessions opened/ })).toContainText('4');

    // Custom dates: yesterday alone holds nothing.
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await page.getByLabel('Period').selectOption('custom');
    await page.getByLabel('From', { exact: true }).fill(yesterday);
    await page.getByLabel('To', { exact: true }).fill(yesterday);
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(new RegExp(`/analytics\\?from=${yesterday}&to=${yesterday}$`));
    await expect(funnel.getByRole('row', { name: /Sessions opened/ })).toContainText('0');
    await expect(page.getByText('No declined payments in this period.')).toBeVisible();
    await expect(page.getByTestId('analytics-declines-chart')).toHaveCount(0);
    await checkScreen(page);

    // A shared link opens the same period; the back button returns to the 7 days.
    await page.reload();
    await expect(page.getByText('No declined payments in this period.')).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/analytics\?days=7$/);
    await expect(funnel.getByRole('row', { name: /Sessions opened/ })).toContainText('4');
  });
});
