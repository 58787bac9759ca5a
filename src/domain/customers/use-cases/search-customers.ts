import { TillpointError } from '../../shared/errors';
import type { Page, PageRequest } from '../../shared/pagination';
import { can, type Role } from '../../team/permissions';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Customer } from '../entities';
import { listCustomers } from './list-customers';

/**
 * The dashboard's Customers list: one page of the scope's customers, newest first, or those with one
 * email address. `role` is the asking member's: only a role that sees customer emails may search by
 * one (a viewer could otherwise test whether an address is a customer).
 */
export async function searchCustomers(deps: Deps, options: { scope: Scope; page: PageRequest; email?: string; role: Role }): Promise<Page<Customer>> {
  if (options.email && !can(options.role, 'customers.read_email')) {
    throw new TillpointError('insufficient_role', `The ${options.role} role may not search by customer email`, { param: 'email' });
  }
  return listCustomers(deps, { scope: options.scope, page: options.page, email: options.email });
}
