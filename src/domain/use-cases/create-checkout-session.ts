import { buildCheckoutSession, type NewCheckoutSession } from '../checkout-session-rules';
import type { CheckoutSession } from '../entities';
import type { Deps, Scope } from '../ports';

/** Opens a checkout session for a cart; the shopper pays it at its `url`. */
export async function createCheckoutSession(
  deps: Deps,
  options: { scope: Scope; input: NewCheckoutSession },
): Promise<CheckoutSession> {
  const session = buildCheckoutSession(options.input, options.scope, deps.clock.now());
  await deps.store.transaction((tx) => tx.checkoutSessions.insert(session));
  return session;
}
