import { freePort } from '../test/support/processes';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { PASSWORD, inviteMember, payAsShopper, signUp, unique, goTo } from './dashboard-support';
import { checkScreen, fillCheckout, payButton } from './support';
import { startSmtpReceiver } from '../test/support/smtp-receiver';

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
}

/** The code an authenticator app shows for `secret`, `aheadSteps` 30-second steps from now. */
function codeFor(secret: string, aheadSteps = 0) {
  return new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + aheadSteps * 30_000 });
}

test.describe('a fresh install, closed by default', () => {
  test.describe.configure({ mode: 'serial', timeout: 90_000 });
  // A server of its own, started as a newcomer does (no SIGNUP set): its first start prints the
  // demo key, the demo checkout and the setup link.
  let server: ChildProcess;
  // The mail server's double: password reset links by email go here.
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let base = '';
  let output = '';
  const ownerEmail = `operator-${unique()}@roasters.example`;

  test.beforeAll(async () => {
    // A fresh embedded database takes a while to create (PGlite's initdb): seconds alone, over a
    // minute on a loaded 2-core machine running both test runners beside it (startServe's bound too).
    test.setTimeout(180_000);
    const port = await freePort();
    base = `http://localhost:${port}`;
    smtp = await startSmtpReceiver();
    const env: Record<string, string> = { ...(process.env as Record<string, string>) };
    for (const name of ['SIGNUP', 'DATABASE_URL']) delete env[name];
    server = spawn(process.execPath, [path.resolve(import.meta.dirname, '..', 'bin', 'tillpoint.js'), 'serve'], {
      env: {
        ...env,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tillpoint-e2e-fresh-')),
        PORT: String(port),
        PUBLIC_URL: base,
        LOG_LEVEL: 'warn',
        SMTP_URL: smtp.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 150_000;
    while (!/Dashboard: /.test(output)) {
      if (server.exitCode !== null) throw new Error(`tillpoint serve exited: ${output}`);
      if (Date.now() > deadline) throw new Error(`tillpoint serve did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  test.afterAll(async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await smtp.close();
  });

  test('the setup link printed on the first start claims the demo account, whose demo payment is there @desktop', async ({ page, browser }) => {
    const setupUrl = /setup link:\s+(\S+)/.exec(output)?.[1];
    const demoCheckout = /Demo checkout: (\S+)/.exec(output)?.[1];
    expect(setupUrl, output).toMatch(new RegExp(`^${base}/dashboard/setup/setup_`));
    // The newcomer pays the demo link first in a browser of their own, as the start-up message suggests.
    const shopper = await browser.newContext();
    const checkout = await shopper.newPage();
    await checkout.goto(demoCheckout!);
    await fillCheckout(checkout, { email: 'first.shopper@buyer.example' });
    await payButton(checkout).click();
    await expect(checkout.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    await shopper.close();

    await page.goto(setupUrl!);
    await expect(page.getByRole('heading', { name: 'Claim Demo Coffee Roasters' })).toBeVisible();
    await checkScreen(page);
    await page.getByLabel('Your name').fill('Opal Operator');
    await page.getByLabel('Email').fill(ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create owner and sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await expect(page.locator('.account-switch option:checked')).toHaveText('Demo Coffee Roasters (owner)');
    await goTo(page, 'Payments');
    const row = page.getByRole('row').filter({ hasText: 'first.shopper@buyer.example' });
    await expect(row).toContainText('$35.00');

    // Used once: the same link no longer works.
    await page.goto(setupUrl!);
    await expect(page.getByRole('heading', { name: 'This setup link does not work' })).toBeVisible();
    await checkScreen(page);
  });

  test('sign-up is refused: the page says so and the API answers sign_up_closed', async ({ page }) => {
    await page.goto(`${base}/dashboard/sign-in`);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create an account' })).toHaveCount(0);
    await page.goto(`${base}/dashboard/sign-up`);
    await expect(page.getByRole('heading', { name: 'Sign-up is closed' })).toBeVisible();
    await checkScreen(page);
    const refused = await page.evaluate(async () => {
      const session = await (await fetch('/dashboard/api/session')).json();
      const res = await fetch('/dashboard/api/sign-up', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
        body: JSON.stringify({ email: 'squatter@evil.example', password: 'a long enough passphrase', name: 'S', business_name: 'Squat' }),
      });
      return { status: res.status, code: (await res.json()).error.code };
    });
    expect(refused).toEqual({ status: 403, code: 'sign_up_closed' });
  });

  test('invite → join: the owner invites, the invitee joins the demo account', async ({ page, browser }) => {
    await page.goto(`${base}/dashboard/sign-in`);
    await signIn(page, ownerEmail);
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await goTo(page, 'Team');
    await page.getByLabel('Role', { exact: true }).selectOption('support');
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const link = (await page.getByTestId('invite-link').textContent())!;
    expect(link.startsWith(`${base}/dashboard/invite/`)).toBe(true);
    const context = await browser.newContext();
    const member = await context.newPage();
    await member.goto(link);
    await expect(member.getByRole('heading', { name: 'Join Demo Coffee Roasters' })).toBeVisible();
    await member.getByLabel('Your name').fill('Sue Support');
    await member.getByLabel('Email').fill(`support-${unique()}@roasters.example`);
    await member.getByLabel('Password').fill(PASSWORD);
    await member.getByRole('button', { name: 'Create user and join' }).click();
    await expect(member.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await goTo(member, 'Payments');
    await expect(member.getByRole('row').filter({ hasText: '$35.00' })).toBeVisible();
    // Support may not read API keys: the Developers page, opened by its address, says only that.
    await member.goto(member.url().replace(/\/payments$/, '/developers'));
    await expect(member.getByRole('heading', { level: 1 })).toHaveText('Developers');
    await expect(member.getByRole('alert')).toHaveText('Your role does not allow this. Ask an owner or an admin.');
    await expect(member.getByText(/Loading/)).toHaveCount(0);
    await expect(member.getByRole('table')).toHaveCount(0);
    await checkScreen(member);
    await context.close();
  });

  test('the owner creates another account from the dashboard', async ({ page }) => {
    await page.goto(`${base}/dashboard/sign-in`);
    await signIn(page, ownerEmail);
    await page.getByRole('link', { name: 'New account' }).click();
    await expect(page.getByRole('heading', { name: 'New account' })).toBeVisible();
    await checkScreen(page);
    await page.getByLabel('Business name').fill('Second Roastery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await expect(page.locator('.account-switch option:checked')).toHaveText('Second Roastery (owner)');
  });

  test('forgot password: a reset link arrives by email and sets a new password', async ({ page }) => {
    await page.goto(`${base}/dashboard/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await checkScreen(page);
    const arriving = smtp.next();
    await page.getByLabel('Email').fill(ownerEmail);
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await expect(page.getByRole('status')).toContainText('a reset link is on its way');
    const mail = await arriving;
    expect(mail.to).toEqual([ownerEmail]);
    const link = /(http:\/\/localhost:\d+\/dashboard\/reset-password\/pwr_[A-Za-z0-9]{32})/.exec(mail.raw.replace(/=\r?\n/g, ''))![1]!;
    await page.goto(link);
    await page.getByLabel('New password').fill('an emailed new passphrase');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByRole('heading', { name: 'Your password is set' })).toBeVisible();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, ownerEmail, 'an emailed new passphrase');
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  });

  test('receipts: the owner turns them on in Settings, a paying shopper gets one, and "Resend receipt" sends it again', async ({ page, request }) => {
    const demoCheckout = /Demo checkout: (\S+)/.exec(output)![1]!;
    await page.goto(`${base}/dashboard/sign-in`);
    await signIn(page, ownerEmail, 'an emailed new passphrase');
    await goTo(page, 'Settings');
    await page.getByLabel('Support email').fill('help@roasters.example');
    const sendReceipts = page.getByLabel(/Email shoppers a receipt when they pay/);
    await expect(sendReceipts).not.toBeChecked();
    await sendReceipts.check();
    await page.getByRole('form', { name: 'Business profile and branding' }).getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved. Your checkout page now shows these.')).toBeVisible();
    await checkScreen(page);

    const arriving = smtp.next();
    await payAsShopper(request, demoCheckout, 'receipt.shopper@buyer.example');
    const receipt = await arriving;
    expect(receipt.to).toEqual(['receipt.shopper@buyer.example']);
    const text = receipt.raw.replace(/=\r?\n/g, '');
    expect(text).toMatch(/Subject: Your receipt from Demo Coffee Roasters/);
    expect(text).toContain('$35.00');
    expect(text).toContain('help@roasters.example');

    await goTo(page, 'Payments');
    await page.getByRole('row').filter({ hasText: 'receipt.shopper@buyer.example' }).getByRole('link', { name: /^pay_/ }).click();
    const again = smtp.next();
    await page.getByRole('button', { name: 'Resend receipt' }).click();
    await expect(page.getByText('Receipt sent to receipt.shopper@buyer.example.')).toBeVisible();
    expect((await again).to).toEqual(['receipt.shopper@buyer.example']);
  });
});

test.describe('account security', () => {
  // Each test signs up (argon2id) more than once; the phone profile needs the room.
  test.describe.configure({ timeout: 90_000 });

  test('password change: the current password is checked, the new one signs in', async ({ page }) => {
    const email = await signUp(page, `Password ${unique()}`);
    await page.getByRole('link', { name: 'Your security' }).click();
    await expect(page.getByRole('heading', { name: 'Your security' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'This browser' })).toBeVisible();
    await checkScreen(page);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill('an even longer passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('alert')).toHaveText('The current password is not right');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('alert')).toHaveText('The new password is your current password: choose a different one');
    await page.getByLabel('New password').fill('an even longer passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toBeVisible();
    await signOut(page);
    await signIn(page, email);
    await expect(page.getByRole('alert')).toHaveText('The email or password is not right');
    await page.getByLabel('Password').fill('an even longer passphrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  });

  test('reset link: an owner makes one for a member, who sets a new password with it', async ({ page, browser }) => {
    await signUp(page, `Reset ${unique()}`);
    const { member, context } = await inviteMember(page, browser, 'viewer');
    const memberEmail = (await member.locator('.user').textContent())!;
    // The Team page, loaded again now that the member has joined.
    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: memberEmail })).toBeVisible();
    await checkScreen(page);
    await page.getByRole('button', { name: `Make a password reset link for ${memberEmail}` }).click();
    const link = (await page.getByTestId('reset-link').textContent())!;
    expect(link).toMatch(/\/dashboard\/reset-password\/pwr_/);

    await member.goto(link);
    await expect(member.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
    await checkScreen(member);
    await member.getByLabel('New password').fill('a brand new passphrase');
    await member.getByRole('button', { name: 'Set password' }).click();
    await expect(member.getByRole('heading', { name: 'Your password is set' })).toBeVisible();
    await member.getByRole('link', { name: 'Sign in' }).click();
    await signIn(member, memberEmail, 'a brand new passphrase');
    await expect(member.getByRole('heading', { name: 'Overview' })).toBeVisible();
    // Used once.
    await member.goto(link);
    await expect(member.getByRole('heading', { name: 'This reset link does not work' })).toBeVisible();
    await context.close();
  });

  test('two-step verification: enrol, sign in with a code, refuse a wrong one, sign in with a recovery code @desktop', async ({ page }) => {
    const email = await signUp(page, `TOTP ${unique()}`);
    await page.getByRole('link', { name: 'Your security' }).click();
    await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
    await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    await checkScreen(page);
    const secret = (await page.getByTestId('totp-secret').textContent())!;
    await page.getByLabel('Code from your authenticator app').fill(codeFor(secret));
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
    const codes = (await page.getByTestId('recovery-codes').locator('li').allTextContents()).map((c) => c.trim());
    await expect(page.getByText('Recovery codes left: 10')).toBeVisible();
    await checkScreen(page);

    await signOut(page);
    await signIn(page, email);
    await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    await checkScreen(page);
    const wrong = String((Number(codeFor(secret, 1)) + 1) % 1_000_000).padStart(6, '0');
    await page.getByLabel('Code from your authenticator app').fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('The code is not right');
    // The code the app shows next (the one used to turn it on is not taken twice).
    await page.getByLabel('Code from your authenticator app').fill(codeFor(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();

    await signOut(page);
    await signIn(page, email);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await page.getByRole('link', { name: 'Your security' }).click();
    await expect(page.getByText('Recovery codes left: 9')).toBeVisible();
  });

  test('signed-in browsers: revoke another session, which is signed out at once', async ({ page, browser }) => {
    const email = await signUp(page, `Sessions ${unique()}`);
    const other = await browser.newContext();
    const laptop = await other.newPage();
    await laptop.goto('/dashboard/sign-in');
    await signIn(laptop, email);
    await expect(laptop.getByRole('heading', { name: 'Overview' })).toBeVisible();

    await page.getByRole('link', { name: 'Your security' }).click();
    const sessions = page.getByRole('table', { name: 'Signed-in browsers' });
    await expect(sessions.getByRole('row')).toHaveCount(3);
    await sessions.getByRole('button', { name: /^Sign out the browser signed in/ }).click();
    await expect(sessions.getByRole('row')).toHaveCount(2);
    await expect(sessions).toContainText('This browser');

    await goTo(laptop, 'Payments');
    await laptop.reload();
    await expect(laptop.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await other.close();
  });
});
