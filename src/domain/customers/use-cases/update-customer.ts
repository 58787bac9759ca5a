import { auditWrite } from '../../team/audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { Customer } from '../entities';
import { applyCustomerInput, customerEvent, type CustomerInput } from '../rules';

/** Changes a customer's email, name, preferred languages or metadata; fires `customer.updated` when anything changed. */
export async function updateCustomer(deps: Deps, options: { scope: Scope; id: string; input: CustomerInput; actor: Actor | null }): Promise<Customer> {
  return deps.store.transaction(async (tx) => {
    const current = await tx.customers.get(options.scope, options.id, { forUpdate: true });
    if (!current) throw resourceMissing('customer', options.id);
    const now = deps.clock.now();
    const next = applyCustomerInput(current, options.input, now);
    const changed =
      next.email !== current.email ||
      next.name !== current.name ||
      JSON.stringify(next.preferredLocales) !== JSON.stringify(current.preferredLocales) ||
      JSON.stringify(next.metadata) !== JSON.stringify(current.metadata);
    if (!changed) return current;
    await tx.customers.update(next);
    await tx.events.insert(customerEvent(next, 'customer.updated', now));
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'customer.update', target: next.id, at: now });
    return next;
  });
}
