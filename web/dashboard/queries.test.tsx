// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api';
import { queryKeyOf, useApiQuery } from './queries';
import { renderWithQueries, settle, cleanUpRendered } from './render-for-tests';
import { useAction } from './use-action';

afterEach(cleanUpRendered);

/** A page with two reads, and a write that changes the first. */
function Page() {
  const endpoints = useApiQuery<{ data: Array<{ id: string }> }>('/accounts/acct_1/test/webhook-endpoints?limit=100');
  const flags = useApiQuery<object>('/accounts/acct_1/test/flags');
  const { act: write } = useAction();
  return (
    <>
      <p id="rows">{endpoints.data?.data.map((e) => e.id).join(',')}</p>
      <p id="flags">{flags.data ? 'read' : ''}</p>
      <button
        type="button"
        onClick={() =>
          void write(async () => {
            await api('POST', '/accounts/acct_1/test/webhook-endpoints/we_1');
          }, ['/accounts/acct_1/test/webhook-endpoints'])
        }
      />
    </>
  );
}

describe("a read's key", () => {
  it('holds the account, mode, path and every parameter, in any order, and a path is a prefix of the reads under it', () => {
    expect(queryKeyOf('/accounts/acct_1/test/payments?status=failed&starting_after=pay_9')).toEqual([
      'accounts',
      'acct_1',
      'test',
      'payments',
      { starting_after: 'pay_9', status: 'failed' },
    ]);
    expect(queryKeyOf('/accounts/acct_1/test/payments?starting_after=pay_9&status=failed')).toEqual(
      queryKeyOf('/accounts/acct_1/test/payments?status=failed&starting_after=pay_9'),
    );
    expect(queryKeyOf('/accounts/acct_1/live/payments?status=failed')).not.toEqual(queryKeyOf('/accounts/acct_1/test/payments?status=failed'));
    expect(queryKeyOf('/accounts/acct_1/test/payments')).toEqual(['accounts', 'acct_1', 'test', 'payments']);
  });
});

describe('a write', () => {
  it('reads again what it changed, and only that', async () => {
    const names = ['first', 'renamed'];
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      asked.push(`${init.method} ${url}`);
      const body = url.endsWith('/webhook-endpoints?limit=100') ? { object: 'list', has_more: false, data: [{ id: names.shift() }] } : {};
      return new Response(JSON.stringify(body), { status: 200 });
    });
    const container = await renderWithQueries(<Page />);
    expect(container.querySelector('#rows')?.textContent).toBe('first');
    expect(container.querySelector('#flags')?.textContent).toBe('read');
    asked.length = 0;

    await act(async () => container.querySelector('button')!.click());
    await settle();
    expect(asked).toEqual([
      'POST /dashboard/api/accounts/acct_1/test/webhook-endpoints/we_1',
      'GET /dashboard/api/accounts/acct_1/test/webhook-endpoints?limit=100',
    ]);
    expect(container.querySelector('#rows')?.textContent).toBe('renamed');
  });
});
