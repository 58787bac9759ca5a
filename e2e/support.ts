import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type APIRequestContext, type Frame, type Page } from '@playwright/test';
import type axe from 'axe-core';

/**
 * axe-core's minified build, what a scan puts into each document it checks (`axe.source` is the
 * unminified 1.3 MB: about 0.3 s more to send and compile per document on a slow day).
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const secretKey = () => process.env.E2E_SECRET_KEY!;

/**
 * The merchant API as a merchant's back end calls it, with one account's secret key (the shared
 * e2e account's unless a spec has an account of its own): any call must answer 200.
 */
export function merchantApi(key: () => string = secretKey) {
  const headers = () => ({ Authorization: `Bearer ${key()}` });
  const call = async (request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown) => {
    const response = method === 'GET' ? await request.get(path, { headers: headers() }) : await request.post(path, { headers: headers(), data });
    expect(response.status(), await response.text()).toBe(200);
    return response.json();
  };
  return {
    call,
    /** Opens a checkout session (USD 18.00 for one bag unless told otherwise). */
    createSession: async (request: APIRequestContext, body: Record<string, unknown> = {}) =>
      (await call(request, 'POST', '/v1/checkout/sessions', {
        currency: 'usd',
        line_items: [{ name: 'Ethiopia Guji, 250 g', unit_amount: 1800, quantity: 1 }],
        ...body,
      })) as { id: string; url: string; amount_total: number },
    /** The payments of one session. */
    paymentsOf: async (request: APIRequestContext, sessionId: string) =>
      (await call(request, 'GET', `/v1/payments?checkout_session=${sessionId}&limit=100`)).data as Array<{
        id: string;
        status: string;
        decline_code: string | null;
        payment_method: { brand: string; last4: string } | null;
        three_d_secure: { status: string; liability_shifted: boolean } | null;
      }>,
  };
}

const sharedAccount = merchantApi();
/** Opens a checkout session through the merchant API, as a merchant's back end would. */
export const createSession = sharedAccount.createSession;
export const apiGet = (request: APIRequestContext, path: string) => sharedAccount.call(request, 'GET', path);
export const paymentsOf = sharedAccount.paymentsOf;

/**
 * A payment its bank confirms later (a bank debit, a local method), from the shopper's approval on:
 * the page says it is confirming and updates by itself while the payment is `processing`; once the
 * test processor's delay has passed, it shows the receipt (`paidWith`) with no reload. Each screen is
 * checked. Returns the payment as it is then, and the types of the events it made, oldest first.
 */
