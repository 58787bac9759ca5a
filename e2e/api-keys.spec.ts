import { expect, test } from '@playwright/test';
import { goTo, signUp, unique } from './dashboard-support';
import { checkScreen } from './support';

test.describe('API keys on the Developers page', () => {
  // A long dashboard flow, as the other dashboard specs: more than the default minute on a loaded machine.
  test.describe.configure({ timeout: 90_000 });
  test('a named restricted key reads what it was granted and is refused the rest; a key is renamed, rolled, its permissions changed and revoked after a confirmation @desktop', async ({
    page,
    request,
  }) => {
    await signUp(page, `Keys ${unique()}`);
    await goTo(page, 'Developers');
    await expect(page.getByRole('heading', { name: 'Create a key' })).toBeVisible();

    // A restricted key: checkout sessions and payments read, customers write, nothing else.
    await page.getByLabel('Name', { exact: true }).fill('Reporting job');
    await page.getByRole('radio', { name: 'Restricted' }).check();
    await page.getByRole('radio', { name: 'checkout_sessions: Read' }).check();
    await page.getByRole('radio', { name: 'payments: Read' }).check();
    await page.getByRole('radio', { name: 'customers: Write' }).check();
    await checkScreen(page);
    await page.getByRole('button', { name: 'Create restricted key' }).click();
    const restricted = (await page.getByTestId('new-key').textContent())!;
    expect(restricted).toMatch(/^rk_test_/);
    const row = page.getByRole('row').filter({ hasText: 'Reporting job' });
    await expect(row).toContainText('checkout_sessions: read, payments: read, customers: write');
    await expect(row).toContainText('Never');

    const as = (key: string) => ({ Authorization: `Bearer ${key}` });
    expect((await request.get('/v1/payments', { headers: as(restricted) })).status()).toBe(200);
    expect((await request.post('/v1/customers', { headers: as(restricted), data: { email: 'ada@buyer.example' } })).status()).toBe(200);
    const refused = await request.post('/v1/checkout/sessions', {
      headers: as(restricted),
      data: { currency: 'usd', line_items: [{ name: 'Kettle', unit_amount: 4000, quantity: 1 }] },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.code).toBe('api_key_permission_denied');
    const refusedRead = await request.get('/v1/refunds', { headers: as(restricted) });
    expect(refusedRead.status()).toBe(403);
    expect((await refusedRead.json()).error.code).toBe('api_key_permission_denied');
    // Nothing was made by the refused call.
    expect((await (await request.get('/v1/checkout/sessions', { headers: as(restricted) })).json()).data).toEqual([]);
    await page.reload();
    await expect(row).not.toContainText('Never');

    // Rename it.
    await row.getByRole('button', { name: /^Rename rk_test_/ }).click();
    await page.getByRole('textbox', { name: /^Name of rk_test_/ }).fill('Nightly report');
    await page.getByRole('button', { name: 'Save' }).click();
    const renamed = page.getByRole('row').filter({ hasText: 'Nightly report' });
    await expect(renamed).toBeVisible();

    // Roll it: the old key keeps working for an hour beside the new one.
    await renamed.getByRole('button', { name: /^Roll rk_test_/ }).click();
    await expect(page.getByLabel('Old key stops working')).toHaveValue('3600');
    await checkScreen(page);
    await page.getByRole('button', { name: 'Roll key' }).click();
    const rolled = (await page.getByTestId('new-key').textContent())!;
    expect(rolled).toMatch(/^rk_test_/);
    expect(rolled).not.toBe(restricted);
    await expect(page.getByRole('row').filter({ hasText: 'Nightly report' })).toHaveCount(2);
    await expect(page.getByRole('row').filter({ hasText: /Expires/ })).toHaveCount(1);
    expect((await request.get('/v1/payments', { headers: as(restricted) })).status()).toBe(200);
    expect((await request.get('/v1/payments', { headers: as(rolled) })).status()).toBe(200);
    expect((await request.get('/v1/refunds', { headers: as(rolled) })).status()).toBe(403);

    // Roll the old one again with "Now": it stops at once.
    await page
      .getByRole('row')
      .filter({ hasText: /Expires/ })
      .getByRole('button', { name: /^Roll rk_test_/ })
      .click();
    await page.getByLabel('Old key stops working').selectOption({ label: 'Now' });
    await page.getByRole('button', { name: 'Roll key' }).click();
    await expect(page.getByTestId('new-key')).not.toHaveText(rolled);
    const gone = await request.get('/v1/payments', { headers: as(restricted) });
    expect(gone.status()).toBe(401);
    expect((await gone.json()).error.code).toBe('api_key_invalid');

    // Change the rolled key's permissions: refunds readable too; its secret stays.
    const rolledLabel = `${rolled.slice(0, 8)}…${rolled.slice(-4)}`;
    await page.getByRole('button', { name: `Change the permissions of ${rolledLabel}` }).click();
    const editor = page.getByRole('form', { name: `Permissions of Nightly report (${rolledLabel})` });
    await expect(editor.getByRole('radio', { name: 'payments: Read' })).toBeChecked();
    await editor.getByRole('radio', { name: 'refunds: Read' }).check();
    await checkScreen(page);
    await editor.getByRole('button', { name: 'Save permissions' }).click();
    await expect(editor).toHaveCount(0);
    await expect(page.getByRole('row').filter({ hasText: rolledLabel })).toContainText('refunds: read');
    expect((await request.get('/v1/refunds', { headers: as(rolled) })).status()).toBe(200);

    // Revoke the rolled key, after an in-page confirmation; Cancel keeps it.
    const revokeButton = page.getByRole('button', { name: `Revoke ${rolledLabel}` });
    await revokeButton.click();
    const confirm = page.getByRole('dialog', { name: `Revoke Nightly report (${rolledLabel})? Calls with it will be refused at once.` });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await checkScreen(page);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    expect((await request.get('/v1/payments', { headers: as(rolled) })).status()).toBe(200);
    await revokeButton.click();
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByRole('row').filter({ hasText: `${rolled.slice(0, 8)}…${rolled.slice(-4)}` })).toContainText('Revoked');
    const revoked = await request.get('/v1/payments', { headers: as(rolled) });
    expect(revoked.status()).toBe(401);
    expect((await revoked.json()).error.code).toBe('api_key_revoked');
    await page.getByRole('button', { name: 'Done' }).click();
    await checkScreen(page);
  });
});
