import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { joinByInvite, signUp, unique, goTo } from './dashboard-support';
import { checkScreen } from './support';

/** Braintree's dispute test card: the test processor opens a dispute five seconds after capture. */
const DISPUTE_CARD = { number: '4023898493988028', exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' };

/** A tiny PDF and PNG, real types by their first bytes (the server checks them). */
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

interface Dispute {
  id: string;
  payment: string;
  status: string;
  reply_by: number;
}

/** A shopper pays a new session with the dispute test card, through the checkout page's own endpoints. */
async function payWithDisputeCard(request: APIRequestContext, key: string, amount: number): Promise<string> {
  const auth = { Authorization: `Bearer ${key}` };
  const session = await request.post('/v1/checkout/sessions', {
    headers: auth,
    data: { currency: 'usd', line_items: [{ name: 'Burundi Kayanza, 1 kg', unit_amount: amount, quantity: 1 }] },
  });
  expect(session.status(), await session.text()).toBe(200);
  const { id } = await session.json();
  const token = await request.post(`/api/checkout/sessions/${id}/card-tokens`, { data: DISPUTE_CARD });
  expect(token.status(), await token.text()).toBe(200);
  const paid = await request.post(`/api/checkout/sessions/${id}/payments`, {
    data: { payment_method_type: 'card', nonce: (await token.json()).nonce, email: 'kim.shopper@buyer.example' },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const payments = await request.get(`/v1/payments?checkout_session=${id}`, { headers: auth });
  return (await payments.json()).data[0].id as string;
}

/** Waits for the bank's dispute on each payment (the server reads the test processor's every 5 s). */
async function disputesOf(request: APIRequestContext, key: string, paymentIds: string[]): Promise<Dispute[]> {
  let found: Dispute[] = [];
  await expect
    .poll(
      async () => {
        const list = await request.get('/v1/disputes?limit=100', { headers: { Authorization: `Bearer ${key}` } });
        found = (await list.json()).data;
        return paymentIds.every((p) => found.some((d) => d.payment === p));
      },
      { timeout: 20_000, intervals: [500] },
    )
    .toBe(true);
  return paymentIds.map((p) => found.find((d) => d.payment === p)!);
}

/**
 * The owner invites a member with a role (through the dashboard's own API, as the Team page does)
 * and the member joins in a browser of their own. Several may join at once.
 */
async function addMember(owner: Page, browser: Browser, accountPath: string, role: string) {
  const url = await owner.evaluate(
    async ({ path, role }) => {
      const csrf = (await (await fetch('/dashboard/api/session')).json()).csrf_token;
      const res = await fetch(`/dashboard/api/accounts/${path}/invites`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ role }),
      });
      return (await res.json()).url as string;
    },
    { path: accountPath, role },
  );
  return joinByInvite(browser, url, role);
}

/** Reloads the dispute's page until its heading shows the status the processor decided. */
async function expectDecided(page: Page, url: string, status: string) {
  await expect(async () => {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(status, { timeout: 1000 });
  }).toPass({ timeout: 20_000, intervals: [500] });
}

