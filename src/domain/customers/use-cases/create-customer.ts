import { auditWrite } from '../../team/audit';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { Customer } from '../entities';
import { TillpointError } from '../../shared/errors';
import { buildCustomer, customerEvent, type CustomerInput } from '../rules';

/** Creates a customer; fires `customer.created`. */
export async function createCustomer(
  deps: Deps,
  options: { scope: Scope; input: CustomerInput & { testClockId?: string }; actor: Actor | null },
): Promise<Customer> {
  const now = deps.clock.now();
  const customer = { ...buildCustomer(options.input, options.scope, now), testClockId: options.input.testClockId ?? null };
  await deps.store.transaction(async (tx) => {
    // A test clock of this account, in test mode (the clock's table holds test mode only).
    if (customer.testClockId && !(await tx.testClocks.get(options.scope, customer.testClockId))) {
      throw new TillpointError('resource_missing', `No such test clock: '${customer.testClockId}'`, { param: 'test_clock' });
    }
    await tx.customers.insert(customer);
    await tx.events.insert(customerEvent(customer, 'customer.created', now));
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'customer.create', target: customer.id, at: now });
  });
  return customer;
}
