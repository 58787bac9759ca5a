import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { RawCard } from '../../processors/ports';
import { openSessionForPayment } from '../rules';

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
