import { resourceMissing, TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { RawCard } from '../../processors/ports';
import type { CheckoutSession } from '../../sessions/entities';

/** The session a shopper is about to pay, refused when it is unknown, expired or already paid. */
export async function openSessionForPayment(deps: Deps, sessionId: string): Promise<CheckoutSession> {
  const session = await deps.store.transaction((tx) => tx.checkoutSessions.get(null, sessionId));
  if (!session) throw resourceMissing('checkout session', sessionId);
  if (session.status === 'expired' || session.expiresAt <= deps.clock.now()) {
    throw new TillpointError('checkout_session_expired', 'This checkout session has expired');
  }
  if (session.status === 'complete') {
    throw new TillpointError('checkout_session_completed', 'This checkout session is already paid');
  }
  return session;
}

/**
 * Turns card details typed on the checkout page into a single-use nonce, for processors that take
 * card data on our side (the built-in test processor). The card number and CVC live only in this
 * call's memory.
 */
export async function tokenizeCard(
  deps: Deps,
  options: { sessionId: string; card: RawCard },
): Promise<{ nonce: string; brand: string | null; last4: string | null }> {
  const session = await openSessionForPayment(deps, options.sessionId);
  const processor = await deps.processors.forScope(session);
  if (!processor.tokenizeCard) {
    throw new TillpointError('parameter_invalid', 'This processor tokenizes cards in the browser', {
      param: 'card',
    });
  }
  const result = await processor.tokenizeCard(options.card);
  if (!result.ok) {
    if (result.declineCode === 'test_mode_live_card') {
      throw new TillpointError('card_declined', result.message, { declineCode: result.declineCode, param: result.param });
    }
    throw new TillpointError('parameter_invalid', result.message, { param: result.param });
  }
  return { nonce: result.nonce, brand: result.paymentMethod.brand, last4: result.paymentMethod.last4 };
}
