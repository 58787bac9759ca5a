import { useState } from 'react';
import type { DashboardApiError } from './api';

/**
 * Runs one write at a time for a page: `busy` disables its buttons while it runs, the error or the
 * returned notice is shown afterwards.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const act = async (work: () => Promise<string | null> | Promise<void>) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      setNotice((await work()) ?? null);
    } catch (e) {
      setError(e as DashboardApiError);
    }
    setBusy(false);
  };
  return { busy, error, notice, act };
}
