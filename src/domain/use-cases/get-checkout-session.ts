import type { CheckoutSession } from '../entities';
import { resourceMissing } from '../errors';
import type { Deps, Scope, UnitOfWork } from '../ports';
import { transitionCheckoutSession } from '../transition';

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

/** Expires an open session whose time is up, unless a payment for it is under way. */
export async function expireIfOverdue(
  deps: Deps,
  tx: UnitOfWork,
  session: CheckoutSession,
): Promise<CheckoutSession> {
  const now = deps.clock.now();
  if (session.status !== 'open' || session.expiresAt > now) return session;
  if (await tx.payments.holdingSession(session.id)) return session;
  return transitionCheckoutSession(tx, session, 'expired', {}, now, deps.publicUrl);
}
