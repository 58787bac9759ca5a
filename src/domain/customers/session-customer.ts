import type { Deps } from '../deps';
import type { CheckoutSession } from '../sessions/entities';
import { buildCustomer, customerEvent } from './rules';

/**
 * The session as it is to be paid, with its customer: a session without one whose
 * `customer_creation` is `always` (or that needs one, `required`, to save a payment method) makes a
 * customer of its shopper, by the email they pay with, before the payment's intent is written. The
 * customer, its `customer.created` event and the session's pointer commit together; a second
 * attempt on the session finds the customer the first one made.
 */
export async function withSessionCustomer(deps: Deps, session: CheckoutSession, email: string, required: boolean): Promise<CheckoutSession> {
  if (session.customerId || session.status !== 'open') return session;
  if (session.customerCreation !== 'always' && !required) return session;
  return deps.store.transaction(async (tx) => {
    const current = await tx.checkoutSessions.get(null, session.id, { forUpdate: true });
    if (!current || current.customerId || current.status !== 'open') return current ?? session;
    const now = deps.clock.now();
    const scope = { accountId: current.accountId, mode: current.mode };
    const customer = buildCustomer({ email }, scope, now);
    await tx.customers.insert(customer);
    await tx.events.insert(customerEvent(customer, 'customer.created', now));
    const next: CheckoutSession = { ...current, customerId: customer.id, updatedAt: now };
    await tx.checkoutSessions.update(next, current.status);
    return next;
  });
}
