// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionDetail } from '../api';
import { DashboardIntl } from '../i18n';
import type { Place } from '../Layout';
import { renderWithQueries, settle, cleanUpRendered } from '../render-for-tests';
import { SubscriptionDetailPage } from './SubscriptionsPage';

const placeAs = (role: Place['account']['role']): Place => ({
  account: { id: 'acct_1', name: 'Shop', role, default_currency: 'USD' },
  mode: 'test',
  rest: 'subscriptions/sub_1',
});

const JUNE_1 = Date.UTC(2026, 5, 1, 12) / 1000;
const JULY_1 = Date.UTC(2026, 6, 1, 12) / 1000;

/** A subscription's page as the server answers it (only what the page shows matters here). */
function subscription(overrides: Partial<SubscriptionDetail> = {}): SubscriptionDetail {
  const price = {
    id: 'price_1',
    object: 'price',
    livemode: false,
    product: 'prod_1',
    currency: 'usd',
    unit_amount: 2000,
    active: true,
    nickname: null,
    metadata: {},
    recurring: { interval: 'month', interval_count: 1 },
    type: 'recurring',
    created: JUNE_1,
  };
  return {
    id: 'sub_1',
    object: 'subscription',
    livemode: false,
    customer: 'cus_1',
    customer_email: 'ada@buyer.example',
    status: 'active',
    quantity: 2,
    currency: 'usd',
    default_payment_method: 'pm_1',
    billing_cycle_anchor: JUNE_1,
    current_period_start: JUNE_1,
    current_period_end: JULY_1,
    trial_start: null,
    trial_end: null,
    cancel_at_period_end: false,
    canceled_at: null,
    ended_at: null,
    latest_invoice: 'in_1',
    test_clock: null,
    metadata: {},
    created: JUNE_1,
    items: { object: 'list', data: [{ object: 'subscription_item', price, quantity: 2 }] },
    invoices: [
      {
        id: 'in_1',
        object: 'invoice',
        livemode: false,
        customer: 'cus_1',
        subscription: 'sub_1',
        status: 'paid',
        billing_reason: 'subscription_create',
        currency: 'usd',
        subtotal: 4000,
        total: 4000,
        amount_due: 4000,
        amount_paid: 4000,
        amount_remaining: 0,
        period_start: JUNE_1,
        period_end: JULY_1,
        attempt_count: 1,
        next_payment_attempt: null,
        payment: 'pay_1',
        test_clock: null,
        finalized_at: JUNE_1,
        paid_at: JUNE_1,
        voided_at: null,
        created: JUNE_1,
        lines: { object: 'list', data: [] },
      },
    ],
    timeline: [
      { id: 'evt_2', type: 'invoice.paid', object: 'in_1', created: JUNE_1 + 1 },
      { id: 'evt_1', type: 'customer.subscription.created', object: 'sub_1', created: JUNE_1 },
    ],
    ...overrides,
  } as SubscriptionDetail;
}

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** The server: answers the page's reads with `current`, records every call, and applies the writes to `current`. */
function fakeServer(initial: SubscriptionDetail) {
  let current = initial;
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url, body });
    if (method === 'POST' && url.endsWith('/cancel')) current = { ...current, status: 'canceled', ended_at: JUNE_1 + 100 };
    else if (method === 'POST') current = { ...current, ...(body as object) } as SubscriptionDetail;
    return new Response(JSON.stringify(current), { status: 200 });
  });
  return { calls, writes: () => calls.filter((c) => c.method !== 'GET') };
}

async function render(role: Place['account']['role']) {
  window.history.replaceState(null, '', '/dashboard/acct_1/test/subscriptions/sub_1');
  return renderWithQueries(
    <DashboardIntl>
      <SubscriptionDetailPage base="/acct_1/test" place={placeAs(role)} id="sub_1" />
    </DashboardIntl>,
  );
}

const button = (container: HTMLElement, name: string) =>
  [...container.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.trim() === name) ?? null;

async function click(element: HTMLElement | null) {
  expect(element).not.toBeNull();
  await act(async () => element!.click());
  await settle();
}

afterEach(cleanUpRendered);

