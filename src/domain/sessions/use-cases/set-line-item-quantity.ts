import type { Deps } from '../../deps';
import type { CheckoutSession } from '../entities';
import { repriceOpenSession } from '../../pricing/reprice';
import { linesWithQuantity } from '../shopper-options';

/**
 * The shopper changes an adjustable line's quantity on the page. The session is priced again by the
 * one totals function; a refused quantity, or a session paid or with a payment under way, changes
 * nothing.
 */
export async function setLineItemQuantity(deps: Deps, options: { sessionId: string; index: number; quantity: number }): Promise<CheckoutSession> {
  return repriceOpenSession(deps, {
    sessionId: options.sessionId,
    param: 'quantity',
    change: async (_tx, session) => ({ lineItems: linesWithQuantity(session, options.index, options.quantity) }),
  });
}
