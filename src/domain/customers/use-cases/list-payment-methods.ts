import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { SavedPaymentMethod } from '../entities';

/** A customer's saved payment methods, newest first. */
export async function listPaymentMethods(deps: Deps, options: { scope: Scope; customerId: string }): Promise<SavedPaymentMethod[]> {
  return deps.store.read(async (reader) => {
    const customer = await reader.customers.get(options.scope, options.customerId);
    if (!customer) throw resourceMissing('customer', options.customerId);
    return reader.savedPaymentMethods.listForCustomer(options.scope, customer.id);
  });
}
