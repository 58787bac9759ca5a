import { useCallback, useEffect, useRef, useState } from 'react';
import type { DashboardApiError } from './api';

/** Loads data for a page and reloads it on demand; `key` changes refetch. */
export function useLoad<T>(load: () => Promise<T>, key: string) {
  const [state, setState] = useState<{ data: T | null; error: DashboardApiError | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  // `load` is a new closure every render: the latest one is called, and only `key` decides when.
  const latest = useRef(load);
  latest.current = load;
  const reload = useCallback(async () => {
    setState((s) => ({ ...s, loading: true }));
    try {
      setState({ data: await latest.current(), error: null, loading: false });
    } catch (error) {
      setState({ data: null, error: error as DashboardApiError, loading: false });
    }
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the trigger: a new key loads again.
  useEffect(() => {
    void reload();
  }, [reload, key]);
  return { ...state, reload };
}
