import type { Payment } from '../entities';
import type { Deps } from '../../deps';
import type { PageRequest } from '../../shared/pagination';
import type { Scope } from '../../shared/scope';
import { parsePaymentSearchQuery } from '../../search/query-language';

/** `GET /v1/payments/search`: one page of the scope's payments matching the query, newest first. */
export async function searchPaymentsByQuery(
  deps: Deps,
  options: { scope: Scope; query: string; page: PageRequest },
): Promise<{ data: Payment[]; hasMore: boolean }> {
  const clauses = parsePaymentSearchQuery(options.query);
  const { limit } = options.page;
  // One extra row tells whether another page exists.
  const rows = await deps.store.readReplica((reader) => reader.dashboardSearch.paymentsByQuery(options.scope, clauses, { ...options.page, limit: limit + 1 }));
  return { data: rows.slice(0, limit), hasMore: rows.length > limit };
}
