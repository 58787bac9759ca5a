import { CSP_REPORT_RETENTION_MS } from '../rules';
import type { Deps } from '../../deps';

/** Deletes CSP reports older than 90 days. */
export async function purgeExpiredCspReports(deps: Deps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - CSP_REPORT_RETENTION_MS);
  return deps.store.transaction((tx) => tx.checkoutPage.purgeCspReportsBefore(before));
}
