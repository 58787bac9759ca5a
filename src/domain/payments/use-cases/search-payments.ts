import type { Payment } from '../entities';
import { TillpointError } from '../../shared/errors';
import { can, type Role } from '../../team/permissions';
import type { Deps } from '../../deps';
import type { PaymentFilter } from '../../team/ports';
import type { Scope } from '../../shared/scope';

/**
 * The dashboard's payment list: one page of the scope's payments matching every filter, newest
 * first. `role` is the asking member's: only a role that sees customer emails may filter by one.
 */
export async function searchPayments(deps: Deps, options: { scope: Scope; filter: PaymentFilter; role: Role }): Promise<{ data: Payment[]; hasMore: boolean }> {
  // Filtering by an address would let someone who sees emails masked test whether a customer paid.
  if (options.filter.email && !can(options.role, 'customers.read_email')) {
    throw new TillpointError('insufficient_role', `The ${options.role} role may not search by customer email`, { param: 'email' });
  }
  const { limit } = options.filter;
  // One extra row tells whether another page exists.
  const rows = await deps.store.readReplica((reader) => reader.dashboardSearch.payments(options.scope, { ...options.filter, limit: limit + 1 }));
  return { data: rows.slice(0, limit), hasMore: rows.length > limit };
}
