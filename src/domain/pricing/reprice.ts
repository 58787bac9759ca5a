import { resourceMissing, TillpointError } from '../shared/errors';
import type { Deps, UnitOfWork } from '../deps';
import type { CheckoutSession } from '../sessions/entities';
import { assertPayableTotal, priceCheckoutSession } from '../sessions/rules';
import { refusalToPay } from '../payments/rules';

/**
 * A shopper's change to an open session (a promotion code, a shipping choice), priced again by the
 * server in one transaction with the session locked. A session with a payment under way keeps its
 * total: the processor was asked for that amount. `change` answers the session's new inputs.
 */
export async function repriceOpenSession(
  deps: Deps,
  options: { sessionId: string; param: string; change: (tx: UnitOfWork, session: CheckoutSession, now: Date) => Promise<Partial<CheckoutSession>> },
): Promise<CheckoutSession> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const session = await tx.checkoutSessions.get(null, options.sessionId, { forUpdate: true });
    if (!session) throw resourceMissing('checkout session', options.sessionId);
    const refused = refusalToPay(session, session.status === 'open' && session.expiresAt <= now);
    if (refused) throw refused;
    if (await tx.payments.holdingSession(session.id)) {
      throw new TillpointError('idempotency_key_in_use', 'A payment for this checkout session is under way; wait for its result');
    }
    const changed = { ...session, ...(await options.change(tx, session, now)) };
    const priced = priceCheckoutSession(changed);
    assertPayableTotal(priced.amountTotal, session.currency, options.param);
    const next: CheckoutSession = { ...changed, ...priced, updatedAt: now };
    if (!(await tx.checkoutSessions.update(next, 'open'))) throw refusalToPay({ ...session, status: 'complete' })!;
    return next;
  });
}
