import { resourceMissing, TillpointError } from '../../shared/errors';
import { recordAudit } from '../../team/audit';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import { transitionCheckoutSession } from '../../payments/transition';
import type { Scope } from '../../shared/scope';
import type { CheckoutSession } from '../entities';

/**
 * Expires an open session now, so the shopper can no longer pay it. A session whose payment is
 * under way or done cannot be expired.
 */
export async function expireCheckoutSession(deps: Deps, options: { scope: Scope; id: string; actor: Actor }): Promise<CheckoutSession> {
  return deps.store.transaction(async (tx) => {
    const session = await tx.checkoutSessions.get(options.scope, options.id, { forUpdate: true });
    if (!session) throw resourceMissing('checkout session', options.id);
    if (session.status === 'expired') return session;
    if (session.status === 'complete') {
      throw new TillpointError('checkout_session_completed', 'This checkout session is already complete');
    }
    if (await tx.payments.holdingSession(session.id)) {
      throw new TillpointError('checkout_session_completed', 'A payment for this checkout session is under way; it cannot be expired now');
    }
    const now = deps.clock.now();
    await recordAudit(tx, {
      accountId: options.scope.accountId,
      mode: options.scope.mode,
      actor: options.actor,
      action: 'checkout_session.expire',
      target: session.id,
      at: now,
    });
    return transitionCheckoutSession(tx, session, 'expired', {}, now, deps.publicUrl);
  });
}
