import { expect, test } from '@playwright/test';
import { goTo, payAsShopper, signUp, unique } from './dashboard-support';
import { checkScreen } from './support';

test.describe('overview charts', () => {
  test.describe.configure({ timeout: 90_000 });

  test('the chart library loads only where a chart is drawn; axes, the previous period, and tooltips read by keyboard', async ({ page, request }) => {
    const chartScripts: string[] = [];
    page.on('request', (r) => {
      if (/uPlot/i.test(r.url())) chartScripts.push(r.url());
    });
    await signUp(page, `Charts ${unique()}`);
    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const headers = { Authorization: `Bearer ${(await page.getByTestId('new-key').textContent())!}` };
    const session = await (
      await request.post('/v1/checkout/sessions', { headers, data: { currency: 'usd', line_items: [{ name: 'Kettle', unit_amount: 6400, quantity: 1 }] } })
    ).json();
    await payAsShopper(request, session.url, 'kim.chart@buyer.example');

    // A page without charts, opened afresh, does not load the library.
    await page.reload();
    await goTo(page, 'Payments');
    await expect(page.getByRole('row').filter({ hasText: 'kim.chart@buyer.example' })).toBeVisible();
    expect(chartScripts).toEqual([]);

    await goTo(page, 'Overview');
    const net = page.getByTestId('chart-net');
    await expect(net.locator('canvas')).toBeVisible();
    expect(chartScripts.some((u) => u.endsWith('.js'))).toBe(true);
    // Axis values are drawn by the library: its axes hold the value labels.
    await expect(net.locator('.u-axis').first()).toBeVisible();
    const plot = net.getByRole('group', { name: /^Net volume \(USD\)/ });
    await expect(plot).toBeVisible();
    await expect(net.locator('figcaption')).toContainText('$64.00');
    await expect(net.locator('figcaption')).toContainText('(previous period $0.00)');

    // Keyboard: focus the chart, the tooltip shows today's value; ← reads the day before.
    await plot.focus();
    const tooltip = net.getByTestId('chart-tooltip');
    const today = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date());
    await expect(tooltip).toHaveText(new RegExp(`^${today}: \\$64\\.00 · previous period, .+: \\$0\\.00$`));
    await expect(tooltip).toHaveAttribute('role', 'status');
    await page.keyboard.press('ArrowLeft');
    await expect(tooltip).toHaveText(/: \$0\.00 · previous period, .+: \$0\.00$/);
    await expect(tooltip).not.toContainText(today);
    await page.keyboard.press('End');
    await expect(tooltip).toContainText(`${today}: $64.00`);
    await page.keyboard.press('Home');
    await expect(tooltip).not.toContainText(today);

    // The values are in a table too.
    await net.getByText(/Values by day/).click();
    await expect(net.getByRole('columnheader', { name: 'Previous period', exact: true })).toBeVisible();
    await expect(net.getByRole('row').last()).toContainText('$64.00');
    await checkScreen(page);
  });
});
