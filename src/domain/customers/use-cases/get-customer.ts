import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Customer } from '../entities';

/** Reads one customer of the scope. */
export async function getCustomer(deps: Deps, options: { scope: Scope; id: string }): Promise<Customer> {
  const customer = await deps.store.read((reader) => reader.customers.get(options.scope, options.id));
  if (!customer) throw resourceMissing('customer', options.id);
  return customer;
}
