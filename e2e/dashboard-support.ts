import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { checkScreen } from './support';

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
export const PASSWORD = 'a long enough passphrase';

/** Signs up a new owner with a new account through the sign-up page, checking it with axe on the way. */
export async function signUpThroughThePage(page: Page, business: string) {
  return test.step('sign up through the page', async () => {
    const email = `owner-${unique()}@shop.example`;
    await page.goto('/dashboard/sign-up');
    await expect(page.getByRole('heading', { name: 'Create your Tillpoint account' })).toBeVisible();
    await checkScreen(page);
    await page.getByLabel('Your name').fill('Olive Owner');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Business name').fill(business);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    return email;
  });
}

/**
 * Signs up a new owner with a new account through the dashboard's API, in the page's own browser
 * context (its cookies are the page's), and opens the Overview: for the tests whose subject is what
 * comes after. The sign-up page itself is driven by signUpThroughThePage.
 */
export async function signUp(page: Page, business: string) {
  return test.step('sign up', async () => {
    const email = `owner-${unique()}@shop.example`;
    const session = await page.request.get('/dashboard/api/session');
    expect(session.status()).toBe(200);
    const signedUp = await page.request.post('/dashboard/api/sign-up', {
      headers: { 'x-csrf-token': (await session.json()).csrf_token },
      data: { email, password: PASSWORD, name: 'Olive Owner', business_name: business },
    });
    expect(signedUp.status(), await signedUp.text()).toBe(201);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    return email;
  });
}

/**
 * The shopper pays a session (or a payment link) with the test card through the checkout page's
 * own endpoints, as its card form does (card token, then payment): for the dashboard tests, whose
 * subject is what the merchant sees afterwards. The page itself is driven by the checkout specs.
 */
export async function payAsShopper(request: APIRequestContext, url: string, email: string) {
  return test.step('shopper pays', async () => {
    let checkout = new URL(url);
    if (checkout.pathname.startsWith('/l/')) {
      // A payment link opens a new session of its own.
      const opened = await request.get(url, { maxRedirects: 0 });
      expect(opened.status(), await opened.text()).toBe(303);
      checkout = new URL(opened.headers().location!, url);
    }
    const sessionId = /^\/c\/([^/]+)$/.exec(checkout.pathname)![1]!;
    const api = `${checkout.origin}/api/checkout/sessions/${sessionId}`;
    const token = await request.post(`${api}/card-tokens`, {
      data: { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123', postal_code: '94107' },
    });
    expect(token.status(), await token.text()).toBe(200);
    const paid = await request.post(`${api}/payments`, { data: { payment_method_type: 'card', nonce: (await token.json()).nonce, email } });
    expect(paid.status(), await paid.text()).toBe(200);
    expect((await paid.json()).status).toBe('succeeded');
  });
}

/** Invites a member with a role from the Team page and signs them up in a browser of their own. */
export async function inviteMember(page: Page, browser: Browser, role: string) {
  await goTo(page, 'Team');
  await page.getByLabel('Role', { exact: true }).selectOption(role);
  await page.getByRole('button', { name: 'Create invite link' }).click();
  return joinByInvite(browser, (await page.getByTestId('invite-link').textContent())!, role);
}

/** A new member opens an invite link in a browser of their own, signs up and lands on the Overview. */
export async function joinByInvite(browser: Browser, link: string, role: string) {
  return test.step('join by invite', async () => {
    const context = await browser.newContext();
    const member = await context.newPage();
    await member.goto(link);
    await member.getByLabel('Your name').fill(`A ${role}`);
    await member.getByLabel('Email').fill(`${role}-${unique()}@shop.example`);
    await member.getByLabel('Password').fill(PASSWORD);
    await member.getByRole('button', { name: 'Create user and join' }).click();
    await expect(member.getByRole('heading', { name: 'Overview' })).toBeVisible();
    return { member, context };
  });
}

/**
 * Goes to a dashboard section through the navigation: on a phone it is behind the menu button
 * (opened first), on a wider screen its links are always shown.
 */
export async function goTo(page: Page, section: string) {
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await nav.waitFor();
  const menu = nav.getByRole('button', { name: /^Menu: / });
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  await nav.getByRole('link', { name: section, exact: true }).click();
}