test.describe('disputes', () => {
  test.describe.configure({ timeout: 180_000 });

  test('inbox by reply-by; evidence with a file (refused types and sizes said plainly); submit → won and lost; accept; roles @desktop', async ({
    page,
    browser,
    request,
  }) => {
    const ownerEmail = await signUp(page, `Disputed ${unique()}`);
    const base = new URL(page.url()).pathname.replace(/\/$/, '');
    expect(base).toMatch(/^\/dashboard\/acct_\w+\/test$/);
    await goTo(page, 'Developers');
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    expect(key).toMatch(/^sk_test_/);

    // Three payments, each captured in a second of its own, so their reply-by times differ; the
    // banks open the disputes while the team is invited.
    const paying = (async () => {
      const ids: string[] = [];
      for (const amount of [4200, 3100, 2500]) {
        if (ids.length) await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 50));
        ids.push(await payWithDisputeCard(request, key, amount));
      }
      return ids;
    })();
    const accountId = base.split('/')[2]!;
    const [viewer, support] = await Promise.all([addMember(page, browser, accountId, 'viewer'), addMember(page, browser, accountId, 'support')]);
    const [won, lost, accepted] = await disputesOf(request, key, await paying);
    expect(won!.reply_by).toBeLessThan(lost!.reply_by);
    expect(lost!.reply_by).toBeLessThan(accepted!.reply_by);

    // The inbox: soonest reply-by first (the API lists newest first), each with the time left.
    await goTo(page, 'Disputes');
    const rows = page.getByTestId('disputes').getByRole('row').filter({ hasText: 'pay_' });
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText('$42.00');
    await expect(rows.nth(1)).toContainText('$31.00');
    await expect(rows.nth(2)).toContainText('$25.00');
    for (const [i, dispute] of [won, lost, accepted].entries()) {
      await expect(rows.nth(i)).toContainText(dispute!.payment);
      await expect(rows.nth(i)).toContainText('needs response');
      // Seven days from when the bank opened it, counted to the reply-by date: 7, as the processor says.
      await expect(rows.nth(i)).toContainText('7 days left');
    }
    // Search everywhere finds a dispute by its id, and by its payment's id, and opens it.
    for (const term of [won!.id, won!.payment]) {
      await page.getByRole('heading', { level: 1 }).click();
      await page.keyboard.press('/');
      await page.getByRole('searchbox', { name: 'Search payments, sessions, refunds, links, customers and disputes' }).fill(term);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Search: ${term}`);
      await expect(page.getByRole('region', { name: 'Disputes' })).toContainText('$42.00');
    }
    await page.getByRole('region', { name: 'Disputes' }).getByRole('link', { name: won!.id }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('$42.00');
    await goTo(page, 'Disputes');

    // The second is answered at once through the API, with Braintree's losing text: the bank
    // decides it while the first is answered in the browser.
    const auth = { Authorization: `Bearer ${key}` };
    expect((await request.post(`/v1/disputes/${lost!.id}`, { headers: auth, data: { text: 'losing_evidence' } })).status()).toBe(200);
    expect((await request.post(`/v1/disputes/${lost!.id}/submit`, { headers: auth })).status()).toBe(200);

    // It fits a phone's width: the ids break rather than push the page sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
    await checkScreen(page);

    // A viewer reads the open dispute and has nothing to press.
    const wonUrl = `${base}/disputes/${won!.id}`;
    await viewer.member.goto(wonUrl);
    await expect(viewer.member.getByRole('heading', { level: 1 })).toContainText('$42.00');
    await expect(viewer.member.getByText('Your role can read disputes but not answer them.')).toBeVisible();
    for (const name of ['Add', 'Submit evidence', 'Accept dispute']) {
      await expect(viewer.member.getByRole('button', { name, exact: true })).toHaveCount(0);
    }
    await expect(viewer.member.getByLabel('Text', { exact: true })).toHaveCount(0);
    await viewer.context.close();

    // Support may add evidence, but neither submit nor accept.
    await support.member.goto(wonUrl);
    await expect(support.member.getByRole('button', { name: 'Add', exact: true })).toBeVisible();
    await expect(support.member.getByRole('button', { name: 'Submit evidence' })).toHaveCount(0);
    await expect(support.member.getByRole('button', { name: 'Accept dispute' })).toHaveCount(0);
    await support.context.close();

    // The owner answers the first: refused files are said plainly, and nothing is sent.
    await rows.nth(0).getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`${wonUrl}$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('needs response');
    await expect(page.getByText('No evidence yet.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit evidence' })).toBeDisabled();
    const fileInput = page.getByLabel('File (JPEG, PNG or PDF, at most 4 MB)');
    const add = page.getByRole('button', { name: 'Add', exact: true });
    await fileInput.setInputFiles({ name: 'receipt.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await add.click();
    await expect(page.getByRole('alert')).toHaveText('This file is not a JPEG, PNG or PDF.');
    await fileInput.setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([pdf, Buffer.alloc(4 * 1024 * 1024)]) });
    await add.click();
    await expect(page.getByRole('alert')).toHaveText('This file is larger than 4 MB.');
    // Named and typed PNG, but a PDF inside: the server refuses it by its bytes.
    await fileInput.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: pdf });
    await add.click();
    await expect(page.getByRole('alert')).toHaveText("The file's content is not image/png");
    await expect(page.getByText('No evidence yet.')).toBeVisible();

    // The refused file taken off, the text goes alone; then a real PNG.
    await fileInput.setInputFiles([]);
    await page.getByLabel('Text', { exact: true }).fill('compelling_evidence');
    await add.click();
    const evidence = page.getByTestId('evidence');
    await expect(evidence).toContainText('compelling_evidence');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await fileInput.setInputFiles({ name: 'signed-delivery.png', mimeType: 'image/png', buffer: png });
    await add.click();
    await expect(evidence.getByRole('listitem')).toHaveText(['compelling_evidence', 'signed-delivery.png (image/png, 1 KB)']);
    await checkScreen(page);
    // Submitting cannot be undone: an in-page confirmation says so first, and Cancel sends nothing.
    await page.getByRole('button', { name: 'Submit evidence' }).click();
    const submitConfirm = page.getByRole('dialog', { name: /^Submit the evidence to the bank\? It cannot be changed/ });
    await expect(submitConfirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expect(page.getByRole('button', { name: 'Accept dispute' })).toHaveCount(0);
    await checkScreen(page);
    await submitConfirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('needs response');
    await page.getByRole('button', { name: 'Submit evidence' }).click();
    await submitConfirm.getByRole('button', { name: 'Yes, submit the evidence' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('under review');
    await expect(page.getByRole('button', { name: 'Add', exact: true })).toHaveCount(0);

    // The third is accepted, after the owner confirms in the page.
    await page.goto(`${base}/disputes/${accepted!.id}`);
    await page.getByRole('button', { name: 'Accept dispute' }).click();
    await page
      .getByRole('dialog', { name: 'Accept this dispute? The disputed amount is given up.' })
      .getByRole('button', { name: 'Yes, accept the dispute' })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('accepted');
    await expect(page.getByRole('button', { name: 'Submit evidence' })).toHaveCount(0);

    // The bank decides five seconds after submit, as Braintree's sandbox does.
    await expectDecided(page, wonUrl, 'won');
    await expect(page.getByTestId('evidence').getByRole('listitem')).toHaveCount(2);
    await expectDecided(page, `${base}/disputes/${lost!.id}`, 'lost');
    // The payment's page shows its dispute, linked.
    await page.getByRole('link', { name: lost!.payment }).click();
    const onPayment = page.getByRole('region', { name: 'Disputes' });
    await expect(onPayment).toContainText('lost');
    await expect(onPayment.getByRole('link', { name: '$31.00' })).toHaveAttribute('href', `${base}/disputes/${lost!.id}`);

    // The inbox shows them decided; the audit log names the owner for each action in the browser
    // (and the key for the API's).
    await goTo(page, 'Disputes');
    await expect(rows.filter({ hasText: won!.payment })).toContainText('won');
    await expect(rows.filter({ hasText: lost!.payment })).toContainText('lost');
    await expect(rows.filter({ hasText: accepted!.payment })).toContainText('accepted');
    await expect(rows.filter({ hasText: 'left' })).toHaveCount(0);
    await goTo(page, 'Audit log');
    const audit = page.getByRole('row').filter({ hasText: /dispute\./ });
    const byOwner = audit.filter({ hasText: ownerEmail });
    await expect(byOwner.filter({ hasText: 'dispute.add_evidence' })).toHaveCount(2);
    await expect(byOwner.filter({ hasText: 'dispute.submit' })).toHaveCount(1);
    await expect(byOwner.filter({ hasText: 'dispute.accept' })).toHaveCount(1);
    await expect(audit.filter({ hasText: 'API key sk_test_' })).toHaveCount(2);
  });
});
