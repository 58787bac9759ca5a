// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import type { PublicSession } from './api';
import { defaultCheckoutFlags } from './flags';
import { inlineMessages, loadMessages, primeMessages } from './i18n';
import type { CheckoutPageData } from './page-data';
import { openSession } from './test-session';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const session = openSession('cs_confirming', {
  redirect_url: null,
  cancel_url: null,
  payment: { status: 'processing', amount: 1800, brand: null, last4: null },
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

/** The receipt page of a session whose payment is `processing`: it confirms, then shows what the payment became. */
describe('a payment being confirmed', () => {
  it('says so, with no form, reads the session again until the payment is final, then shows the receipt', async () => {
    const messages = inlineMessages(await loadMessages('en'));
    primeMessages(messages);
    const answers: PublicSession[] = [
      session,
      { ...session, status: 'complete', redirect_url: '/c/cs_confirming/done', payment: { status: 'succeeded', amount: 1800, brand: 'visa', last4: '1111' } },
    ];
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(answers[Math.min(asked.length - 1, answers.length - 1)]), { status: 200 });
    });
    const data: CheckoutPageData = {
      sessionId: session.id,
      receipt: true,
      view: { kind: 'confirming', session },
      flags: defaultCheckoutFlags,
      locale: 'en',
      messages,
      sentry: null,
    };
    const container = document.createElement('div');
    document.body.appendChild(container);
    const root = createRoot(container);
    // The paid views are a chunk of their own, fetched as the payment is being confirmed: loaded here
    // first, so the test waits on the page's clock, not on the module loader.
    await import('./Paid');
    // The page's clock: its waits between reads pass when the test says so.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await act(async () => root.render(<App data={data} />));

    expect(container.textContent).toContain('Confirming your payment');
    expect(container.querySelector('[data-testid="confirming"]')?.getAttribute('role')).toBe('status');
    expect(container.querySelector('input, button')).toBeNull();

    // Still processing at the first read (after 1 s), final at the second (2 s later).
    await act(() => vi.advanceTimersByTimeAsync(900));
    expect(asked).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(asked).toEqual(['/api/checkout/sessions/cs_confirming']);
    expect(container.textContent).toContain('Confirming your payment');
    await act(() => vi.advanceTimersByTimeAsync(2_200));
    expect(asked).toHaveLength(2);
    expect(container.textContent).toContain('Payment successful');
    expect(container.textContent).toContain('Paid $18.00 with Visa ending in 1111');

    // No more reads once final: no wait is left that would make one.
    expect(vi.getTimerCount()).toBe(0);
    await act(() => vi.runAllTimersAsync());
    expect(asked).toHaveLength(2);
    await act(async () => root.unmount());
  });
});
