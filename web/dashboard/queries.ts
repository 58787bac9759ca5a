import { keepPreviousData, QueryClient, useQuery, type QueryKey } from '@tanstack/react-query';
import { api, type DashboardApiError } from './api';

/**
 * The dashboard's cache of what it read. A read fails once (no retries: the page shows the error
 * and the merchant decides), and is not repeated when the window regains focus.
 */
export function createDashboardQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/**
 * The key of a read: its path's segments, then its query parameters, so everything the request
 * depends on (account, mode, filters, cursor) is in it. `/accounts/acct_1/test/payments?status=failed`
 * is `['accounts', 'acct_1', 'test', 'payments', { status: 'failed' }]`; the key of a path without
 * parameters is a prefix of every read under it, which is what a write invalidates.
 */
export function queryKeyOf(path: string): QueryKey {
  const [pathname = '', search = ''] = path.split('?');
  const segments = pathname.split('/').filter(Boolean);
  const params = new URLSearchParams(search);
  params.sort();
  return params.size ? [...segments, Object.fromEntries(params)] : segments;
}

/**
 * Reads `GET /dashboard/api<path>` for a page. A new path is a new query: the one before is aborted
 * (its answer can no longer land on the page), and until the new answer comes the page keeps the
 * rows it had, with `loading` set. `reload` reads the same path again.
 */
export function useApiQuery<T>(path: string) {
  const query = useQuery<T, DashboardApiError>({
    queryKey: queryKeyOf(path),
    queryFn: ({ signal }) => api<T>('GET', path, undefined, signal),
    placeholderData: keepPreviousData,
  });
  return {
    data: query.data ?? null,
    /** `data` is another path's, kept on screen while this path's is read (a new page of a list, new filters). */
    previous: query.isPlaceholderData,
    error: query.error,
    loading: query.isFetching,
    reload: async () => {
      await query.refetch();
    },
  };
}
