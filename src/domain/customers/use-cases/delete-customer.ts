import { auditWrite } from '../../team/audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { Customer } from '../entities';
import { customerEvent } from '../rules';
import { paymentMethodEvent } from '../saved-payment-methods';
import { removeAtProcessorOrRefuse } from './delete-payment-method';

/**
 * Deletes a customer, as privacy law expects of a shopper's record: its saved payment methods are
 * removed at the processor first (an unreachable processor changes nothing), then the customer and
 * its methods go here, while its past payments and checkout sessions stay (they are the merchant's
 * books) with the customer detached. Fires `payment_method.detached` for each method and
 * `customer.deleted` with the customer as it was.
 */
export async function deleteCustomer(deps: Deps, options: { scope: Scope; id: string; actor: Actor | null }): Promise<Customer> {
  const found = await deps.store.read(async (reader) => {
    const customer = await reader.customers.get(options.scope, options.id);
    return customer && { customer, methods: await reader.savedPaymentMethods.listForCustomer(options.scope, customer.id) };
  });
  if (!found) throw resourceMissing('customer', options.id);
  await removeAtProcessorOrRefuse(deps, options.scope, found.methods);
  return deps.store.transaction(async (tx) => {
    const customer = await tx.customers.get(options.scope, options.id, { forUpdate: true });
    if (!customer) throw resourceMissing('customer', options.id);
    const now = deps.clock.now();
    const methods = await tx.savedPaymentMethods.listForCustomer(options.scope, customer.id);
    for (const method of methods) {
      await tx.savedPaymentMethods.delete(options.scope, method.id);
      await tx.events.insert(paymentMethodEvent(method, 'payment_method.detached', now));
    }
    await tx.customers.delete(options.scope, customer.id);
    await tx.events.insert(customerEvent(customer, 'customer.deleted', now));
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'customer.delete', target: customer.id, at: now });
    return customer;
  });
}
