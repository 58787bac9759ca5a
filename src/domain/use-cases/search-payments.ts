import type { Payment } from '../entities';
import type { Deps, Scope } from '../ports';
import type { PaymentFilter } from '../team-ports';

/** The dashboard's payment list: one page of the scope's payments matching every filter, newest first. */
export async function searchPayments(
  deps: Deps,
  options: { scope: Scope; filter: PaymentFilter },
): Promise<{ data: Payment[]; hasMore: boolean }> {
  const { limit } = options.filter;
  // One extra row tells whether another page exists.
  const rows = await deps.store.transaction((tx) =>
    tx.dashboardSearch.payments(options.scope, { ...options.filter, limit: limit + 1 }),
  );
  return { data: rows.slice(0, limit), hasMore: rows.length > limit };
}
