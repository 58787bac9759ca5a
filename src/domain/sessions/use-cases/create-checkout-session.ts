import { buildCheckoutSession, type NewCheckoutSession } from '../rules';
import { newAuditEntry } from '../../team/audit';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { CheckoutSession } from '../entities';

/** Opens a checkout session for a cart; the shopper pays it at its `url`. */
export async function createCheckoutSession(
  deps: Deps,
  /** `actor` is the key or user it is audited against; null when a shopper opened a payment link. */
  options: { scope: Scope; input: NewCheckoutSession; actor: Actor | null },
): Promise<CheckoutSession> {
  let input = options.input;
  if (input.customerId) {
    // A session for a known customer takes its email from the customer, as Stripe's does.
    if (input.customerEmail) {
      throw new TillpointError('parameter_invalid', 'Give either customer or customer_email, not both', { param: 'customer_email' });
    }
    if (input.customerCreation) {
      throw new TillpointError('parameter_invalid', 'customer_creation is for sessions without a customer', { param: 'customer_creation' });
    }
    const customer = await deps.store.read((reader) => reader.customers.get(options.scope, input.customerId!));
    if (!customer) throw new TillpointError('resource_missing', `No such customer: '${input.customerId}'`, { param: 'customer' });
    input = { ...input, customerEmail: customer.email };
  }
  const session = buildCheckoutSession(input, options.scope, deps.clock.now());
  // The session and its audit line commit together, in one statement.
  const audit = options.actor
    ? newAuditEntry({ accountId: options.scope.accountId, mode: options.scope.mode, actor: options.actor, action: 'checkout_session.create', target: session.id, at: session.createdAt })
    : undefined;
  await deps.store.once((db) => db.checkoutSessions.insert(session, audit));
  return session;
}
