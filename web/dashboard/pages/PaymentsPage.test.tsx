// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DashboardIntl } from '../i18n';
import type { Place } from '../Layout';
import { renderWithQueries, settle, cleanUpRendered } from '../render-for-tests';
import { PaymentsPage } from './PaymentsPage';

const place: Place = { account: { id: 'acct_1', name: 'Shop', role: 'owner', default_currency: 'USD' }, mode: 'test', rest: 'payments' };

/** A payment row as the list answers it (only what the list shows matters here). */
const payment = (id: string, amount: number) => ({
  id,
  status: 'succeeded',
  status_badge: 'succeeded',
  amount,
  currency: 'usd',
  customer_email: null,
  payment_method: null,
  created: 1_780_000_000,
});

/** A request the page made, answered when the test says so. */
interface Asked {
  url: string;
  signal: AbortSignal | undefined;
  answer: (rows: ReturnType<typeof payment>[]) => Promise<void>;
}

afterEach(cleanUpRendered);

describe('the payments list', () => {
  it('shows the rows of the last filter chosen, even when an earlier filter is answered after it, and aborts the earlier request', async () => {
    const asked: Asked[] = [];
    // The server's answers come when the test resolves them, in any order; like a slow server, it
    // answers a request the page gave up on too, so only the page can keep that answer off screen.
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      let resolve: (response: Response) => void = () => {};
      const promise = new Promise<Response>((settled) => {
        resolve = settled;
      });
      asked.push({
        url,
        signal: init.signal ?? undefined,
        answer: async (rows) => {
          await act(async () => resolve(new Response(JSON.stringify({ object: 'list', data: rows, has_more: false }), { status: 200 })));
          await settle();
        },
      });
      return promise;
    });
    window.history.replaceState(null, '', '/dashboard/acct_1/test/payments');
    const container = await renderWithQueries(
      <DashboardIntl>
        <PaymentsPage base="/acct_1/test" place={place} />
      </DashboardIntl>,
    );
    const rows = () => [...container.querySelectorAll('tbody tr')].map((row) => row.querySelector('a')?.textContent);
    const choose = async (status: string) => {
      const select = container.querySelector<HTMLSelectElement>('#f-status')!;
      await act(async () => {
        select.value = status;
        select.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await settle();
    };

    expect(asked.map((a) => a.url)).toEqual(['/dashboard/api/accounts/acct_1/test/payments?']);
    await asked[0]!.answer([payment('pay_any', 100)]);
    expect(rows()).toEqual(['pay_any']);

    await choose('refunded');
    await choose('failed');
    expect(asked.map((a) => a.url).slice(1)).toEqual([
      '/dashboard/api/accounts/acct_1/test/payments?status=refunded',
      '/dashboard/api/accounts/acct_1/test/payments?status=failed',
    ]);
    const [, refunded, failed] = asked;

    await failed!.answer([payment('pay_failed', 300)]);
    expect(rows()).toEqual(['pay_failed']);
    // The answer for the filter left behind comes last: the page keeps the rows of the one chosen.
    await refunded!.answer([payment('pay_refunded', 200)]);
    expect(rows()).toEqual(['pay_failed']);
    expect(refunded!.signal?.aborted).toBe(true);
    expect(failed!.signal?.aborted).toBe(false);
    expect(window.location.search).toBe('?status=failed');
  });
});
