import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { CheckoutSession } from '../entities';
import { expireIfOverdue } from '../rules';

/**
 * Reads a session, expiring it first when its time is up and no payment holds it, so nobody ever
 * sees an `open` session past its `expires_at`.
 */
export async function getCheckoutSession(
  deps: Deps,
  options: { scope: Scope | null; id: string },
): Promise<CheckoutSession> {
  return deps.store.transaction(async (tx) => {
    const session = await tx.checkoutSessions.get(options.scope, options.id, { forUpdate: true });
    if (!session) throw resourceMissing('checkout session', options.id);
    return expireIfOverdue(deps, tx, session);
  });
}
