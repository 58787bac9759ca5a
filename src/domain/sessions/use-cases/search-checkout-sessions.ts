import type { Deps } from '../../deps';
import type { CheckoutSessionFilter } from '../../team/ports';
import type { Scope } from '../../shared/scope';
import type { CheckoutSession } from '../entities';

/** One page of the scope's checkout sessions matching the dashboard's filters, newest first. */
export async function searchCheckoutSessions(
  deps: Deps,
  options: { scope: Scope; filter: CheckoutSessionFilter },
): Promise<{ data: CheckoutSession[]; hasMore: boolean }> {
  const { limit } = options.filter;
  const rows = await deps.store.readReplica((reader) => reader.dashboardSearch.checkoutSessions(options.scope, { ...options.filter, limit: limit + 1 }));
  return { data: rows.slice(0, limit), hasMore: rows.length > limit };
}