describe("a subscription's page", () => {
  it('shows its price, customer, period, invoices and timeline, with links to the customer and the invoices', async () => {
    fakeServer(subscription());
    const container = await render('viewer');
    expect(container.querySelector('h1')?.textContent).toContain('$40.00 / month');
    expect(container.querySelector('h1 .badge')?.textContent).toBe('active');
    const details = container.querySelector('[data-testid="subscription-details"]')!;
    expect(details.querySelector('a[href="/dashboard/acct_1/test/customers/cus_1"]')?.textContent).toBe('ada@buyer.example');
    expect(container.querySelector('[data-testid="cancel-at-period-end"]')?.textContent).toMatch(/^No: renews on /);
    expect(container.querySelector('[data-testid="subscription-items"] tbody')?.textContent).toContain('$20.00 / month');
    const invoiceRow = container.querySelector('[data-testid="subscription-invoices"] tbody tr')!;
    expect(invoiceRow.textContent).toContain('$40.00');
    expect(invoiceRow.querySelector('a')?.getAttribute('href')).toBe('/dashboard/acct_1/test/invoices/in_1');
    const timeline = [...container.querySelectorAll('[data-testid="subscription-timeline"] li')].map((li) => li.querySelector('span')?.textContent);
    expect(timeline).toEqual(['invoice.paid', 'customer.subscription.created']);
    // A viewer reads it and is offered no action.
    expect(button(container, 'Cancel now')).toBeNull();
    expect(button(container, 'Cancel at period end')).toBeNull();
  });

  it('cancels at period end only once confirmed, then offers Resume, which needs no confirmation', async () => {
    const server = fakeServer(subscription());
    const container = await render('admin');

    await click(button(container, 'Cancel at period end'));
    const dialog = container.querySelector('[data-testid="confirm"]')!;
    expect(dialog.textContent).toContain('at the end of its period');
    // Backing out sends nothing.
    await click(button(container, 'Cancel'));
    expect(container.querySelector('[data-testid="confirm"]')).toBeNull();
    expect(server.writes()).toEqual([]);

    await click(button(container, 'Cancel at period end'));
    await click(button(container, 'Yes, cancel at period end'));
    expect(server.writes()).toEqual([{ method: 'POST', url: '/dashboard/api/accounts/acct_1/test/subscriptions/sub_1', body: { cancel_at_period_end: true } }]);
    expect(container.querySelector('[role="status"]')?.textContent).toBe('The subscription will end at the end of its period.');
    expect(container.querySelector('[data-testid="cancel-at-period-end"]')?.textContent).toMatch(/^Yes: ends on /);

    await click(button(container, 'Resume'));
    expect(server.writes().at(-1)).toEqual({
      method: 'POST',
      url: '/dashboard/api/accounts/acct_1/test/subscriptions/sub_1',
      body: { cancel_at_period_end: false },
    });
    expect(container.querySelector('[data-testid="cancel-at-period-end"]')?.textContent).toMatch(/^No: renews on /);
  });

  it('changes the quantity after a confirmation that says what each period will bill; cancels now after its own', async () => {
    const server = fakeServer(subscription());
    const container = await render('owner');
    const input = container.querySelector<HTMLInputElement>('#subscription-quantity')!;
    const change = button(container, 'Change quantity')!;
    expect(change.disabled).toBe(true);
    await act(async () => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setValue.call(input, '3');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await click(change);
    expect(container.querySelector('[data-testid="confirm"]')?.textContent).toContain('from 2 to 3');
    expect(container.querySelector('[data-testid="confirm"]')?.textContent).toContain('$60.00 / month');
    expect(server.writes()).toEqual([]);
    await click(button(container, 'Yes, change the quantity'));
    expect(server.writes()).toEqual([{ method: 'POST', url: '/dashboard/api/accounts/acct_1/test/subscriptions/sub_1', body: { quantity: 3 } }]);

    await click(button(container, 'Cancel now'));
    expect(container.querySelector('[data-testid="confirm"]')?.textContent).toContain('cannot be undone');
    await click(button(container, 'Yes, cancel now'));
    expect(server.writes().at(-1)).toEqual({ method: 'POST', url: '/dashboard/api/accounts/acct_1/test/subscriptions/sub_1/cancel', body: undefined });
    expect(container.querySelector('h1 .badge')?.textContent).toBe('canceled');
    // A canceled subscription offers no more actions.
    expect(button(container, 'Cancel now')).toBeNull();
  });
});
