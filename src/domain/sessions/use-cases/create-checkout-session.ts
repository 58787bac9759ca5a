import { buildCheckoutSession, type NewCheckoutSession } from '../rules';
import { newAuditEntry } from '../../team/audit';
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
  const session = buildCheckoutSession(options.input, options.scope, deps.clock.now());
  // The session and its audit line commit together, in one statement.
  const audit = options.actor
    ? newAuditEntry({ accountId: options.scope.accountId, mode: options.scope.mode, actor: options.actor, action: 'checkout_session.create', target: session.id, at: session.createdAt })
    : undefined;
  await deps.store.once((db) => db.checkoutSessions.insert(session, audit));
  return session;
}
