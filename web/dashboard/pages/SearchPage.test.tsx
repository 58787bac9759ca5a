// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DashboardIntl } from '../i18n';
import { renderWithQueries, settle, cleanUpRendered } from '../render-for-tests';
import { navigate } from '../router';
import { SearchPage, type SearchHit } from './SearchPage';

const hit = (kind: string, id: string): SearchHit => ({
  kind,
  id,
  created: 1_780_000_000,
  amount: 4200,
  currency: 'usd',
  status: null,
  customer_email: null,
  detail: null,
});

afterEach(cleanUpRendered);

describe('the search page', () => {
  it("under a new term, shows none of the last term's hits while this one's are read, then this one's", async () => {
    // The server: a dispute's id finds the dispute; its payment's id finds the payment and the
    // dispute, answered only when the test lets it.
    let answerSecond: () => void = () => undefined;
    vi.stubGlobal('fetch', async (url: string) => {
      const q = new URL(url, 'http://dashboard.test').searchParams.get('q');
      if (q === 'pay_1') await new Promise<void>((resolve) => (answerSecond = resolve));
      const data = q === 'dp_1' ? [hit('dispute', 'dp_1')] : [hit('payment', 'pay_1'), hit('dispute', 'dp_1')];
      return new Response(JSON.stringify({ data }), { status: 200 });
    });
    window.history.replaceState(null, '', '/dashboard/acct_1/test/search?q=dp_1');
    const page = await renderWithQueries(
      <DashboardIntl>
        <SearchPage
          base="/acct_1/test"
          place={{ account: { id: 'acct_1', name: 'Shop', role: 'owner', default_currency: 'USD' }, mode: 'test', rest: 'search' }}
        />
      </DashboardIntl>,
    );
    const links = () => [...page.querySelectorAll('a')].map((a) => a.textContent);
    expect(page.querySelector('h1')?.textContent).toBe('Search: dp_1');
    expect(links()).toEqual(['dp_1']);

    await act(async () => navigate('/dashboard/acct_1/test/search?q=pay_1'));
    await settle();
    expect(page.querySelector('h1')?.textContent).toBe('Search: pay_1');
    expect(links()).toEqual([]);
    expect(page.querySelector('[role="status"]')?.textContent).toMatch(/^Loading/);

    await act(async () => answerSecond());
    await settle();
    expect(links()).toEqual(['pay_1', 'dp_1']);
  });
});
