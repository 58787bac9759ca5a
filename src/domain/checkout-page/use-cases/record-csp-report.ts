import { newId } from '../../shared/ids';
import type { Deps } from '../../deps';
import type { CspReport } from '../entities';

/**
 * Stores a CSP violation the checkout page's browser reported, for the account whose checkout
 * session the page showed. The caller has already scrubbed it. A report naming no session of ours
 * is dropped (null): it cannot be attributed, and storing it would let anyone fill the table.
 * `admit` is asked once the account is known (a per-account rate limit).
 */
export async function recordCspReport(
  deps: Deps,
  options: {
    checkoutSessionId: string;
    report: Omit<CspReport, 'id' | 'accountId' | 'checkoutSessionId' | 'receivedAt'>;
    admit?: (accountId: string) => boolean;
  },
): Promise<CspReport | null | 'rate_limited'> {
  const { checkoutSessionId } = options;
  const session = await deps.store.read((reader) => reader.checkoutSessions.get(null, checkoutSessionId));
  if (!session) return null;
  if (options.admit && !options.admit(session.accountId)) return 'rate_limited';
  const report: CspReport = { ...options.report, id: newId('cspr'), accountId: session.accountId, checkoutSessionId, receivedAt: deps.clock.now() };
  await deps.store.transaction((tx) => tx.checkoutPage.insertCspReport(report));
  return report;
}
