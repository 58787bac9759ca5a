import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Customer } from '../entities';

/** One page of the scope's customers, newest first; `email` keeps those with that address (any case). */
export async function listCustomers(deps: Deps, options: { scope: Scope; page: PageRequest; email?: string }): Promise<Page<Customer>> {
  const email = options.email?.trim();
  return readPage(options.page, (page) => deps.store.readReplica((reader) => reader.customers.list(options.scope, { ...page, email })));
}
