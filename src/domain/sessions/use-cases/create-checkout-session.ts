import { buildCheckoutSession, type NewCheckoutSession } from '../rules';
import { recordAudit } from '../../team/audit';
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
  await deps.store.transaction(async (tx) => {
    await tx.checkoutSessions.insert(session);
    if (options.actor) {
      await recordAudit(tx, { accountId: options.scope.accountId, mode: options.scope.mode, actor: options.actor, action: 'checkout_session.create', target: session.id, at: session.createdAt });
    }
  });
  return session;
}
