import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DashboardApiError } from './api';
import { queryKeyOf } from './queries';

/**
 * Runs one write at a time for a page: `busy` disables its buttons while it runs, the error or the
 * returned notice is shown afterwards. A write that succeeds invalidates the reads it changed (each
 * path in `changes`, and every read under it), so the pages showing them read them again.
 */
export function useAction() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const act = async (work: () => Promise<string | null> | Promise<void>, changes: string[] = []) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const said = (await work()) ?? null;
      await Promise.all(changes.map((path) => queryClient.invalidateQueries({ queryKey: queryKeyOf(path) })));
      setNotice(said);
    } catch (e) {
      setError(e as DashboardApiError);
    }
    setBusy(false);
  };
  return { busy, error, notice, act };
}