export async function confirmedLater(page: Page, request: APIRequestContext, sessionId: string, paidWith: string) {
  await expect(page.getByRole('heading', { name: 'Confirming your payment' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('This page updates by itself');
  const [waiting] = await paymentsOf(request, sessionId);
  expect(waiting!.status).toBe('processing');
  await checkScreen(page);

  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(paidWith)).toBeVisible();
  await checkScreen(page);
  const events = (await apiGet(request, '/v1/events?limit=100')).data as Array<{ type: string; data: { object: { id: string } } }>;
  return {
    payment: await apiGet(request, `/v1/payments/${waiting!.id}`),
    events: events
      .filter((event) => event.data.object.id === waiting!.id)
      .map((event) => event.type)
      .reverse(),
  };
}

export interface CardInput {
  email?: string;
  number?: string;
  expiry?: string;
  cvc?: string;
  postal?: string;
}

/** Types into the form the way a shopper does: click, type, move on. */
export async function fillCheckout(page: Page, card: CardInput = {}) {
  return test.step('fill the checkout form', async () => {
    await page.getByLabel('Email').fill(card.email ?? 'shopper@example.com');
    await typeInto(page, 'Card number', card.number ?? '4111 1111 1111 1111');
    await typeInto(page, 'Expiry (MM / YY)', card.expiry ?? '12 / 34');
    await typeInto(page, 'Security code', card.cvc ?? '123');
    // A session collecting a billing address gives the card's postal code: the card form does not ask it.
    if (await page.getByLabel('Postal code', { exact: true }).isVisible()) await typeInto(page, 'Postal code', card.postal ?? '94107');
  });
}

export async function typeInto(page: Page, label: string, text: string) {
  const field = page.getByLabel(label, { exact: true });
  await field.click();
  await field.press('Control+A');
  await field.press('Backspace');
  await field.pressSequentially(text.replace(/[ /]/g, ''));
}

export function payButton(page: Page) {
  // The card form's button ("Pay $18.00"), not a wallet's ("Pay with PayPal").
  return page.getByRole('button', { name: /^Pay (?!with )/ });
}

/** Pays the open page with the test card, waits for the receipt page, and reads the payment. */
export async function payWithTestCard(page: Page, request: APIRequestContext, sessionId: string) {
  await fillCheckout(page);
  await payButton(page).click();
  await page.waitForURL(`**/c/${sessionId}/done`);
  const paid = await apiGet(request, `/v1/checkout/sessions/${sessionId}`);
  return apiGet(request, `/v1/payments/${paid.payment}`);
}

/**
 * What every screen a browser test reaches is held to: axe finds no violation. In a flow tagged
 * `@desktop`, the same screen is then laid out at a desktop's 1280×800 too (`atDesktopWidth`) and
 * held to what that width promises: the page does not scroll sideways, every control on it can be
 * pressed where it shows (nothing covers it), and axe finds nothing there either; the flow then goes
 * on at the phone's width. So a flow runs once, and each screen it reaches is checked at both widths
 * ([ADR 0124](../docs/adr/0124-one-flow-each-screen-at-both-widths.md)). The page's scripts do not
 * look at its width (only its CSS does), so the widths differ in layout alone.
 */
export async function checkScreen(page: Page) {
  await expectNoAxeViolations(page);
  if (!test.info().tags.includes('@desktop')) return;
  await atDesktopWidth(page, async () => {
    expect(await sidewaysOverflow(page), 'the page scrolls sideways at 1280 px').toEqual([]);
    expect(await coveredControls(page), 'controls that cannot be pressed at 1280 px').toEqual([]);
    await expectNoAxeViolations(page);
  });
}

/** Runs `check` with the page laid out at a desktop's 1280×800, then puts back the viewport it had. */
export async function atDesktopWidth(page: Page, check: () => Promise<void>) {
  const before = page.viewportSize()!;
  await test.step('at 1280×800', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    try {
      await check();
    } finally {
      await page.setViewportSize(before);
    }
  });
}

/**
 * axe-core over the whole page, its frames included: no violations allowed. Every rule runs, in the
 * page (axe's own messages between frames, same-origin frames as @axe-core/playwright's legacy mode
 * reaches them), and describes only the violations, which is what the assertion reads. axe's 580 KB
 * are put into a frame once, on its first scan, not again on every scan of the same document: a scan
 * was then about an eighth of the browser tests' CPU.
 */
async function expectNoAxeViolations(page: Page) {
  await test.step('axe scan', async () => {
    await Promise.all(page.frames().map(withAxe));
    const violations = await page.evaluate(async () => {
      const found = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
      return found.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    });
    expect(violations).toEqual([]);
  });
}

/**
 * What makes the page itself scroll sideways at its width: the elements reaching past the
 * viewport's right edge (a wide table may scroll inside its own box: its overflow is clipped there).
 * Empty when the page fits.
 */
export const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${e.textContent?.slice(0, 30)})`)
      .slice(0, 5);
  });

/**
 * The controls on the page a user could not press: each one shown (a box of its own, visible, not
 * hidden from everyone) is scrolled to the middle of the viewport, and the element at its middle
 * must be the control itself, a part of it, or its label, as a click's target must be; while a modal
 * dialog is open, only the controls in it (the rest of the page is inert). A frame
 * (Braintree's card fields) counts as one control. The page's scroll is put back after. Empty when
 * every control can be pressed.
 */
const coveredControls = (page: Page) =>
  page.evaluate(() => {
    const name = (e: Element | null) =>
      e
        ? `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${typeof e.className === 'string' && e.className ? `.${e.className.split(' ').join('.')}` : ''} "${(e.textContent ?? '').trim().slice(0, 30)}"`
        : 'nothing';
    const modal = document.querySelector('dialog:modal');
    // A modal dialog makes the rest of the page inert: only what is in it can be pressed.
    const controls = (modal ?? document).querySelectorAll<HTMLElement>(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"], iframe',
    );
    const { scrollX, scrollY } = window;
    const covered: string[] = [];
    for (const control of controls) {
      const style = getComputedStyle(control);
      if (style.visibility !== 'visible' || Number(style.opacity) === 0 || control.closest('[aria-hidden="true"], [inert]')) continue;
      const shown = control.getBoundingClientRect();
      // Not drawn (in a closed menu or dialog), or drawn as a pixel for screen readers only.
      if (shown.width <= 1 || shown.height <= 1) continue;
      control.scrollIntoView({ block: 'center', inline: 'center' });
      const box = control.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      const label = hit?.closest('label');
      if (hit && (control.contains(hit) || (label && label.control === control))) continue;
      covered.push(`${name(control)} under ${name(hit)}`);
    }
    window.scrollTo(scrollX, scrollY);
    return covered.slice(0, 8);
  });

/** axe-core in this frame, unless its document has it already; a frame gone meanwhile is skipped. */
async function withAxe(frame: Frame): Promise<void> {
  try {
    const present = await frame.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
    if (present) return;
    // A frame still loading can hold an evaluation; after a second it is left out, as @axe-core/playwright does.
    const injected = frame.evaluate(`${axeSource};axe.configure({ allowedOrigins: ['<same_origin>'] });`);
    injected.catch(() => {});
    await Promise.race([injected, new Promise((_, reject) => setTimeout(() => reject(new Error('axe injection timed out')), 1000))]);
  } catch {
    // Detached, or navigating: there is no document to scan.
  }
}

/** The merchant's own site, which a third party would run: answers the success URL. */
export async function stubMerchantSite(page: Page) {
  await page.context().route('https://merchant.example/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><title>Thanks</title><main><h1>Thanks for your order</h1></main></html>',
    }),
  );
}
