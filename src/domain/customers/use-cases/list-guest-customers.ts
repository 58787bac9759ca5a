import { TillpointError } from '../../shared/errors';
import { can, type Role } from '../../team/permissions';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { GuestCustomer } from '../entities';

/**
 * The Customers page's guests: shoppers who paid with an email and are no customer, most recent
 * payment first; read-only, nothing is stored for them. As with customers, only a role that sees
 * emails may look one up by email.
 */
export async function listGuestCustomers(
  deps: Deps,
  options: { scope: Scope; limit: number; email?: string; role: Role },
): Promise<{ data: GuestCustomer[]; hasMore: boolean }> {
  if (options.email && !can(options.role, 'customers.read_email')) {
    throw new TillpointError('insufficient_role', `The ${options.role} role may not search by customer email`, { param: 'email' });
  }
  const found = await deps.store.readReplica((tx) => tx.customers.listGuests(options.scope, { email: options.email, limit: options.limit + 1 }));
  return { data: found.slice(0, options.limit), hasMore: found.length > options.limit };
}
