import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { CheckoutSession } from '../../sessions/entities';
import { repriceOpenSession } from '../reprice';

/** The shopper picks one of the session's shipping options; the server prices the session again. */
export async function chooseShippingRate(deps: Deps, options: { sessionId: string; shippingRateId: string }): Promise<CheckoutSession> {
  const param = 'shipping_rate';
  return repriceOpenSession(deps, {
    sessionId: options.sessionId,
    param,
    change: async (_tx, session) => {
      if (!session.shippingOptions.some((option) => option.id === options.shippingRateId)) {
        throw new TillpointError('parameter_invalid', 'This is not one of the shipping options of this checkout', { param });
      }
      return { shippingRateId: options.shippingRateId };
    },
  });
}
