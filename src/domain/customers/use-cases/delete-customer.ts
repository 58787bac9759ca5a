import { auditWrite } from '../../team/audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { Customer } from '../entities';
import { customerEvent } from '../rules';

/**
 * Deletes a customer, as privacy law expects of a shopper's record: the customer row goes, and its
 * past payments and checkout sessions stay (they are the merchant's books) with the customer
 * detached. Fires `customer.deleted` with the customer as it was.
 */
export async function deleteCustomer(deps: Deps, options: { scope: Scope; id: string; actor: Actor | null }): Promise<Customer> {
  return deps.store.transaction(async (tx) => {
    const customer = await tx.customers.get(options.scope, options.id, { forUpdate: true });
    if (!customer) throw resourceMissing('customer', options.id);
    const now = deps.clock.now();
    await tx.customers.delete(options.scope, customer.id);
    await tx.events.insert(customerEvent(customer, 'customer.deleted', now));
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'customer.delete', target: customer.id, at: now });
    return customer;
  });
}
