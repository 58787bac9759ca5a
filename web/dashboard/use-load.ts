import { useCallback, useEffect, useState } from 'react';
import { DashboardApiError } from './api';

/** Loads data for a page and reloads it on demand; `key` changes refetch. */
export function useLoad<T>(load: () => Promise<T>, key: string) {
  const [state, setState] = useState<{ data: T | null; error: DashboardApiError | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useCallback(load, [key]);
  const reload = useCallback(async () => {
    setState((s) => ({ ...s, loading: true }));
    try {
      setState({ data: await run(), error: null, loading: false });
    } catch (error) {
      setState({ data: null, error: error as DashboardApiError, loading: false });
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { ...state, reload };
}
